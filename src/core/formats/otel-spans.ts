// OpenTelemetry GenAI spans as OTLP JSON (an ExportTraceServiceRequest: resourceSpans[].scopeSpans[].spans[], each
// attribute `{key, value: AnyValue}`), one document or one request a line (the collector's file exporter) → one
// request per span that records an LLM call. GenAI events written as log records (resourceLogs: the Logs API's
// events, as OpenTelemetry's Python instrumentations emit them) join their span by spanId; an operation-details
// record whose span is not in the file is a call of its own, message events without theirs are reported. Read per the GenAI semantic conventions and what the instrumentations
// write: OpenLLMetry's flat `gen_ai.prompt.N.role/content/tool_calls` (and `llm.request.functions.N.*`), the newer
// `gen_ai.input.messages` / `gen_ai.system_instructions` (JSON, on the span or on a
// `gen_ai.client.inference.operation.details` event), per-message events (`gen_ai.user.message`, …; OpenLIT's
// `gen_ai.content.prompt`, or its `gen_ai.prompt` on the span), the Vercel AI SDK's `ai.prompt.messages`, and
// Logfire's `request_data` (the whole request body). Tool calls and results are rebuilt as the format's own
// (tool_use / tool_result blocks, tool_calls / tool messages); tools from `gen_ai.tool.definitions` and the others.
// OpenInference's LLM spans (`openinference.span.kind: LLM`): `input.value` when it is the call's body, else
// `llm.input_messages.N.*`; usage `llm.token_count.*`. Proto field names (`resource_spans`) are read as well. Usage
// from `gen_ai.usage.*` (the AI SDK's `ai.usage.*` where that is all): input_tokens (prompt_tokens in older
// versions) includes the cached tokens, as the conventions say; cache read/creation counts come out of it, except
// where an instrumentation writes the provider's own count (OpenLIT on Anthropic; the AI SDK by version:
// spanRecorded). Time: startTimeUnixNano.
// Spans of operations that are no model call (an agent run summing its calls' usage, a tool run, an embedding:
// `gen_ai.operation.name`) are skipped. A span keeps only what the instrumentation chose to record: when it kept
// no prompt text, the request is usage-only (`usage_only`). The documents' shapes are otel-documents.ts; whether
// a span is a call and its recorded usage, otel-usage.ts; this file rebuilds the call's body.

import type { ParsedRequest, ReadError, WireFormat } from '../model.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';
import { detectWireFormat } from './detect.ts';
import { importRebuilt } from './transcript-requests.ts';
import { note } from './notes.ts';
import { anyValue, attributes, holdsSpans, isOtlpExport, jsonObject, logEventsOf, NO_ORIGIN, otlp, resourceList, safeJson, spansOf, type Attributes, type LogEvent, type SpanOrigin } from './otel-documents.ts';
import { isLlmSpan, isOpenInference, num, operationOf, spanRecorded, str } from './otel-usage.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';

/** The text of a message's content: a string, JSON of parts, or parts (`{type: text, content|text}`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') {
    const trimmed = content.trimStart();
    if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return content;
    const parsed = safeJson(content);
    return parsed === undefined ? content : contentText(parsed);
  }
  if (Array.isArray(content)) return content.map(contentText).join('');
  if (isObject(content)) {
    for (const key of ['content', 'text']) if (typeof content[key] === 'string') return content[key];
    if (Array.isArray(content['parts'])) return contentText(content['parts']);
    return JSON.stringify(content);
  }
  return content === undefined || content === null ? '' : String(content);
}

/** A piece of a message: text, a tool call the model made, or a tool's result sent back. */
type Part =
  | { kind: 'text'; text: string }
  | { kind: 'call'; id: string | null; name: string; args: unknown }
  | { kind: 'result'; id: string | null; text: string }
  /** An image or other media: the block each format sends it as (an unknown one is the part itself, kept as such). */
  | { kind: 'media'; anthropic: JsonObject; openai: JsonObject };

