// OpenTelemetry GenAI spans as OTLP JSON (an ExportTraceServiceRequest: resourceSpans[].scopeSpans[].spans[], each
// attribute `{key, value: AnyValue}`), one document or one request a line (the collector's file exporter) → one
// request per span that records an LLM call. Read per the GenAI semantic conventions and what the instrumentations
// write: OpenLLMetry's flat `gen_ai.prompt.N.role/content` (and `llm.request.functions.N.*`), the newer
// `gen_ai.input.messages` / `gen_ai.system_instructions` (JSON, on the span or on a
// `gen_ai.client.inference.operation.details` event), per-message events (`gen_ai.user.message`, …; OpenLIT's
// `gen_ai.content.prompt`, or its `gen_ai.prompt` on the span), the Vercel AI SDK's `ai.prompt.messages`, and
// Logfire's `request_data` (the whole request body). Proto field names (`resource_spans`) are read as well. Usage
// from `gen_ai.usage.*` (the AI SDK's `ai.usage.*` where that is all): input_tokens (prompt_tokens in older
// versions) includes the cached tokens, as the conventions say; cache read/creation counts come out of it. Time:
// startTimeUnixNano.
// A span keeps only what the instrumentation chose to record: when it kept no prompt text, the request says so.

import type { ParsedRequest, ReadError, RecordedUsage, WireFormat } from '../model.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';
import { detectWireFormat } from './detect.ts';
import { importRebuilt } from './transcript-requests.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';

type Attributes = Map<string, unknown>;

/**
 * A field of an OTLP message under its JSON name (lowerCamelCase, as the spec writes it) or its proto field name
 * (snake_case, as exporters that keep proto names write it: `resource_spans`, `string_value`).
 */
