// nock recordings (`nock.recorder.rec({output_objects: true})`, nock.back fixtures): a JSON array of
// `{scope, method, path, body, status, response, rawHeaders, responseIsBinary}`. The request body is parsed JSON or
// text; the response is parsed JSON, text, or — when it travelled compressed or binary — hex: an array of hex
// chunks (gzip) or one hex string (`responseIsBinary`). rawHeaders is a flat [name, value, …] list or an object.
// Each element is a record (json-array layout), so errors name the element.

import { isObject, stringField, type JsonObject } from '../input/json-value.ts';
import { bodyErrorOf, ExchangeReader, type HttpExchange } from './exchange.ts';
import { decodeBody, hexBytes, type DecodedBody } from './http-body.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';

function isNockDefinition(value: unknown): value is JsonObject {
  return isObject(value) && typeof value['scope'] === 'string' && typeof value['method'] === 'string' && 'path' in value;
}

function rawHeader(headers: unknown, name: string): string | null {
  const wanted = name.toLowerCase();
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === wanted && typeof headers[i + 1] === 'string') return headers[i + 1] as string;
    }
    return null;
  }
  if (!isObject(headers)) return null;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === wanted);
  const value = key === undefined ? undefined : headers[key];
  return typeof value === 'string' ? value : null;
}

async function responseOf(definition: JsonObject): Promise<DecodedBody | { parsed: unknown }> {
  const response = definition['response'];
  const contentEncoding = rawHeader(definition['rawHeaders'], 'content-encoding');
  const hexChunks = Array.isArray(response) && response.length > 0 && response.every((c) => typeof c === 'string' && /^[0-9a-f]+$/i.test(c));
  const hex = hexChunks ? (response as string[]).join('') : definition['responseIsBinary'] === true && typeof response === 'string' ? response : null;
  if (hex !== null) {
    const bytes = hexBytes(hex);
    return bytes === null ? { error: 'is marked binary but is not hex' } : decodeBody({ bytes, contentEncoding });
  }
  if (typeof response === 'string') return { text: response };
  return response === undefined || response === null ? null : { parsed: response };
}

async function definitionExchange(definition: JsonObject, where: string, line: number): Promise<HttpExchange | string> {
  const answer = await responseOf(definition);
  const body = definition['body'];
  const scope = (stringField(definition, 'scope') ?? '').replace(/:(443|80)$/, '');
  return {
    where,
    line,
    method: stringField(definition, 'method') ?? '',
    url: scope + String(definition['path'] ?? ''),
    requestBody: isObject(body) || typeof body === 'string' ? body : null,
    responseBody: answer === null || 'error' in answer ? null : 'parsed' in answer ? (answer.parsed as JsonObject) : answer.text,
    timestamp: dateHeader(definition['rawHeaders']),
    bodyError: bodyErrorOf(null, answer, 'the response'),
  };
}

function dateHeader(headers: unknown): number | null {
  const date = rawHeader(headers, 'date');
  const ms = date === null ? NaN : Date.parse(date);
  return Number.isFinite(ms) ? ms : null;
}

export const nockImporter: TranscriptImporter = {
  id: 'nock',
  matchesName: () => false,
  matchesRecords: (first) => first.length > 0 && first.every((record) => isNockDefinition(record.value)),
  async importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): Promise<TranscriptImport> {
    const reader = new ExchangeReader(ctx, 'nock recording');
    for (const record of records) {
      if (!isNockDefinition(record.value)) {
        reader.error(record.line, 'not a nock definition (no string scope and method)');
        continue;
      }
      const exchange = await definitionExchange(record.value, `definition ${record.line}`, record.line);
      if (typeof exchange === 'string') reader.error(record.line, exchange);
      else reader.add(exchange);
    }
    return reader.result();
  },
};