const MEDIA_TYPES = new Set(['blob', 'binary', 'uri', 'file', 'image', 'image-url', 'image_url', 'audio-url', 'video-url', 'document-url']);

/** A media part (the conventions' blob / uri / file, pydantic-ai's binary / image-url, …): an image as each format's image block; any other kept as it is. */
function mediaPart(part: JsonObject): Part {
  const mime = [part['mime_type'], part['media_type'], part['mimeType']].find((m): m is string => typeof m === 'string') ?? '';
  const isImage = part['modality'] === 'image' || mime.startsWith('image/') || part['type'] === 'image-url' || part['type'] === 'image';
  const data = typeof part['content'] === 'string' ? part['content'] : typeof part['data'] === 'string' ? part['data'] : null;
  const url = [part['uri'], part['url']].find((u): u is string => typeof u === 'string') ?? null;
  if (isImage && data !== null) return { kind: 'media', anthropic: { type: 'image', source: { type: 'base64', media_type: mime || 'image/png', data } }, openai: { type: 'image_url', image_url: { url: `data:${mime || 'image/png'};base64,${data}` } } };
  if (isImage && url !== null) return { kind: 'media', anthropic: { type: 'image', source: { type: 'url', url } }, openai: { type: 'image_url', image_url: { url } } };
  return { kind: 'media', anthropic: part, openai: part };
}

interface Message {
  role: string;
  parts: Part[];
}

const textMessage = (role: string, text: string): Message => ({ role, parts: text === '' ? [] : [{ kind: 'text', text }] });
const idOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

const CALL_TYPES = new Set(['tool_call', 'tool_use', 'tool-call', 'function_call']);
const RESULT_TYPES = new Set(['tool_call_response', 'tool_result', 'tool-result', 'function_call_output']);

/**
 * The parts of a message's content, in the shapes the instrumentations write them: the conventions' parts
 * (`{type: text, content}`, `tool_call` {id, name, arguments}, `tool_call_response` {id, response}), Anthropic blocks
 * (`tool_use`, `tool_result`), the AI SDK's (`tool-call` {toolCallId, toolName, input|args}, `tool-result`), as a
 * list, one part, or JSON text of either. Anything else is text.
 */
function partsOf(content: unknown): Part[] {
  if (typeof content === 'string') {
    const trimmed = content.trimStart();
    const parsed = trimmed.startsWith('[') || trimmed.startsWith('{') ? safeJson(content) : undefined;
    if (parsed !== undefined) return partsOf(parsed);
    return content === '' ? [] : [{ kind: 'text', text: content }];
  }
  if (Array.isArray(content)) return content.flatMap(partsOf);
  const tool = isObject(content) ? toolPart(content) : null;
  if (tool !== null) return [tool];
  if (isObject(content) && MEDIA_TYPES.has(String(content['type']))) return [mediaPart(content)];
  const text = contentText(content);
  return text === '' ? [] : [{ kind: 'text', text }];
}

/** A tool call or result part, or null for any other. */
function toolPart(part: JsonObject): Part | null {
  const type = typeof part['type'] === 'string' ? part['type'] : '';
  const id = idOf(part['id'] ?? part['tool_use_id'] ?? part['toolCallId'] ?? part['call_id']);
  if (CALL_TYPES.has(type)) {
    const name = part['name'] ?? part['toolName'];
    return { kind: 'call', id, name: typeof name === 'string' ? name : '', args: part['arguments'] ?? part['input'] ?? part['args'] ?? {} };
  }
  if (!RESULT_TYPES.has(type)) return null;
  const output = part['response'] ?? part['content'] ?? part['output'] ?? part['result'];
  // The AI SDK's tool output: {type: text | json | error-text | …, value}.
  const value = isObject(output) && 'value' in output && 'type' in output ? output['value'] : output;
  return { kind: 'result', id, text: typeof value === 'string' ? value : contentText(value) };
}

