// Structure-aware generators for the three wire formats and the small clearing inputs. Every key is optional and
// every value may be swapped for a hostile one, so the generated bodies cover both "nearly right" and "wrong".
import fc from 'fast-check';
import { hostileJsonValue } from './mutate.ts';

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('<script>alert(1)</script>', '<svg onload=alert(1)>', 'javascript:alert(1)', '\u202egnp.exe', '\ud800', ''),
);
const id = fc.oneof(fc.string({ maxLength: 12 }), hostileJsonValue);
const orHostile = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: hostileJsonValue });
const bag = (fields: Record<string, fc.Arbitrary<unknown>>) => fc.record(fields, { requiredKeys: [] });

const base64ish = fc.oneof(fc.constant('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), fc.base64String({ maxLength: 64 }), text);

const anthropicBlock: fc.Arbitrary<unknown> = fc.oneof(
  bag({ type: fc.constant('text'), text, cache_control: orHostile(bag({ type: fc.constant('ephemeral'), ttl: fc.constantFrom('5m', '1h', 'x') })) }),
  bag({ type: fc.constant('image'), source: orHostile(bag({ type: fc.constantFrom('base64', 'url', 'file'), media_type: fc.constantFrom('image/png', 'image/jpeg', 'x'), data: base64ish, url: text })) }),
  bag({ type: fc.constant('document'), source: orHostile(bag({ type: fc.constantFrom('base64', 'text', 'url'), media_type: text, data: base64ish })) }),
  bag({ type: fc.constant('tool_use'), id, name: orHostile(text), input: hostileJsonValue }),
  bag({ type: fc.constant('tool_result'), tool_use_id: id, content: orHostile(fc.oneof(text, fc.array(bag({ type: fc.constant('text'), text }), { maxLength: 3 }))), is_error: fc.boolean() }),
  bag({ type: fc.constantFrom('thinking', 'redacted_thinking'), thinking: text, signature: text, data: text }),
  bag({ type: fc.constantFrom('server_tool_use', 'web_search_tool_result', 'mystery'), id, content: hostileJsonValue }),
  hostileJsonValue,
);

export const anthropicBody: fc.Arbitrary<Record<string, unknown>> = bag({
  model: orHostile(fc.constantFrom('claude-sonnet-4-5', 'claude-opus-4-6', 'unknown-model')),
  system: orHostile(fc.oneof(text, fc.array(anthropicBlock, { maxLength: 3 }))),
  messages: orHostile(fc.array(orHostile(bag({ role: orHostile(fc.constantFrom('user', 'assistant', 'system')), content: orHostile(fc.oneof(text, fc.array(anthropicBlock, { maxLength: 4 }))) })), { maxLength: 5 })),
  tools: orHostile(fc.array(orHostile(bag({ name: orHostile(text), description: text, input_schema: hostileJsonValue, type: text })), { maxLength: 3 })),
  cache_control: hostileJsonValue,
  thinking: hostileJsonValue,
  max_tokens: hostileJsonValue,
});

const chatPart = fc.oneof(
  bag({ type: fc.constant('text'), text }),
  bag({ type: fc.constant('image_url'), image_url: orHostile(bag({ url: fc.oneof(text, base64ish.map((d) => `data:image/png;base64,${d}`)), detail: fc.constantFrom('low', 'high', 'auto', 'x') })) }),
  bag({ type: fc.constant('input_audio'), input_audio: orHostile(bag({ data: base64ish, format: fc.constantFrom('wav', 'mp3', 'x') })) }),
  bag({ type: fc.constant('file'), file: orHostile(bag({ file_data: base64ish, filename: text, file_id: id })) }),
  hostileJsonValue,
);

export const chatBody: fc.Arbitrary<Record<string, unknown>> = bag({
  model: orHostile(fc.constantFrom('gpt-4o', 'gpt-5', 'o3-mini')),
  messages: orHostile(fc.array(orHostile(bag({
    role: orHostile(fc.constantFrom('system', 'developer', 'user', 'assistant', 'tool', 'function')),
    content: orHostile(fc.oneof(text, fc.array(chatPart, { maxLength: 4 }))),
    name: text,
    tool_call_id: id,
    tool_calls: orHostile(fc.array(orHostile(bag({ id, type: fc.constant('function'), function: orHostile(bag({ name: orHostile(text), arguments: orHostile(text) })) })), { maxLength: 3 })),
  })), { maxLength: 5 })),
  tools: orHostile(fc.array(orHostile(bag({ type: fc.constant('function'), function: orHostile(bag({ name: orHostile(text), parameters: hostileJsonValue, description: text })) })), { maxLength: 3 })),
  stream: hostileJsonValue,
  prompt_cache_key: hostileJsonValue,
});

const responsesItem = fc.oneof(
  bag({ type: fc.constant('message'), role: orHostile(fc.constantFrom('user', 'assistant', 'system', 'developer')), content: orHostile(fc.oneof(text, fc.array(bag({ type: fc.constantFrom('input_text', 'output_text', 'input_image', 'input_file', 'refusal'), text, image_url: text, file_data: base64ish }), { maxLength: 3 }))) }),
  bag({ role: fc.constantFrom('user', 'assistant'), content: orHostile(text) }),
  bag({ type: fc.constant('function_call'), call_id: id, name: orHostile(text), arguments: orHostile(text) }),
  bag({ type: fc.constant('function_call_output'), call_id: id, output: orHostile(fc.oneof(text, fc.array(hostileJsonValue, { maxLength: 2 }))) }),
  bag({ type: fc.constant('reasoning'), id, summary: hostileJsonValue, encrypted_content: text }),
  bag({ type: fc.constantFrom('item_reference', 'custom_tool_call', 'mcp_call', 'mcp_list_tools', 'web_search_call', 'mystery'), id, input: hostileJsonValue, name: text }),
  hostileJsonValue,
);

export const responsesBody: fc.Arbitrary<Record<string, unknown>> = bag({
  model: orHostile(fc.constantFrom('gpt-5', 'gpt-5.1-codex', 'gpt-4.1')),
  instructions: orHostile(text),
  input: orHostile(fc.oneof(text, fc.array(responsesItem, { maxLength: 5 }))),
  tools: orHostile(fc.array(orHostile(bag({ type: fc.constantFrom('function', 'mcp', 'web_search', 'custom'), name: orHostile(text), parameters: hostileJsonValue })), { maxLength: 3 })),
  previous_response_id: hostileJsonValue,
  reasoning: hostileJsonValue,
});

/** A record of a request log: a bare body or one of the envelopes the reader unwraps. */
export const envelopedRecord: fc.Arbitrary<unknown> = fc
  .tuple(fc.oneof(anthropicBody, chatBody, responsesBody), fc.nat({ max: 7 }), id, hostileJsonValue)
  .map(([body, kind, customId, extra]) => {
    switch (kind) {
      case 0: return { custom_id: customId, params: body };
      case 1: return { custom_id: customId, method: 'POST', url: extra, body };
      case 2: return { timestamp: extra, request: body, response: { usage: extra } };
      case 3: return { request_body: JSON.stringify(body), response_body: extra };
      case 4: return { body: { method: 'POST', url: '/v1/messages', body: JSON.stringify(body) } };
      case 5: return { custom_id: customId, result: { type: 'succeeded', message: { usage: extra } } };
      case 6: return { custom_id: customId, response: { status_code: 200, body: { usage: extra } } };
      default: return body;
    }
  });

/** A valid routes entry (synthetic numbers), so mutations start from something the parser accepts. */
export function validRoute(api: string): Record<string, unknown> {
  const weights = { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 };
  return {
    api,
    triggerTokens: 180_000,
    drainTokens: 40_000,
    summaryInputTokens: 20_000,
    summaryOutputTokens: 2_000,
    cacheLifetimeMs: 300_000,
    cacheMarginMs: 10_000,
    prices: weights,
    quota: { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 },
    quotaBudget: 1_000_000,
  };
}

export const VALID_AGENT_CONFIG = { builtins: ['read', 'grep', 'bash'], mcpTools: [{ exposedName: 'docs_search' }] };
export const VALID_APP_ALLOWLIST = [{ server: 'docs', tool: 'search', serverIdentityDigest: 'a'.repeat(64), readOnly: true }];

/** Which pool items a generated JSONL line holds, whether it is a gateway record, and its JSON.stringify spacing. */
export type ResentLineSpec = [picks: number[], gateway: boolean, spacing: number];
/** Damage to one line: which line, where, and what is inserted there ('' deletes one character). */
export type LineDamage = [line: number, at: number, insert: string];

export const resentLineSpecs = fc.array(fc.tuple(fc.array(fc.nat(7), { maxLength: 6 }), fc.boolean(), fc.constantFrom(0, 1, 2)), { minLength: 1, maxLength: 8 });
export const lineDamage = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('', ',', ']', '}', '"', '\\', ' ', '[', '{"a":')), { maxLength: 3 });

/**
 * A synthetic JSONL log whose lines resend items of `pool` (as an agent loop resends its history), then damaged
 * copies of some of its lines appended: input for the resent-JSONL reader.
 */
export function resentLogLines(pool: readonly unknown[], specs: readonly ResentLineSpec[], damage: readonly LineDamage[]): string[] {
  const lines = specs.map(([picks, gateway, spacing]) => {
    const body = { model: 'synthetic', messages: picks.map((p) => pool[p % pool.length]) };
    const record = gateway ? { request: body, at: 1 } : body;
    return spacing === 0 ? JSON.stringify(record) : JSON.stringify(record, null, spacing).replace(/\n/g, ' ');
  });
  for (const [which, at, insert] of damage) {
    const line = lines[which % lines.length]!;
    const cut = at % (line.length + 1);
    lines.push(line.slice(0, cut) + insert + line.slice(cut + (insert === '' ? 1 : 0)));
  }
  return lines;
}
