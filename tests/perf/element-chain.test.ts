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
    const first = cache.add(1, { format: 'anthropic-messages', key: 'messages', index: 0, value: { role: 'user', content: 'hi' } }, record());
    const second = cache.add(2, { format: 'anthropic-messages', key: 'messages', index: 1, value: { role: 'assistant', content: 'hello' } }, record());
    cache.link(first, second);
    const same = { role: 'assistant', content: 'hello' };
    expect(cache.findAfter(first, { format: 'anthropic-messages', key: 'messages', index: 1, value: same })).toBe(second);
    expect(cache.findAfter(first, { format: 'anthropic-messages', key: 'messages', index: 1, value: { role: 'assistant', content: 'hellO' } })).toBeNull();
    expect(cache.findAfter(first, { format: 'anthropic-messages', key: 'messages', index: 2, value: same })).toBeNull();
    expect(cache.findAfter(first, { format: 'openai-chat', key: 'messages', index: 1, value: same })).toBeNull();
    expect(cache.findAfter(second, { format: 'anthropic-messages', key: 'messages', index: 2, value: same })).toBeNull();
    expect(cache.findAfter(null, { format: 'anthropic-messages', key: 'messages', index: 1, value: same })).toBeNull();
  });

  it('keeps the parse a match was found for, so the next lookup of that object compares pointers; a miss keeps its own', () => {
    const cache = new ElementCache();
    const entry = cache.add(1, { format: 'anthropic-messages', key: 'tools', index: 0, value: { name: 'read', input_schema: { type: 'object' } } }, record())!;
    const again = { name: 'read', input_schema: { type: 'object' } };
    expect(cache.findAtPlace({ format: 'anthropic-messages', key: 'tools', index: 0, value: again })).toBe(entry);
    expect(entry.value).toBe(again);
    expect(cache.findAtPlace({ format: 'anthropic-messages', key: 'tools', index: 0, value: { name: 'write', input_schema: { type: 'object' } } })).toBeNull();
    expect(entry.value).toBe(again);
  });

  it('stops matching an evicted successor while its predecessor stays', () => {
    // Budget of 150 characters; { t: 'aaaaaaaaaa' } counts 75 (32 per node, the key and the string), 'x' counts 33.
    // The successor is added first, so it is the oldest entry and the one the third addition evicts (183 > 150);
    // the predecessor stays live.
    const cache = new ElementCache(150);
    const second = cache.add(2, { format: 'anthropic-messages', key: 'messages', index: 1, value: { t: 'aaaaaaaaaa' } }, record());
    const first = cache.add(1, { format: 'anthropic-messages', key: 'messages', index: 0, value: 'x' }, record());
    cache.link(first, second);
    expect(cache.findAfter(first, { format: 'anthropic-messages', key: 'messages', index: 1, value: { t: 'aaaaaaaaaa' } })).toBe(second);
    cache.add(3, { format: 'anthropic-messages', key: 'messages', index: 2, value: { t: 'bbbbbbbbbb' } }, record());
    expect(cache.find(1, { format: 'anthropic-messages', key: 'messages', index: 0, value: 'x' })).toBe(first);
    expect(cache.findAfter(first, { format: 'anthropic-messages', key: 'messages', index: 1, value: { t: 'aaaaaaaaaa' } })).toBeNull();
    expect(cache.find(2, { format: 'anthropic-messages', key: 'messages', index: 1, value: { t: 'aaaaaaaaaa' } })).toBeNull();
    expect(cache.findAtPlace({ format: 'anthropic-messages', key: 'messages', index: 1, value: { t: 'aaaaaaaaaa' } })).toBeNull();
  });
});

describe('element cache: buckets', () => {
  const format = 'anthropic-messages';
  it('keeps the 8 newest of the elements that share a fingerprint at one place', () => {
    const cache = new ElementCache();
    const values = Array.from({ length: 20 }, (_, i) => ({ role: 'user', content: `synthetic ${i}` }));
    const entries = values.map((value) => cache.add(7, { format, key: 'messages', index: 0, value }, record()));
    // Equal copies, not the same objects, so each find compares JSON.
    const copy = (i: number) => ({ role: 'user', content: `synthetic ${i}` });
    for (let i = 0; i < 12; i++) expect(cache.find(7, { format, key: 'messages', index: 0, value: copy(i) })).toBeNull();
    for (let i = 12; i < 20; i++) expect(cache.find(7, { format, key: 'messages', index: 0, value: copy(i) })).toBe(entries[i]);
    // A dropped entry is still found at its place while it is the last one there, and through its chain link.
    cache.link(entries[19]!, entries[3]!);
    expect(cache.findAfter(entries[19]!, { format, key: 'messages', index: 0, value: copy(3) })).toBe(entries[3]);
  });

  it('files the same fingerprint at another index apart: a full bucket at index 0 drops nothing at index 1', () => {
    const cache = new ElementCache();
    const kept = cache.add(7, { format, key: 'messages', index: 1, value: { role: 'user', content: 'synthetic kept' } }, record());
    for (let i = 0; i < 20; i++) cache.add(7, { format, key: 'messages', index: 0, value: { role: 'user', content: `synthetic ${i}` } }, record());
    expect(cache.find(7, { format, key: 'messages', index: 1, value: { role: 'user', content: 'synthetic kept' } })).toBe(kept);
  });
});
