// Which wire format a request body is in, from its structure alone. Each format has strong signals (fields or
// block shapes only it has) and weak ones; a body with only weak signals is "ambiguous" and takes the format the
// rest of its file has.

import type { WireFormat } from '../model.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';

export interface Detection {
  format: WireFormat;
  /** True when a field or block shape only this format has was seen. */
  strong: boolean;
}

const ANTHROPIC_BLOCKS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'document',
  'server_tool_use',
  'web_search_tool_result',
  'search_result',
]);
const CHAT_PARTS = new Set(['image_url', 'input_audio', 'file', 'refusal']);
const ANTHROPIC_ONLY_KEYS = ['system', 'anthropic_version', 'stop_sequences', 'top_k', 'thinking', 'cache_control', 'context_management', 'mcp_servers'];
const CHAT_ONLY_KEYS = ['max_completion_tokens', 'n', 'response_format', 'stream_options', 'logprobs', 'frequency_penalty', 'presence_penalty', 'functions', 'reasoning_effort', 'seed', 'web_search_options'];

export function detectWireFormat(body: unknown): Detection | null {
  if (!isObject(body)) return null;
  if (!Array.isArray(body['messages'])) {
    if ('input' in body || 'instructions' in body) return { format: 'openai-responses', strong: true };
    return null;
  }
  // Shapes first: proxies accept foreign top-level options (LiteLLM passes `thinking` in Chat bodies), but a
  // tool definition or content block has exactly one format's shape.
  const fromTools = toolsSignal(body['tools']);
  if (fromTools) return { format: fromTools, strong: true };
  const fromMessages = messagesSignal(body['messages'] as unknown[]);
  if (fromMessages) return { format: fromMessages, strong: true };
  if (ANTHROPIC_ONLY_KEYS.some((key) => key in body)) return { format: 'anthropic-messages', strong: true };
  if (CHAT_ONLY_KEYS.some((key) => key in body)) return { format: 'openai-chat', strong: true };
  return { format: weakGuess(body), strong: false };
}

/**
 * Only model + messages with plain text: a guess, used when nothing else in the file settles it. A system
 * message inside `messages` is the Chat Completions way (Anthropic puts it top-level, which is a strong signal);
 * then the model family; then `max_tokens`, which Anthropic requires and Chat Completions does not.
 */
function weakGuess(body: JsonObject): WireFormat {
  const messages = body['messages'] as unknown[];
  if (messages.some((m) => isObject(m) && m['role'] === 'system')) return 'openai-chat';
  const model = typeof body['model'] === 'string' ? body['model'] : '';
  if (/^(gpt-|o\d|chatgpt-)/i.test(model)) return 'openai-chat';
  if (/^claude-/i.test(model)) return 'anthropic-messages';
  return 'max_tokens' in body ? 'anthropic-messages' : 'openai-chat';
}

function toolsSignal(tools: unknown): WireFormat | null {
  if (!Array.isArray(tools)) return null;
  for (const tool of tools) {
    if (!isObject(tool)) continue;
    if ('input_schema' in tool) return 'anthropic-messages';
    if (isObject(tool['function']) || isObject(tool['custom'])) return 'openai-chat';
    // Anthropic server tools: versioned type names like web_search_20250305.
    if (typeof tool['type'] === 'string' && /_\d{8}$/.test(tool['type'])) return 'anthropic-messages';
  }
  return null;
}

function messagesSignal(messages: unknown[]): WireFormat | null {
  for (const message of messages) {
    if (!isObject(message)) continue;
    const role = message['role'];
    if (role === 'developer' || role === 'tool' || role === 'function') return 'openai-chat';
    if ('tool_calls' in message || 'tool_call_id' in message || 'function_call' in message) return 'openai-chat';
    const content = message['content'];
    if (content === null) return 'openai-chat';
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if (!isObject(part) || typeof part['type'] !== 'string') continue;
      if (ANTHROPIC_BLOCKS.has(part['type']) || hasAnthropicSource(part)) return 'anthropic-messages';
      if (CHAT_PARTS.has(part['type'])) return 'openai-chat';
    }
  }
  return null;
}

function hasAnthropicSource(part: JsonObject): boolean {
  return part['type'] === 'image' && isObject(part['source']);
}