/** A message object: `{role, parts}` (the conventions), `{role, content}`, with Chat Completions' tool_calls / tool_call_id. */
function messageOf(m: JsonObject): Message {
  const role = typeof m['role'] === 'string' ? m['role'] : 'user';
  const parts = partsOf(m['parts'] ?? m['content']);
  if (Array.isArray(m['tool_calls'])) {
    for (const call of m['tool_calls'].filter(isObject)) {
      const fn = isObject(call['function']) ? call['function'] : call;
      parts.push({ kind: 'call', id: idOf(call['id']), name: typeof fn['name'] === 'string' ? fn['name'] : '', args: fn['arguments'] ?? {} });
    }
  }
  const callId = idOf(m['tool_call_id']);
  if (role === 'tool' && callId !== null && parts.every((p) => p.kind === 'text')) return { role, parts: [{ kind: 'result', id: callId, text: parts.map((p) => (p.kind === 'text' ? p.text : '')).join('') }] };
  return { role, parts };
}

/** gen_ai.prompt.N.role / .content / .tool_calls.M.* / .tool_call_id (OpenLLMetry), in N order. */
function flatPrompt(attrs: Attributes): Message[] {
  const out: Message[] = [];
  for (let i = 0; attrs.has(`gen_ai.prompt.${i}.role`) || attrs.has(`gen_ai.prompt.${i}.content`); i++) {
    const p = `gen_ai.prompt.${i}`;
    const toolCalls: JsonObject[] = [];
    for (let c = 0; attrs.has(`${p}.tool_calls.${c}.name`); c++) toolCalls.push({ id: attrs.get(`${p}.tool_calls.${c}.id`), function: { name: attrs.get(`${p}.tool_calls.${c}.name`), arguments: attrs.get(`${p}.tool_calls.${c}.arguments`) } });
    out.push(messageOf({ role: str(attrs, `${p}.role`) ?? 'user', content: attrs.get(`${p}.content`), tool_calls: toolCalls, tool_call_id: attrs.get(`${p}.tool_call_id`) }));
  }
  return out;
}

function jsonMessages(value: unknown): Message[] {
  const list = typeof value === 'string' ? safeJson(value) : value;
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map(messageOf);
}


const EVENT_ROLES: Record<string, string> = { 'gen_ai.system.message': 'system', 'gen_ai.user.message': 'user', 'gen_ai.assistant.message': 'assistant', 'gen_ai.tool.message': 'tool' };

/** A per-message event's message: its body (`{content}`, an assistant's `{tool_calls}`, a tool's `{content, id}`) or its `content` attribute. */
function eventMessage(role: string, eventAttrs: Attributes, body: unknown): Message {
  const content = eventAttrs.get('content') ?? (isObject(body) ? body['content'] : body);
  return messageOf({ role, content, tool_calls: isObject(body) ? body['tool_calls'] : undefined, tool_call_id: isObject(body) ? body['id'] : undefined });
}

/**
 * OpenInference's flat messages: `llm.input_messages.N.message.role`, `.message.content` or
 * `.message.contents.M.message_content.type/text`, `.message.tool_calls.K.tool_call.id / function.name /
 * function.arguments`, `.message.tool_call_id`.
 */
function openInferencePrompt(attrs: Attributes): Message[] {
  const out: Message[] = [];
  for (let i = 0; attrs.has(`llm.input_messages.${i}.message.role`); i++) {
    const p = `llm.input_messages.${i}.message`;
    const contents: JsonObject[] = [];
    for (let c = 0; attrs.has(`${p}.contents.${c}.message_content.type`); c++) {
      if (attrs.get(`${p}.contents.${c}.message_content.type`) === 'text') contents.push({ type: 'text', text: attrs.get(`${p}.contents.${c}.message_content.text`) });
    }
    const toolCalls: JsonObject[] = [];
    for (let k = 0; attrs.has(`${p}.tool_calls.${k}.tool_call.function.name`); k++) {
      toolCalls.push({ id: attrs.get(`${p}.tool_calls.${k}.tool_call.id`), function: { name: attrs.get(`${p}.tool_calls.${k}.tool_call.function.name`), arguments: attrs.get(`${p}.tool_calls.${k}.tool_call.function.arguments`) } });
    }
    out.push(messageOf({ role: attrs.get(`${p}.role`), content: attrs.get(`${p}.content`) ?? contents, tool_calls: toolCalls, tool_call_id: attrs.get(`${p}.tool_call_id`) }));
  }
  return out;
}

