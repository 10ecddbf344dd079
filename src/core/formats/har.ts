// HAR 1.2 (HTTP Archive: what browser DevTools, Polly.JS, Charles, Proxyman and mitmproxy export) → one request
// per entry that is an Anthropic, OpenAI or Gemini call (exchange.ts decides which). The body is
// `request.postData.text`, the recorded usage is read from `response.content.text` (JSON or server-sent events;
// base64 when `content.encoding` says so, compressed when the exporter kept the wire bytes), the send time is
// `startedDateTime`. Spec: http://www.softwareishard.com/blog/har-12-spec/.

import { isObject, stringField, type JsonObject } from '../input/json-value.ts';
import { toEpochMs } from '../input/timestamp.ts';
import { bodyErrorOf, ExchangeReader, type HttpExchange } from './exchange.ts';
import { decodeBody, type DecodedBody } from './http-body.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';

/** The HAR log of a parsed document, or null when it is no HAR. */
export function harLog(value: unknown): JsonObject | null {
  if (!isObject(value) || !isObject(value['log'])) return null;
  const log = value['log'];
  return Array.isArray(log['entries']) ? log : null;
}

/** A HAR header list's value for `name` (case-insensitive), or null. */
export function headerValue(headers: unknown, name: string): string | null {
  if (!Array.isArray(headers)) return null;
  const wanted = name.toLowerCase();
  for (const header of headers) {
    if (isObject(header) && String(header['name']).toLowerCase() === wanted && typeof header['value'] === 'string') return header['value'];
  }
  return null;
}

function isBase64(object: JsonObject): boolean {
  const encoding = object['encoding'] ?? object['_encoding'];
  return typeof encoding === 'string' && encoding.toLowerCase() === 'base64';
}

async function requestText(request: JsonObject): Promise<DecodedBody> {
  const post = request['postData'];
  if (!isObject(post)) return null;
  return decodeBody({ text: stringField(post, 'text'), base64: isBase64(post), contentEncoding: headerValue(request['headers'], 'content-encoding') });
}

async function responseText(response: unknown): Promise<DecodedBody> {
  if (!isObject(response) || !isObject(response['content'])) return null;
  const content = response['content'];
  return decodeBody({ text: stringField(content, 'text'), base64: isBase64(content), contentEncoding: headerValue(response['headers'], 'content-encoding') });
}

/** One HAR entry as an exchange, or why its bodies cannot be read. */
async function entryExchange(entry: unknown, where: string, line: number): Promise<HttpExchange | string> {
  if (!isObject(entry) || !isObject(entry['request'])) return `${where} has no request object`;
  const request = entry['request'];
  const sent = await requestText(request);
  const answer = await responseText(entry['response']);
  return {
    where,
    line,
    method: stringField(request, 'method') ?? '',
    url: stringField(request, 'url') ?? '',
    requestBody: sent !== null && 'text' in sent ? sent.text : null,
    responseBody: answer !== null && 'text' in answer ? answer.text : null,
    timestamp: toEpochMs(entry['startedDateTime']),
    bodyError: bodyErrorOf(sent, answer),
  };
}

export const harImporter: TranscriptImporter = {
  id: 'har',
  matchesName: (fileName) => /\.har(?:\.gz)?$/i.test(fileName),
  matchesRecords: (first) => first.length === 1 && harLog(first[0]!.value) !== null,
  async importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): Promise<TranscriptImport> {
    const reader = new ExchangeReader(ctx, 'HAR');
    const record = records[0];
    const log = record === undefined ? null : harLog(record.value);
    // Nothing parsed (the reader has reported why): no second error about an empty HAR.
    if (record === undefined) return { requests: [], errors: [] };
    if (log === null) return { requests: [], errors: [{ file: ctx.file, line: record.line, message: 'not a HAR file: no log.entries array' }] };
    const all = log['entries'] as unknown[];
    // A HAR cut off mid-write: the entry the break went through is incomplete (its error is already reported).
    const entries = record.cut === true ? all.slice(0, -1) : all;
    if (record.cut === true) {
      reader.error(record.line, all.length === 0 ? 'the HAR is cut off before its first entry' : `the HAR is cut off: read the ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} before the break; entry ${all.length} is incomplete and not read`);
    }
    const lines = record.listLines?.('log.entries');
    for (let i = 0; i < entries.length; i++) {
      const line = lines?.[i] ?? record.line;
      const exchange = await entryExchange(entries[i], `entry ${i + 1} of ${entries.length}`, line);
      if (typeof exchange === 'string') reader.error(line, exchange);
      else reader.add(exchange);
    }
    return reader.result();
  },
};