function otlp(object: JsonObject, camel: string): unknown {
  return camel in object ? object[camel] : object[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

/** An OTLP AnyValue as a plain value. */
function anyValue(value: unknown): unknown {
  if (!isObject(value)) return undefined;
  for (const key of ['stringValue', 'boolValue']) if (otlp(value, key) !== undefined) return otlp(value, key);
  for (const key of ['intValue', 'doubleValue']) if (otlp(value, key) !== undefined) return Number(otlp(value, key));
  const array = otlp(value, 'arrayValue');
  if (isObject(array)) return ((array['values'] as unknown[]) ?? []).map(anyValue);
  const kvlist = otlp(value, 'kvlistValue');
  if (isObject(kvlist)) return Object.fromEntries(attributes(kvlist['values']));
  return undefined;
}

function attributes(list: unknown): Attributes {
  const out: Attributes = new Map();
  if (!Array.isArray(list)) return out;
  for (const item of list) if (isObject(item) && typeof item['key'] === 'string') out.set(item['key'], anyValue(item['value']));
  return out;
}

function resourceSpans(request: unknown): unknown[] | null {
  const list = isObject(request) ? otlp(request, 'resourceSpans') : undefined;
  return Array.isArray(list) ? list : null;
}

function spansOf(request: unknown): JsonObject[] {
  const out: JsonObject[] = [];
  for (const resource of resourceSpans(request) ?? []) {
    const scopes = isObject(resource) ? (otlp(resource, 'scopeSpans') ?? otlp(resource, 'instrumentationLibrarySpans')) : undefined;
    if (!Array.isArray(scopes)) continue;
    for (const scope of scopes) if (isObject(scope) && Array.isArray(scope['spans'])) out.push(...scope['spans'].filter(isObject));
  }
  return out;
}

const num = (attrs: Attributes, ...keys: string[]): number | null => {
  for (const key of keys) {
    const value = attrs.get(key);
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return null;
};
const str = (attrs: Attributes, key: string): string | null => (typeof attrs.get(key) === 'string' ? (attrs.get(key) as string) : null);

function isLlmSpan(attrs: Attributes): boolean {
  return ['gen_ai.system', 'gen_ai.provider.name', 'gen_ai.request.model'].some((key) => attrs.has(key)) || num(attrs, 'gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens') !== null;
}

/** Recorded usage in Anthropic's sense: the conventions' input count includes cached tokens; they come out. */
export function spanRecorded(attrs: Attributes): RecordedUsage | null {
  const total = num(attrs, 'gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'ai.usage.inputTokens', 'ai.usage.promptTokens');
  if (total === null) return null;
  const cacheRead = num(attrs, 'gen_ai.usage.cache_read_input_tokens', 'gen_ai.usage.cache_read.input_tokens') ?? 0;
  const cacheWrite = num(attrs, 'gen_ai.usage.cache_creation_input_tokens', 'gen_ai.usage.cache_creation.input_tokens') ?? 0;
  const output = num(attrs, 'gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'ai.usage.outputTokens', 'ai.usage.completionTokens') ?? 0;
  return { input: Math.max(0, total - cacheRead - cacheWrite), cacheRead, cacheWrite5m: cacheWrite, cacheWrite1h: 0, output };
}

/** The text of a message's content: a string, JSON of parts, or parts (`{type: text, content|text}`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') {
    const trimmed = content.trimStart();
    if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return content;
    try {
      return contentText(JSON.parse(content) as unknown);
    } catch {
      return content;
    }
  }
  if (Array.isArray(content)) return content.map(contentText).join('');
  if (isObject(content)) {
    for (const key of ['content', 'text']) if (typeof content[key] === 'string') return content[key];
    if (Array.isArray(content['parts'])) return contentText(content['parts']);
    return JSON.stringify(content);
  }
  return content === undefined || content === null ? '' : String(content);
}

interface Message {
  role: string;
  text: string;
}

/** gen_ai.prompt.N.role / .content (OpenLLMetry), in N order. */
function flatPrompt(attrs: Attributes): Message[] {
  const out: Message[] = [];
  for (let i = 0; attrs.has(`gen_ai.prompt.${i}.role`) || attrs.has(`gen_ai.prompt.${i}.content`); i++) {
    out.push({ role: str(attrs, `gen_ai.prompt.${i}.role`) ?? 'user', text: contentText(attrs.get(`gen_ai.prompt.${i}.content`)) });
  }
  return out;
}

function jsonMessages(value: unknown): Message[] {
  const list = typeof value === 'string' ? safeJson(value) : value;
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((m) => ({ role: typeof m['role'] === 'string' ? m['role'] : 'user', text: contentText(m['parts'] ?? m['content']) }));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const EVENT_ROLES: Record<string, string> = { 'gen_ai.system.message': 'system', 'gen_ai.user.message': 'user', 'gen_ai.assistant.message': 'assistant', 'gen_ai.tool.message': 'tool' };

/** The prompt a span recorded, from whichever place its instrumentation wrote it. */
function promptOf(attrs: Attributes, span: JsonObject): Message[] {
  const flat = flatPrompt(attrs);
  if (flat.length > 0) return flat;
  // The Vercel AI SDK's doGenerate span (`ai.prompt.messages`); OpenLIT's `gen_ai.prompt` on the span itself.
  for (const key of ['ai.prompt.messages', 'gen_ai.prompt']) {
    const value = attrs.get(key);
    if (value === undefined) continue;
    const messages = jsonMessages(value);
    return messages.length > 0 ? messages : [{ role: 'user', text: contentText(value) }];
  }
  const events = Array.isArray(span['events']) ? span['events'].filter(isObject) : [];
  const details = events.find((event) => event['name'] === 'gen_ai.client.inference.operation.details');
  const holder = attrs.has('gen_ai.input.messages') ? attrs : details ? attributes(details['attributes']) : null;
  if (holder !== null) {
    const system = holder.get('gen_ai.system_instructions');
    const systemText = system === undefined ? '' : contentText(typeof system === 'string' ? (safeJson(system) ?? system) : system);
    return [...(systemText !== '' ? [{ role: 'system', text: systemText }] : []), ...jsonMessages(holder.get('gen_ai.input.messages'))];
  }
  const out: Message[] = [];
  for (const event of events) {
    const name = String(event['name']);
    const eventAttrs = attributes(event['attributes']);
    if (name === 'gen_ai.content.prompt') out.push(...(jsonMessages(eventAttrs.get('gen_ai.prompt')).length > 0 ? jsonMessages(eventAttrs.get('gen_ai.prompt')) : [{ role: 'user', text: contentText(eventAttrs.get('gen_ai.prompt')) }]));
    else if (name in EVENT_ROLES) out.push({ role: EVENT_ROLES[name]!, text: contentText(eventAttrs.get('content') ?? anyValue(event['body'])) });
  }
  return out;
}

function tools(attrs: Attributes): JsonObject[] {
  const out: JsonObject[] = [];
  for (let i = 0; attrs.has(`llm.request.functions.${i}.name`); i++) {
    const parameters = safeJson(str(attrs, `llm.request.functions.${i}.parameters`) ?? '') ?? { type: 'object' };
    out.push({ name: str(attrs, `llm.request.functions.${i}.name`), description: str(attrs, `llm.request.functions.${i}.description`) ?? '', parameters });
  }
  return out;
}

/** The request body itself, where the instrumentation kept it whole (Logfire's `request_data`). */
function recordedBody(attrs: Attributes): { format: WireFormat; body: JsonObject } | null {
  const raw = attrs.get('request_data');
  const body = typeof raw === 'string' ? safeJson(raw) : raw;
  if (!isObject(body) || !(Array.isArray(body['messages']) || 'input' in body)) return null;
  const model = str(attrs, 'gen_ai.request.model');
  const format = detectWireFormat(body)?.format ?? 'openai-chat';
  return { format, body: model !== null && typeof body['model'] !== 'string' ? { ...body, model } : body };
}

function spanBody(attrs: Attributes, span: JsonObject): { format: WireFormat; body: JsonObject } {
  const whole = recordedBody(attrs);
  if (whole !== null) return whole;
  const provider = (str(attrs, 'gen_ai.provider.name') ?? str(attrs, 'gen_ai.system') ?? '').toLowerCase();
  const model = str(attrs, 'gen_ai.request.model') ?? str(attrs, 'gen_ai.response.model');
  const prompt = promptOf(attrs, span);
  const fns = tools(attrs);
  if (provider.includes('anthropic')) {
    const system = prompt.filter((m) => m.role === 'system').map((m) => m.text).join('\n');
    const messages = prompt.filter((m) => m.role !== 'system').map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', content: m.text }));
    const body: JsonObject = { model, max_tokens: num(attrs, 'gen_ai.request.max_tokens') ?? 1, messages };
    if (system !== '') body['system'] = system;
    if (fns.length > 0) body['tools'] = fns.map((fn) => ({ name: fn['name'], description: fn['description'], input_schema: fn['parameters'] }));
    return { format: 'anthropic-messages', body };
  }
  const body: JsonObject = { model, messages: prompt.map((m) => ({ role: m.role === 'tool' ? 'user' : m.role, content: m.text })) };
  if (fns.length > 0) body['tools'] = fns.map((fn) => ({ type: 'function', function: fn }));
  return { format: 'openai-chat', body };
}

function startTime(span: JsonObject): number | null {
  const nanos = otlp(span, 'startTimeUnixNano');
  const value = typeof nanos === 'string' ? Number(nanos) : typeof nanos === 'number' ? nanos : NaN;
  return Number.isFinite(value) && value > 0 ? Math.round(value / 1e6) : null;
}

export const otelSpansImporter: TranscriptImporter = {
  id: 'otel-spans',
  matchesName: () => false,
  matchesRecords: (first) => first.length > 0 && first.every((record) => resourceSpans(record.value) !== null),
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport {
    const requests: ParsedRequest[] = [];
    const errors: ReadError[] = [];
    let spans = 0;
    for (const record of records) {
      for (const span of spansOf(record.value)) {
        spans++;
        const attrs = attributes(span['attributes']);
        if (!isLlmSpan(attrs)) continue;
        const { format, body } = spanBody(attrs, span);
        requests.push(importRebuilt({ format, body, line: record.line, timestamp: startTime(span), recorded: spanRecorded(attrs), missing: [] }, ctx));
      }
    }
    if (requests.length === 0) errors.push({ file: ctx.file, line: records[0]?.line ?? 1, message: `this span file holds no GenAI (LLM call) span: ${spans} span${spans === 1 ? '' : 's'}, none with gen_ai.* attributes` });
    return { requests, errors };
  },
};