/** The prompt a span recorded, from whichever place its instrumentation wrote it. */
function promptOf(attrs: Attributes, span: JsonObject): Message[] {
  const flat = isOpenInference(attrs) ? openInferencePrompt(attrs) : flatPrompt(attrs);
  if (flat.length > 0) return flat;
  // The Vercel AI SDK's doGenerate span (`ai.prompt.messages`); OpenLIT's `gen_ai.prompt` on the span itself.
  for (const key of ['ai.prompt.messages', 'gen_ai.prompt']) {
    const value = attrs.get(key);
    if (value === undefined) continue;
    const messages = jsonMessages(value);
    return messages.length > 0 ? messages : [textMessage('user', contentText(value))];
  }
  const events = Array.isArray(span['events']) ? span['events'].filter(isObject) : [];
  const details = events.find((event) => event['name'] === 'gen_ai.client.inference.operation.details');
  const holder = attrs.has('gen_ai.input.messages') ? attrs : details ? attributes(details['attributes']) : null;
  if (holder !== null) {
    const system = holder.get('gen_ai.system_instructions');
    const systemText = system === undefined ? '' : contentText(typeof system === 'string' ? (safeJson(system) ?? system) : system);
    return [...(systemText !== '' ? [textMessage('system', systemText)] : []), ...jsonMessages(holder.get('gen_ai.input.messages'))];
  }
  const out: Message[] = [];
  for (const event of events) {
    const name = String(event['name']);
    const eventAttrs = attributes(event['attributes']);
    if (name === 'gen_ai.content.prompt') out.push(...(jsonMessages(eventAttrs.get('gen_ai.prompt')).length > 0 ? jsonMessages(eventAttrs.get('gen_ai.prompt')) : [textMessage('user', contentText(eventAttrs.get('gen_ai.prompt')))]));
    else if (name in EVENT_ROLES) out.push(eventMessage(EVENT_ROLES[name]!, eventAttrs, anyValue(event['body'])));
  }
  return out;
}

interface Tool {
  name: string;
  description: string;
  parameters: unknown;
}

/** A tool definition in any provider's shape: `{name, description, parameters | input_schema | inputSchema}` or Chat Completions' `{type: function, function: {…}}`. */
function toolOf(value: unknown): Tool | null {
  const tool = typeof value === 'string' ? safeJson(value) : value;
  if (!isObject(tool)) return null;
  const fn = isObject(tool['function']) ? tool['function'] : tool;
  if (typeof fn['name'] !== 'string') return null;
  const schema = fn['parameters'] ?? fn['input_schema'] ?? fn['inputSchema'] ?? fn['parameters_json_schema'];
  const parameters = typeof schema === 'string' ? (safeJson(schema) ?? { type: 'object' }) : (schema ?? { type: 'object' });
  return { name: fn['name'], description: typeof fn['description'] === 'string' ? fn['description'] : '', parameters };
}

/**
 * The tools a span recorded: the conventions' `gen_ai.tool.definitions` (JSON, on the span or its details event),
 * OpenLLMetry's flat `llm.request.functions.N.*` and (0.4.x) `gen_ai.tool.definitions.N.*`, the AI SDK's
 * `ai.prompt.tools` (a list of JSON texts).
 */
