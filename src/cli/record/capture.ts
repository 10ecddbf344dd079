// One capture record per exchange: what `ctxray record` writes, built from the bytes that passed through.
// Credentials never reach it: request headers are kept only from an allowlist of non-secret protocol headers,
// and every query parameter value is written as "[redacted]" unless its name is on a short list of harmless ones.
import { nestingOverflowOffset } from '../../core/input/depth.ts';
import { MAX_NESTING_DEPTH } from '../../core/input/limits.ts';
import type { JsonObject } from '../../core/input/json-value.ts';
import { eventUsage, sseUsage } from '../../core/input/sse.ts';
import type { Provider } from './route.ts';

/** Request headers that say how the body is read (API version, betas, media type) and can carry no secret. */
export const KEPT_REQUEST_HEADERS = ['anthropic-version', 'anthropic-beta', 'openai-beta', 'content-type'] as const;
/** Response headers kept: the media type only. */
export const KEPT_RESPONSE_HEADERS = ['content-type'] as const;

/** A header name that may hold a credential. */
const SECRET_NAME = /key|token|secret|auth|password|passwd|credential|session|cookie|signature|sig$/i;

/**
 * Query parameters whose values are written as sent: the ones the provider SDKs send, each with the only values
 * it takes. Any other value (an unknown name may be a credential: `pass=`, `jwt=`, `code=` ...) is redacted.
 */
const HARMLESS_QUERY: Readonly<Record<string, RegExp>> = {
  beta: /^(?:true|false)$/,
  'api-version': /^\d{4}-\d{2}-\d{2}(?:-preview)?$/,
  limit: /^\d{1,6}$/,
  order: /^(?:asc|desc)$/,
  stream: /^(?:true|false)$/,
};

export interface CapturedRequest {
  timestamp: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Decoded body (content-encoding undone), or null when it could not be decoded. */
  body: Uint8Array | null;
  /** Why the body is missing (an encoding ctxray cannot undo). */
  bodyError: string | null;
}

export interface CapturedResponse {
  timestamp: string;
  /** Null when no response came from the upstream. */
  status: number | null;
  headers: Record<string, string>;
  body: Uint8Array | null;
  bodyError: string | null;
  /** The transfer did not complete (upstream failure, client went away). */
  error: string | null;
  /** The code of what went wrong (exchange.ts `Anomaly`), beside `error`'s sentence. */
  anomaly?: string | null;
}

export interface CaptureRecord {
  provider: Provider;
  request: JsonObject;
  response: JsonObject;
  usage: JsonObject | null;
}

/** The headers of `names` that are present, as single strings (repeated ones joined with ", "). */
export function keptHeaders(headers: Readonly<Record<string, string | string[] | undefined>>, names: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (value === undefined || SECRET_NAME.test(name)) continue;
    kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

/** The request target with every query parameter value redacted but the harmless ones. */
export function redactedPath(target: string): string {
  const query = target.indexOf('?');
  if (query < 0) return target;
  const hash = target.indexOf('#', query);
  const end = hash < 0 ? target.length : hash;
  // `;` separates parameters for some servers (`a=1;key=…`), so it splits as `&` does.
  const parts = target
    .slice(query + 1, end)
    .split(/([&;])/)
    .map((part, i) => (i % 2 === 1 ? part : redactedParameter(part)));
  return `${target.slice(0, query)}?${parts.join('')}`;
}

function redactedParameter(part: string): string {
  const eq = part.indexOf('=');
  if (eq < 0) return part;
  const value = part.slice(eq + 1);
  let name = part.slice(0, eq);
  try {
    name = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: not a harmless name.
  }
  const allowed = Object.hasOwn(HARMLESS_QUERY, name) ? HARMLESS_QUERY[name] : undefined;
  return allowed !== undefined && allowed.test(value) ? part : `${part.slice(0, eq)}=[redacted]`;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

type StoredBody = { key: 'body' | 'sse'; value: unknown } | { key: 'body_base64'; value: string };

/**
 * A body as written: parsed JSON when it is JSON (so `analyze` reads the request, and nested no deeper than the
 * readers accept), else its text; bytes that are not UTF-8 are kept as base64. A response event stream stays text
 * under `sse` (a request is never one, whatever its content-type says).
 */
function storedBody(bytes: Uint8Array, contentType: string | undefined, side: 'request' | 'response'): StoredBody {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { key: 'body_base64', value: Buffer.from(bytes).toString('base64') };
  }
  if (side === 'response' && isEventStream(contentType)) return { key: 'sse', value: text };
  if (escapesPastTwice(text)) return { key: 'body_base64', value: Buffer.from(bytes).toString('base64') };
  const trimmed = text.trimStart();
  const json = trimmed.startsWith('{') || trimmed.startsWith('[') ? depthCheckedParse(text) : undefined;
  return { key: 'body', value: json === undefined ? text : json };
}

/**
 * Whether the text's JSON string would be over twice its length (control bytes become six-character escapes):
 * such a body is kept as base64 (4/3 of its bytes), so a body of any bytes up to the limit can be written.
 */
function escapesPastTwice(text: string): boolean {
  let extra = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) extra += 5;
    if (extra > text.length) return true;
  }
  return false;
}

export function isEventStream(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*text\/event-stream\b/i.test(contentType);
}

/** Stores one side's body into `target` (or its body_error when it could not be read). */
function withBody(target: JsonObject, side: 'request' | 'response', message: CapturedRequest | CapturedResponse): StoredBody | null {
  if (message.body === null) {
    if (message.bodyError !== null) target['body_error'] = message.bodyError;
    return null;
  }
  const stored = storedBody(message.body, message.headers['content-type'], side);
  target[stored.key] = stored.value;
  return stored;
}

/** JSON text as a value, or undefined when it is broken or nested deeper than the readers accept. */
function depthCheckedParse(json: string): unknown {
  if (nestingOverflowOffset(json, MAX_NESTING_DEPTH) >= 0) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** The provider's usage in a stored response: the body's own, or a stream's pieces merged (sse.ts). */
function storedUsage(stored: StoredBody | null): JsonObject | null {
  if (stored === null) return null;
  if (stored.key === 'sse') return typeof stored.value === 'string' ? sseUsage(stored.value, depthCheckedParse) : null;
  return stored.key === 'body' ? eventUsage(stored.value) : null;
}

/** The record of one exchange, `usage` being the provider's usage object as sent (a stream's pieces merged). */
export function captureRecord(provider: Provider, request: CapturedRequest, response: CapturedResponse): CaptureRecord {
  const requestJson: JsonObject = {
    timestamp: request.timestamp,
    method: request.method,
    path: redactedPath(request.path),
    headers: request.headers,
  };
  withBody(requestJson, 'request', request);
  const responseJson: JsonObject = { timestamp: response.timestamp, status: response.status, headers: response.headers };
  const stored = withBody(responseJson, 'response', response);
  if (response.error !== null) responseJson['error'] = response.error;
  if (response.anomaly != null) responseJson['anomaly'] = response.anomaly;
  return { provider, request: requestJson, response: responseJson, usage: storedUsage(stored) };
}
