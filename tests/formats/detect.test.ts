// Wire-format detection by structure.
import { describe, expect, it } from 'vitest';
import { detectWireFormat } from '../../src/core/formats/detect.ts';
import { providerOf } from '../../src/core/model.ts';

describe('detectWireFormat', () => {
  it.each([
    ['top-level system', { model: 'm', system: 's', messages: [] }, 'anthropic-messages', true],
    ['tool_use block', { model: 'm', messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: {} }] }] }, 'anthropic-messages', true],
    ['input_schema tool', { model: 'm', tools: [{ name: 'f', input_schema: {} }], messages: [] }, 'anthropic-messages', true],
    ['image with source', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'u' } }] }] }, 'anthropic-messages', true],
    ['max_tokens + messages only', { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }, 'anthropic-messages', false],
    ['a system message inside messages, with max_tokens', { model: 'm', max_tokens: 5, messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'hi' }] }, 'openai-chat', false],
    ['a gpt model with max_tokens', { model: 'gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }, 'openai-chat', false],
    ['a claude model without max_tokens', { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }, 'anthropic-messages', false],
    ['developer role', { model: 'm', messages: [{ role: 'developer', content: 'x' }] }, 'openai-chat', true],
    ['function tools', { model: 'm', tools: [{ type: 'function', function: { name: 'f' } }], messages: [] }, 'openai-chat', true],
    ['image_url part', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'u' } }] }] }, 'openai-chat', true],
    ['messages only', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, 'openai-chat', false],
    ['a Chat body with a proxy-accepted thinking option', { model: 'm', thinking: { type: 'enabled' }, messages: [{ role: 'assistant', content: null, tool_calls: [] }] }, 'openai-chat', true],
    ['input', { model: 'm', input: 'hi' }, 'openai-responses', true],
    ['instructions', { model: 'm', instructions: 'x', input: [] }, 'openai-responses', true],
  ])('%s → %s', (_name, body, format, strong) => {
    expect(detectWireFormat(body)).toEqual({ format, strong });
  });

  it('returns null for something that is no request body', () => {
    expect(detectWireFormat({ hello: 'world' })).toBeNull();
    expect(detectWireFormat([1, 2])).toBeNull();
  });
});

describe('providerOf', () => {
  it('maps each wire format to the provider whose cache rules apply', () => {
    expect(providerOf('anthropic-messages')).toBe('anthropic');
    expect(providerOf('openai-chat')).toBe('openai');
    expect(providerOf('openai-responses')).toBe('openai');
  });
});