function tools(attrs: Attributes, details: Attributes | null): Tool[] {
  const schemas: Tool[] = [];
  for (let i = 0; attrs.has(`llm.tools.${i}.tool.json_schema`); i++) {
    const tool = toolOf(attrs.get(`llm.tools.${i}.tool.json_schema`));
    if (tool !== null) schemas.push(tool);
  }
  if (schemas.length > 0) return schemas;
  for (const prefix of ['llm.request.functions', 'gen_ai.tool.definitions']) {
    const out: Tool[] = [];
    for (let i = 0; attrs.has(`${prefix}.${i}.name`); i++) {
      const tool = toolOf({ name: attrs.get(`${prefix}.${i}.name`), description: attrs.get(`${prefix}.${i}.description`), parameters: attrs.get(`${prefix}.${i}.parameters`) });
      if (tool !== null) out.push(tool);
    }
    if (out.length > 0) return out;
  }
  for (const value of [attrs.get('gen_ai.tool.definitions'), details?.get('gen_ai.tool.definitions'), attrs.get('ai.prompt.tools')]) {
    const list = typeof value === 'string' ? safeJson(value) : value;
    if (Array.isArray(list)) return list.map(toolOf).filter((tool): tool is Tool => tool !== null);
  }
  // pydantic-ai before it wrote gen_ai.tool.definitions: model_request_parameters' function and output tools.
  const parameters = jsonObject(attrs.get('model_request_parameters'));
  const listed = [parameters?.['function_tools'], parameters?.['output_tools']].flatMap((list) => (Array.isArray(list) ? list : []));
  return listed.map(toolOf).filter((tool): tool is Tool => tool !== null);
}

const modelOf = (attrs: Attributes): string | null => str(attrs, 'gen_ai.request.model') ?? str(attrs, 'gen_ai.response.model') ?? str(attrs, 'llm.model_name') ?? str(attrs, 'llm.request.model_name');

/**
 * The request body itself, where the instrumentation kept it whole: Logfire's `request_data`; OpenInference's
 * `input.value` (JSON of the client call's arguments in its provider instrumentations; a framework's own shape in
 * others, e.g. LangChain's or LlamaIndex's, which is no body and leaves the flat llm.input_messages).
 */
function recordedBody(attrs: Attributes): { format: WireFormat; body: JsonObject } | null {
  const raw = attrs.get('request_data') ?? (isOpenInference(attrs) ? attrs.get('input.value') : undefined);
  const body = typeof raw === 'string' ? safeJson(raw) : raw;
  if (!isObject(body)) return null;
  const messages = body['messages'];
  const isBody = Array.isArray(messages) ? messages.every((m) => isObject(m) && typeof m['role'] === 'string') : 'input' in body;
  // A client call's arguments name the model; a framework's input (LlamaIndex's messages, …) does not.
  if (!isBody || (isOpenInference(attrs) && typeof body['model'] !== 'string')) return null;
  const model = modelOf(attrs);
  const format = detectWireFormat(body)?.format ?? 'openai-chat';
  return { format, body: model !== null && typeof body['model'] !== 'string' ? { ...body, model } : body };
}

const argsObject = (args: unknown): unknown => (typeof args === 'string' ? (safeJson(args) ?? {}) : (args ?? {}));
const argsText = (args: unknown): string => (typeof args === 'string' ? args : JSON.stringify(args ?? {}));
const textOf = (parts: Part[]): string => parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');

/** Anthropic Messages: system apart; tool calls as tool_use blocks, results as tool_result blocks of a user turn. */
function anthropicMessages(prompt: Message[]): { system: string; messages: JsonObject[] } {
  const system = prompt.filter((m) => m.role === 'system').map((m) => textOf(m.parts)).join('\n');
  let calls = 0;
  const messages = prompt
    .filter((m) => m.role !== 'system')
    .map((m) => {
      const role = m.role === 'assistant' ? 'assistant' : 'user';
      if (m.parts.every((p) => p.kind === 'text')) return { role, content: textOf(m.parts) };
      const content = m.parts.map((p) => {
        if (p.kind === 'text') return { type: 'text', text: p.text };
        if (p.kind === 'call') return { type: 'tool_use', id: p.id ?? `toolu_span_${++calls}`, name: p.name, input: argsObject(p.args) };
        return p.kind === 'result' ? { type: 'tool_result', tool_use_id: p.id ?? '', content: p.text } : p.anthropic;
      });
      return { role, content };
    });
  return { system, messages };
}

