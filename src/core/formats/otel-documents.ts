// OTLP JSON documents as the OpenTelemetry GenAI importer (otel-spans.ts) reads them: the spans of an export
// request (`resourceSpans`, proto names too), of Grafana Tempo's trace by id and of a Jaeger JSON export (turned into
// OTLP spans), with the scope and SDK each came from; GenAI events written as log records (`resourceLogs`); an
// attribute list as a map of plain values; the JSON an attribute's text holds.

import { nestingOverflowOffset } from '../input/depth.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';
import { MAX_NESTING_DEPTH } from '../input/limits.ts';

export type Attributes = Map<string, unknown>;

/**
 * A field of an OTLP message under its JSON name (lowerCamelCase, as the spec writes it) or its proto field name
 * (snake_case, as exporters that keep proto names write it: `resource_spans`, `string_value`).
 */
export function otlp(object: JsonObject, camel: string): unknown {
  return camel in object ? object[camel] : object[protoName(camel)];
}

/** The proto field name of each JSON name asked for, made once: detection asks it of every file's first records. */
const protoNames = new Map<string, string>();
function protoName(camel: string): string {
  let name = protoNames.get(camel);
  if (name === undefined) protoNames.set(camel, (name = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return name;
}

/** An OTLP AnyValue as a plain value. */
export function anyValue(value: unknown): unknown {
  if (!isObject(value)) return undefined;
  for (const key of ['stringValue', 'boolValue']) if (otlp(value, key) !== undefined) return otlp(value, key);
  for (const key of ['intValue', 'doubleValue']) if (otlp(value, key) !== undefined) return Number(otlp(value, key));
  const array = otlp(value, 'arrayValue');
  if (isObject(array)) return ((array['values'] as unknown[]) ?? []).map(anyValue);
  const kvlist = otlp(value, 'kvlistValue');
  if (isObject(kvlist)) return Object.fromEntries(attributes(kvlist['values']));
  return undefined;
}

export function attributes(list: unknown): Attributes {
  const out: Attributes = new Map();
  if (!Array.isArray(list)) return out;
  for (const item of list) if (isObject(item) && typeof item['key'] === 'string') out.set(item['key'], anyValue(item['value']));
  return out;
}

/** Where a document keeps its ResourceSpans, without converting any: the shapes resourceSpans reads. */
function spansShape(request: unknown): 'otlp' | 'tempo-v1' | 'tempo-v2' | 'jaeger' | null {
  if (!isObject(request)) return null;
  if (Array.isArray(otlp(request, 'resourceSpans'))) return 'otlp';
  const batches = request['batches'];
  if (Array.isArray(batches) && batches.length > 0 && batches.every((b) => isObject(b) && (otlp(b, 'scopeSpans') !== undefined || otlp(b, 'instrumentationLibrarySpans') !== undefined))) return 'tempo-v1';
  if (isObject(request['trace']) && !('resourceSpans' in request)) return spansShape(request['trace']) === 'otlp' ? 'tempo-v2' : null;
  const traces = request['data'];
  const jaeger = Array.isArray(traces) && traces.length > 0 && traces.every((t) => isObject(t) && Array.isArray(t['spans']) && t['spans'].every((span) => isObject(span) && 'spanID' in span && 'operationName' in span));
  return jaeger ? 'jaeger' : null;
}

/** Whether a document holds spans (detection: nothing is converted). */
export const holdsSpans = (request: unknown): boolean => spansShape(request) !== null;

/**
 * The ResourceSpans of a document: an export request's `resourceSpans`; Grafana Tempo's trace by id, `batches` (v1
 * API) or `trace.resourceSpans` (v2); a Jaeger JSON export (`data[].spans[]`, Jaeger's query API and UI download),
 * its spans turned into OTLP ones (jaegerResourceSpans).
 */
export function resourceSpans(request: unknown): unknown[] | null {
  switch (spansShape(request)) {
    case 'otlp':
      return otlp(request as JsonObject, 'resourceSpans') as unknown[];
    case 'tempo-v1':
      return (request as JsonObject)['batches'] as unknown[];
    case 'tempo-v2':
      return otlp((request as JsonObject)['trace'] as JsonObject, 'resourceSpans') as unknown[];
    case 'jaeger':
      return jaegerResourceSpans((request as JsonObject)['data'] as JsonObject[]);
    default:
      return null;
  }
}

const JAEGER_VALUE: Record<string, string> = { string: 'stringValue', bool: 'boolValue', int64: 'intValue', float64: 'doubleValue', binary: 'bytesValue' };

/** Jaeger's tags and log fields (`{key, type, value}`) as OTLP attributes. */
const jaegerAttributes = (tags: unknown): JsonObject[] =>
  (Array.isArray(tags) ? tags.filter(isObject) : []).map((tag) => ({ key: tag['key'], value: { [JAEGER_VALUE[String(tag['type'])] ?? 'stringValue']: tag['value'] } }));

/**
 * A Jaeger JSON export's traces as ResourceSpans: tags become attributes, logs events (named by their `event` field,
 * as the OpenTelemetry exporters write span events to Jaeger), startTime (microseconds) startTimeUnixNano, the scope
 * `otel.scope.name` (`otel.library.name` before).
 */
function jaegerResourceSpans(traces: readonly JsonObject[]): unknown[] {
  const out: unknown[] = [];
  for (const trace of traces) {
    for (const span of (trace['spans'] as JsonObject[])) {
      const tags = jaegerAttributes(span['tags']);
      const scope = tags.find((tag) => tag['key'] === 'otel.scope.name' || tag['key'] === 'otel.library.name');
      const events = (Array.isArray(span['logs']) ? span['logs'].filter(isObject) : []).map((log) => {
        const fields = jaegerAttributes(log['fields']);
        const name = fields.find((field) => field['key'] === 'event');
        return { name: isObject(name?.['value']) ? name['value']['stringValue'] : undefined, timeUnixNano: String(Number(log['timestamp']) * 1000), attributes: fields.filter((field) => field !== name) };
      });
      const start = typeof span['startTime'] === 'number' ? String(span['startTime'] * 1000) : undefined;
      const otlpSpan = { traceId: span['traceID'], spanId: span['spanID'], name: span['operationName'], startTimeUnixNano: start, attributes: tags, events };
      out.push({ resource: { attributes: [] }, scopeSpans: [{ scope: { name: isObject(scope?.['value']) ? scope['value']['stringValue'] : '' }, spans: [otlpSpan] }] });
    }
  }
  return out;
}

export function resourceList(request: unknown, camel: string): unknown[] | null {
  const list = isObject(request) ? otlp(request, camel) : undefined;
  return Array.isArray(list) ? list : null;
}

/** An OTLP export of any signal: the collector's file exporter writes traces, logs and metrics to one file when told to. */
export const isOtlpExport = (value: unknown): boolean => holdsSpans(value) || ['resourceLogs', 'resourceMetrics'].some((key) => resourceList(value, key) !== null);

/** A GenAI event written as a log record (the Logs API's events: OpenTelemetry's Python instrumentations, OpenLLMetry's non-legacy mode). */
export interface LogEvent {
  name: string;
  spanId: string;
  /** The record as a span event: `{name, attributes, body}`, as promptOf reads events. */
  event: JsonObject;
  time: unknown;
}

export function logEventsOf(request: unknown): LogEvent[] {
  const out: LogEvent[] = [];
  for (const resource of resourceList(request, 'resourceLogs') ?? []) {
    const scopes = isObject(resource) ? otlp(resource, 'scopeLogs') : undefined;
    if (!Array.isArray(scopes)) continue;
    for (const scope of scopes) {
      const records = isObject(scope) ? otlp(scope, 'logRecords') : undefined;
      if (!Array.isArray(records)) continue;
      for (const record of records.filter(isObject)) {
        // The event's name: the record's eventName, or (older SDKs) its event.name attribute.
        const named = otlp(record, 'eventName') ?? attributes(record['attributes']).get('event.name');
        if (typeof named !== 'string' || !named.startsWith('gen_ai.')) continue;
        const spanId = otlp(record, 'spanId');
        out.push({ name: named, spanId: typeof spanId === 'string' ? spanId : '', event: { name: named, attributes: record['attributes'], body: record['body'] }, time: otlp(record, 'timeUnixNano') ?? otlp(record, 'observedTimeUnixNano') });
      }
    }
  }
  return out;
}

/** Where a span came from: its scope's name and its resource's `telemetry.sdk.name` (which SDK wrote it). */
export interface SpanOrigin {
  scope: string;
  sdk: string;
}

/** An origin unknown (a log record read without its span). */
export const NO_ORIGIN: SpanOrigin = { scope: '', sdk: '' };

export interface SpanSource extends SpanOrigin {
  span: JsonObject;
}

export function spansOf(request: unknown): SpanSource[] {
  const out: SpanSource[] = [];
  for (const resource of resourceSpans(request) ?? []) {
    if (!isObject(resource)) continue;
    const resourceObject = otlp(resource, 'resource');
    const sdk = isObject(resourceObject) ? attributes(resourceObject['attributes']).get('telemetry.sdk.name') : undefined;
    const scopes = otlp(resource, 'scopeSpans') ?? otlp(resource, 'instrumentationLibrarySpans');
    if (!Array.isArray(scopes)) continue;
    for (const scope of scopes) {
      if (!isObject(scope) || !Array.isArray(scope['spans'])) continue;
      const scopeObject = otlp(scope, 'scope') ?? otlp(scope, 'instrumentationLibrary');
      const scopeName = isObject(scopeObject) && typeof scopeObject['name'] === 'string' ? scopeObject['name'] : '';
      for (const span of scope['spans'].filter(isObject)) out.push({ span, scope: scopeName, sdk: typeof sdk === 'string' ? sdk : '' });
    }
  }
  return out;
}

/**
 * The JSON an attribute's text holds, or undefined when it holds none, or nests deeper than a record may (the
 * walks over parts recurse per level: a hostile attribute of 30,000 nested lists overflowed the stack).
 */
export function safeJson(text: string): unknown {
  if (nestingOverflowOffset(text, MAX_NESTING_DEPTH) >= 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The JSON object an attribute holds (as JSON text, or as a value), or null. */
export const jsonObject = (value: unknown): JsonObject | null => {
  const parsed = typeof value === 'string' ? safeJson(value) : value;
  return isObject(parsed) ? parsed : null;
};
