// Record envelopes: batch lines and gateway log entries that wrap a request body. Each record is classified on
// its own; the reader unwraps only when every record of a file has the same kind (a body that happens to have a
// `body` key is never mistaken for a wrapper that way).

import type { WireFormat } from '../model.ts';
import { nestingOverflowOffset } from './depth.ts';
import { isObject, stringField, type JsonObject } from './json-value.ts';
import { eventUsage, looksLikeSse, sseUsage, streamUsage } from './sse.ts';
import { recordTimestamp } from './timestamp.ts';

export const ENVELOPE_KINDS = [
  'none',
  'anthropic-batch',
  'openai-batch',
  'gateway:request',
  'gateway:request_body',
  'gateway:body',
  'anthropic-batch-results',
  'openai-batch-output',
] as const;
export type EnvelopeKind = (typeof ENVELOPE_KINDS)[number];

/** Batch output kinds: they hold responses for requests in another file, not requests. */
export function isOutputKind(kind: EnvelopeKind): boolean {
  return kind === 'anthropic-batch-results' || kind === 'openai-batch-output';
}

const GATEWAY_KEYS = ['request', 'request_body', 'body'] as const;

/** Keys that only a request body has at its top level (so the record is a body, whatever else it holds). */
function looksLikeBody(record: JsonObject): boolean {
  return Array.isArray(record['messages']) || 'input' in record || 'instructions' in record || 'system' in record;
}

function isWrappedBody(value: unknown): boolean {
  return isObject(value) || (typeof value === 'string' && value.trimStart().startsWith('{'));
}

export function classifyRecord(record: unknown): EnvelopeKind {
  if (!isObject(record)) return 'none';
  if (typeof record['custom_id'] === 'string') {
    if (isObject(record['params'])) return 'anthropic-batch';
    if (isObject(record['body']) && ('url' in record || 'method' in record)) return 'openai-batch';
    // A gateway record may carry a custom_id too; only a record with no request in it is a batch output.
    const holdsRequest = GATEWAY_KEYS.some((key) => isWrappedBody(record[key]));
    if (!holdsRequest && isObject(record['result'])) return 'anthropic-batch-results';
    if (!holdsRequest && (isObject(record['response']) || 'error' in record)) return 'openai-batch-output';
  }
  if (looksLikeBody(record)) return 'none';
  for (const key of GATEWAY_KEYS) {
    if (isWrappedBody(record[key])) return `gateway:${key}`;
  }
  return 'none';
}

/** What a record holds once its envelope is taken off. */
export interface UnwrappedRecord {
  body: unknown;
  customId: string | null;
  /** From an OpenAI batch line's `url`, when it names an endpoint. */
  formatHint: WireFormat | null;
  /** The usage object of the provider response recorded beside the request (gateway logs), or null. */
  usage: JsonObject | null;
  timestamp: number | null;
  /** Why the envelope could not be taken off (e.g. an OpenAI batch line for an endpoint that is not read). */
  error: string | null;
}

export function unwrapRecord(record: unknown, kind: EnvelopeKind, maxDepth: number): UnwrappedRecord {
  const plain: UnwrappedRecord = { body: record, customId: null, formatHint: null, usage: null, timestamp: null, error: null };
  if (!isObject(record)) return plain;
  return UNWRAP[kind](record, plain, maxDepth);
}

/** Takes one kind of envelope off `record`; `plain` is the record as its own body with nothing beside it. */
type Unwrap = (record: JsonObject, plain: UnwrappedRecord, maxDepth: number) => UnwrappedRecord;

const UNWRAP: Record<EnvelopeKind, Unwrap> = {
  none: unwrapLogged,
  'anthropic-batch': (record, plain) => ({
    ...plain,
    body: record['params'],
    customId: stringField(record, 'custom_id'),
    formatHint: 'anthropic-messages',
  }),
  'openai-batch': unwrapOpenAIBatch,
  'gateway:request': (record, plain, maxDepth) => unwrapGateway(record, plain, 'request', maxDepth),
  'gateway:request_body': (record, plain, maxDepth) => unwrapGateway(record, plain, 'request_body', maxDepth),
  'gateway:body': (record, plain, maxDepth) => unwrapGateway(record, plain, 'body', maxDepth),
  'anthropic-batch-results': unwrapOutput,
  'openai-batch-output': unwrapOutput,
};

/** A logged body with the response and time beside it (LiteLLM-style records); API bodies have neither key. */
function unwrapLogged(record: JsonObject, plain: UnwrappedRecord, maxDepth: number): UnwrappedRecord {
  if (!('response' in record) && !('response_body' in record) && recordTimestamp(record) === null) return plain;
  return {
    ...plain,
    usage: responseUsage(record['response'] ?? record['response_body'], maxDepth),
    timestamp: recordTimestamp(record),
  };
}

function unwrapOpenAIBatch(record: JsonObject, plain: UnwrappedRecord): UnwrappedRecord {
  const url = stringField(record, 'url') ?? '';
  const formatHint = endpointFormat(url);
  return {
    ...plain,
    body: record['body'],
    customId: stringField(record, 'custom_id'),
    formatHint,
    error: formatHint === null ? `OpenAI batch line for ${endpointName(url)}, which holds no chat or responses request` : null,
  };
}