/** Chat Completions: an assistant's calls as tool_calls, each result its own `tool` message. */
function chatMessages(prompt: Message[]): JsonObject[] {
  const out: JsonObject[] = [];
  let calls = 0;
  for (const m of prompt) {
    const text = textOf(m.parts);
    const called = m.parts.flatMap((p) => (p.kind === 'call' ? [{ id: p.id ?? `call_span_${++calls}`, type: 'function', function: { name: p.name, arguments: argsText(p.args) } }] : []));
    const results = m.parts.flatMap((p) => (p.kind === 'result' ? [p] : []));
    const media = m.parts.flatMap((p) => (p.kind === 'media' ? [p.openai] : []));
    if (called.length > 0) out.push({ role: 'assistant', content: text === '' ? null : text, tool_calls: called });
    else if (media.length > 0) out.push({ role: m.role === 'tool' ? 'user' : m.role, content: [...(text === '' ? [] : [{ type: 'text', text }]), ...media] });
    else if (results.length === 0 || text !== '') out.push({ role: m.role === 'tool' ? 'user' : m.role, content: text });
    for (const result of results) out.push(result.id !== null ? { role: 'tool', tool_call_id: result.id, content: result.text } : { role: 'user', content: result.text });
  }
  return out;
}

function spanBody(attrs: Attributes, span: JsonObject): { format: WireFormat; body: JsonObject } {
  const whole = recordedBody(attrs);
  if (whole !== null) return whole;
  const provider = (str(attrs, 'gen_ai.provider.name') ?? str(attrs, 'gen_ai.system') ?? str(attrs, 'llm.provider') ?? str(attrs, 'llm.system') ?? '').toLowerCase();
  const model = modelOf(attrs);
  const prompt = promptOf(attrs, span);
  const events = Array.isArray(span['events']) ? span['events'].filter(isObject) : [];
  const details = events.find((event) => event['name'] === 'gen_ai.client.inference.operation.details');
  const fns = tools(attrs, details ? attributes(details['attributes']) : null);
  if (provider.includes('anthropic')) {
    const { system, messages } = anthropicMessages(prompt);
    const body: JsonObject = { model, max_tokens: num(attrs, 'gen_ai.request.max_tokens') ?? 1, messages };
    if (system !== '') body['system'] = system;
    if (fns.length > 0) body['tools'] = fns.map((fn) => ({ name: fn.name, description: fn.description, input_schema: fn.parameters }));
    return { format: 'anthropic-messages', body };
  }
  const body: JsonObject = { model, messages: chatMessages(prompt) };
  if (fns.length > 0) body['tools'] = fns.map((fn) => ({ type: 'function', function: { name: fn.name, description: fn.description, parameters: fn.parameters } }));
  return { format: 'openai-chat', body };
}

function startTime(span: JsonObject): number | null {
  const nanos = otlp(span, 'startTimeUnixNano');
  const value = typeof nanos === 'string' ? Number(nanos) : typeof nanos === 'number' ? nanos : NaN;
  return Number.isFinite(value) && value > 0 ? Math.round(value / 1e6) : null;
}

