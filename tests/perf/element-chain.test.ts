// The element cache tries the element that followed the request's previous element before fingerprinting. Those
// `next` links must only ever return a JSON-identical element at the same place, and must not keep an evicted
// element matching (the cache's memory bound counts only live entries).
import { describe, expect, it } from 'vitest';
import { ElementCache } from '../../src/core/formats/element-cache.ts';

const record = () => ({
  segments: [],
  runs: [],
  nested: [],
  unknown: [],
  loneSurrogate: false,
  entryPosition: -1,
  entryRun: null,
  exitPosition: -1,
  exitRun: null,
});

describe('element cache: next links', () => {
  it('finds the linked successor only at its own place and only when JSON-identical', () => {
    const cache = new ElementCache();
    const first = cache.add(1, 'anthropic-messages', 'messages', 0, { role: 'user', content: 'hi' }, record());
    const second = cache.add(2, 'anthropic-messages', 'messages', 1, { role: 'assistant', content: 'hello' }, record());
    cache.link(first, second);
    const same = { role: 'assistant', content: 'hello' };
    expect(cache.findAfter(first, 'anthropic-messages', 'messages', 1, same)).toBe(second);
    expect(cache.findAfter(first, 'anthropic-messages', 'messages', 1, { role: 'assistant', content: 'hellO' })).toBeNull();
    expect(cache.findAfter(first, 'anthropic-messages', 'messages', 2, same)).toBeNull();
    expect(cache.findAfter(first, 'openai-chat', 'messages', 1, same)).toBeNull();
    expect(cache.findAfter(second, 'anthropic-messages', 'messages', 2, same)).toBeNull();
    expect(cache.findAfter(null, 'anthropic-messages', 'messages', 1, same)).toBeNull();
  });

  it('stops matching an evicted successor while its predecessor stays', () => {
    // Budget of 20 characters; { t: 'aaaaaaaaaa' } counts 11 (key and string), 'x' counts 1. The successor is added
    // first, so it is the oldest entry and the one the third addition evicts; the predecessor stays live.
    const cache = new ElementCache(20);
    const second = cache.add(2, 'anthropic-messages', 'messages', 1, { t: 'aaaaaaaaaa' }, record());
    const first = cache.add(1, 'anthropic-messages', 'messages', 0, 'x', record());
    cache.link(first, second);
    expect(cache.findAfter(first, 'anthropic-messages', 'messages', 1, { t: 'aaaaaaaaaa' })).toBe(second);
    cache.add(3, 'anthropic-messages', 'messages', 2, { t: 'bbbbbbbbbb' }, record());
    expect(cache.find(1, 'anthropic-messages', 'messages', 0, 'x')).toBe(first);
    expect(cache.findAfter(first, 'anthropic-messages', 'messages', 1, { t: 'aaaaaaaaaa' })).toBeNull();
    expect(cache.find(2, 'anthropic-messages', 'messages', 1, { t: 'aaaaaaaaaa' })).toBeNull();
    expect(cache.findAtPlace('anthropic-messages', 'messages', 1, { t: 'aaaaaaaaaa' })).toBeNull();
  });
});