function unwrapGateway(record: JsonObject, plain: UnwrappedRecord, key: (typeof GATEWAY_KEYS)[number], maxDepth: number): UnwrappedRecord {
  const inner = parseEmbedded(record[key], maxDepth);
  if (typeof inner === 'string') return { ...plain, body: null, error: `field "${key}": ${inner}` };
  // An HTTP capture wraps one level more: {request: {method, url, headers, body}}.
  const body = isObject(inner) && !looksLikeBody(inner) && 'body' in inner ? parseEmbedded(inner['body'], maxDepth) : inner;
  if (typeof body === 'string') return { ...plain, body: null, error: `field "${key}.body": ${body}` };
  return {
    ...plain,
    body,
    customId: stringField(record, 'custom_id'),
    // The recorder writes the stream's merged usage beside the exchange; otherwise it is read from the response.
    usage: (isObject(record['usage']) ? record['usage'] : null) ?? responseUsage(record['response'] ?? record['response_body'], maxDepth),
    timestamp: recordTimestamp(record) ?? recordTimestamp(inner),
  };
}

function unwrapOutput(record: JsonObject, plain: UnwrappedRecord): UnwrappedRecord {
  return { ...plain, body: null, customId: stringField(record, 'custom_id') };
}

/**
 * The API, model and send time a batch output line names: Anthropic results are Messages calls; an OpenAI body is a
 * Responses call when it says `"object": "response"`, else Chat Completions, with its `model` and `created`.
 */
export function batchOutputCall(record: unknown, kind: EnvelopeKind): { format: WireFormat; model: string | null; timestamp: number | null } {
  if (kind === 'anthropic-batch-results') {
    const message = isObject(record) && isObject(record['result']) ? record['result']['message'] : null;
    return { format: 'anthropic-messages', model: isObject(message) ? stringField(message, 'model') : null, timestamp: null };
  }
  const response = isObject(record) ? record['response'] : null;
  const body = isObject(response) ? response['body'] : null;
  if (!isObject(body)) return { format: 'openai-chat', model: null, timestamp: null };
  const created = body['created'] ?? body['created_at'];
  return {
    format: body['object'] === 'response' ? 'openai-responses' : 'openai-chat',
    model: stringField(body, 'model'),
    timestamp: typeof created === 'number' && Number.isFinite(created) ? created * 1000 : null,
  };
}

/** The usage object of a batch output record, or null (errored, canceled, expired, no usage). */
export function batchOutputUsage(record: unknown, kind: EnvelopeKind, maxDepth: number): unknown {
  if (!isObject(record)) return null;
  if (kind === 'anthropic-batch-results') {
    const result = record['result'];
    if (!isObject(result) || result['type'] !== 'succeeded') return null;
    const message = result['message'];
    return isObject(message) ? (message['usage'] ?? null) : null;
  }
  return responseUsage(record['response'], maxDepth);
}

/**
 * The usage of a recorded response: a response body, a capture around it (`{body}`, claude-trace's `body_raw` or
 * `events`, the recorder's `sse`), either as JSON text, or a streamed response (an array of events, or
 * server-sent-event text; sse.ts merges the pieces).
 */
export function responseUsage(response: unknown, maxDepth: number): JsonObject | null {
  if (typeof response === 'string' && looksLikeSse(response)) return sseUsage(response, (json) => parsedObject(json, maxDepth));
  const value = parseEmbedded(response, maxDepth);
  if (Array.isArray(value)) return streamUsage(value);
  if (!isObject(value)) return null;
  const own = eventUsage(value);
  if (own !== null) return own;
  for (const key of CAPTURED_BODY_KEYS) {
    if (!(key in value)) continue;
    const usage = responseUsage(value[key], maxDepth);
    if (usage !== null) return usage;
  }
  return null;
}

/** Where a capture keeps the response it saw: parsed JSON, raw text (often SSE), the stream's events. */
const CAPTURED_BODY_KEYS = ['body', 'body_raw', 'sse', 'events'] as const;

function parsedObject(json: string, maxDepth: number): unknown {
  const value = parseEmbedded(json, maxDepth);
  return isObject(value) ? value : undefined;
}

/** A wrapped value as an object; JSON text is parsed (depth-checked first). Returns an error message on failure. */
function parseEmbedded(value: unknown, maxDepth: number): unknown {
  if (typeof value !== 'string') return value;
  if (nestingOverflowOffset(value, maxDepth) >= 0) return `JSON text nested deeper than ${maxDepth} levels`;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return 'holds text that is not valid JSON';
  }
}

function endpointFormat(url: string): WireFormat | null {
  if (/\/chat\/completions\/?$/.test(url)) return 'openai-chat';
  if (/\/responses\/?$/.test(url)) return 'openai-responses';
  if (/\/messages\/?$/.test(url)) return 'anthropic-messages';
  return null;
}

/** A documented endpoint path is named; anything else is not echoed (the field is free text in the file). */
function endpointName(url: string): string {
  return /^\/v1\/[a-z]+(\/[a-z]+)?$/.test(url) ? `endpoint "${url}"` : 'an endpoint';
}