/** The request a span records; the operation when it is no model call; null when it is no GenAI span. */
function spanRequest(span: JsonObject, source: SpanOrigin, line: number, ctx: TranscriptContext): ParsedRequest | string | null {
  const attrs = attributes(span['attributes']);
  if (!isLlmSpan(attrs)) return null;
  const operation = operationOf(attrs);
  if (operation !== null) return operation;
  const { format, body } = spanBody(attrs, span);
  const request = importRebuilt({ format, body, line, timestamp: startTime(span), recorded: spanRecorded(attrs, source), missing: [] }, ctx);
  // A Gemini call (google-genai, vertexai, the AI SDK's Google providers) is rebuilt as Chat Completions, as elsewhere.
  const provider = (str(attrs, 'gen_ai.provider.name') ?? str(attrs, 'gen_ai.system') ?? str(attrs, 'llm.provider') ?? '').toLowerCase();
  if (/gemini|vertex|gcp\.|google/.test(provider) || /^(models\/)?gemini/i.test(modelOf(attrs) ?? '')) request.notes.push(note('provider_not_modelled'));
  // The span kept no prompt (most instrumentations record none unless asked): its usage is all there is.
  if (Array.isArray(body['messages']) && body['messages'].length === 0 && !('system' in body)) request.notes.push(note('usage_only'));
  return request;
}

type LoggedEvent = LogEvent & { line: number };

/** The GenAI events a file holds as log records, by the span they belong to. */
function logEventsBySpan(records: readonly TranscriptRecord[]): Map<string, LoggedEvent[]> {
  const out = new Map<string, LoggedEvent[]>();
  for (const record of records) {
    for (const event of logEventsOf(record.value)) {
      const list = out.get(event.spanId);
      if (list === undefined) out.set(event.spanId, [{ ...event, line: record.line }]);
      else list.push({ ...event, line: record.line });
    }
  }
  return out;
}

export const otelSpansImporter: TranscriptImporter = {
  id: 'otel-spans',
  matchesName: () => false,
  matchesRecords: (first) => first.length > 0 && first.every((record) => isOtlpExport(record.value)) && first.some((record) => holdsSpans(record.value) || resourceList(record.value, 'resourceLogs') !== null),
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport {
    const requests: ParsedRequest[] = [];
    const errors: ReadError[] = [];
    let spans = 0;
    const skipped = new Map<string, number>();
    const take = (result: ParsedRequest | string | null): void => {
      if (typeof result === 'string') skipped.set(result, (skipped.get(result) ?? 0) + 1);
      else if (result !== null) requests.push(result);
    };
    // GenAI events held as log records join the span they belong to (message events, operation details); the
    // details of a span not in the file are a call of their own.
    const logEvents = logEventsBySpan(records);
    for (const record of records) {
      for (const { span, scope, sdk } of spansOf(record.value)) {
        spans++;
        const spanId = otlp(span, 'spanId');
        const logged = typeof spanId === 'string' ? logEvents.get(spanId) : undefined;
        if (logged !== undefined) logEvents.delete(spanId as string);
        const events = [...(Array.isArray(span['events']) ? span['events'] : []), ...(logged ?? []).map((e) => e.event)];
        take(spanRequest(logged === undefined ? span : { ...span, events }, { scope, sdk }, record.line, ctx));
      }
    }
    const unjoined = [...logEvents.values()].flat();
    // Operation details hold the whole call (model, usage, messages); timed when logged, at the call's end.
    for (const event of unjoined.filter((e) => e.name === 'gen_ai.client.inference.operation.details')) take(spanRequest({ attributes: event.event['attributes'], startTimeUnixNano: event.time, events: [event.event] }, NO_ORIGIN, event.line, ctx));
    const orphans = unjoined.filter((e) => e.name in EVENT_ROLES);
    if (orphans.length > 0) {
      const count = orphans.length;
      errors.push({ file: ctx.file, line: orphans[0]!.line, message: `${count} GenAI message event${count === 1 ? '' : 's'} (log records) belong to no span in this file: no call is read from them (their spans were exported elsewhere)` });
    } else if (requests.length === 0) {
      const other = [...skipped].map(([operation, count]) => `${count} ${operation}`).join(', ');
      const what = other === '' ? 'none with gen_ai.* attributes' : `no model call among them (${other}: operations that are no model call)`;
      errors.push({ file: ctx.file, line: records[0]?.line ?? 1, message: `this span file holds no GenAI (LLM call) span: ${spans} span${spans === 1 ? '' : 's'}, ${what}` });
    }
    return { requests, errors };
  },
};
