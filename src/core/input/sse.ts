// Server-sent events (the text/event-stream format of streamed LLM responses) and the usage a stream records.
// Parsing follows the WHATWG EventSource rules that matter for provider streams: lines end in CRLF, LF or CR; a
// blank line dispatches the event; `data:` lines of one event join with "\n"; one space after the colon is
// dropped; `:` lines are comments. Usage merging knows the three provider shapes:
//  - Anthropic Messages: `message_start.message.usage` holds input and cache tokens (and a first output count),
//    `message_delta.usage` the cumulative output (newer API versions repeat input/cache totals there too);
//  - OpenAI Chat Completions: the last chunk carries `usage` (with stream_options.include_usage), earlier ones null;
//  - OpenAI Responses: `response.completed` (or .incomplete/.failed) carries `response.usage`.
// Later non-null fields overlay earlier ones, nested objects field by field. Pure: no I/O, no DOM, no Node APIs.

import { isObject, type JsonObject } from './json-value.ts';

export interface SseEvent {
  /** The `event:` field, or null when the event had none (the default "message" type). */
  event: string | null;
  /** The `data:` lines of the event joined with "\n". */
  data: string;
}

/**
 * Incremental parser: feed text as it arrives (chunks may cut lines anywhere, even between CR and LF), get the
 * events completed so far; `end()` dispatches an event left without its closing blank line.
 */
export class SseParser {
  private pending = '';
  private event: string | null = null;
  private data: string[] = [];
  private hasData = false;
  private lastWasCr = false;
  private first = true;

  push(chunk: string): SseEvent[] {
    const out: SseEvent[] = [];
    if (chunk === '') return out;
    let text = chunk;
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CRLF split across chunks: the LF belongs to the line the CR already ended.
    if (this.lastWasCr && text.startsWith('\n')) text = text.slice(1);
    this.lastWasCr = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 10 && code !== 13) continue;
      this.line(this.pending + text.slice(start, i), out);
      this.pending = '';
      if (code === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else this.lastWasCr = true;
      }
      start = i + 1;
    }
    this.pending += text.slice(start);
    return out;
  }

  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.pending !== '') this.line(this.pending, out);
    this.pending = '';
    this.dispatch(out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      this.dispatch(out);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') {
      this.data.push(value);
      this.hasData = true;
    }
    // `id` and `retry` say nothing about usage; unknown fields are ignored, as the standard says.
  }

  private dispatch(out: SseEvent[]): void {
    if (this.hasData) out.push({ event: this.event, data: this.data.join('\n') });
    this.event = null;
    this.data = [];
    this.hasData = false;
  }
}

/** Every event of a complete server-sent-event text. */
export function parseSse(text: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.push(text), ...parser.end()];
}

/** True when text reads as an event stream rather than a JSON document (a field line at the start of a line). */
export function looksLikeSse(text: string): boolean {
  const head = text.trimStart();
  return !head.startsWith('{') && !head.startsWith('[') && /^(event|data|id|retry):/m.test(text.slice(0, 4096));
}

/**
 * The JSON payload of each event (`[DONE]` and other non-JSON data skipped). `parse` is the caller's JSON reader,
 * so depth limits apply; it returns undefined for text it refuses.
 */
export function sseJsonEvents(text: string, parse: (json: string) => unknown = safeParse): unknown[] {
  const payloads: unknown[] = [];
  for (const { data } of parseSse(text)) {
    const trimmed = data.trimStart();
    if (!trimmed.startsWith('{')) continue;
    const value = parse(trimmed);
    if (value !== undefined) payloads.push(value);
  }
  return payloads;
}

function safeParse(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The usage one response object or stream event carries: its own `usage` (Chat chunk, message_delta, a plain
 * response body), `message.usage` (message_start, a logged message) or `response.usage` (Responses events). A
 * captured event wrapper `{event, data}` is looked through.
 */
export function eventUsage(event: unknown): JsonObject | null {
  if (!isObject(event)) return null;
  if (isObject(event['usage'])) return event['usage'];
  for (const key of ['message', 'response']) {
    const inner = event[key];
    if (isObject(inner) && isObject(inner['usage'])) return inner['usage'];
  }
  if (isObject(event['data']) && typeof event['event'] === 'string') return eventUsage(event['data']);
  return null;
}

/** Folds one event's usage into what the stream recorded so far (a new object; neither input is changed). */
export function mergeEventUsage(merged: JsonObject | null, event: unknown): JsonObject | null {
  const usage = eventUsage(event);
  return usage === null ? merged : overlay(merged ?? {}, usage);
}

/** The usage of a whole stream of events, or null when none carries any. */
export function streamUsage(events: Iterable<unknown>): JsonObject | null {
  let merged: JsonObject | null = null;
  for (const event of events) merged = mergeEventUsage(merged, event);
  return merged;
}

/** The usage recorded in server-sent-event text, or null. */
export function sseUsage(text: string, parse?: (json: string) => unknown): JsonObject | null {
  return streamUsage(sseJsonEvents(text, parse));
}

function overlay(base: JsonObject, top: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const key of Object.keys(top)) {
    const value = top[key];
    if (value === null || value === undefined) continue;
    const below = out[key];
    out[key] = isObject(value) && isObject(below) ? overlay(below, value) : value;
  }
  return out;
}
