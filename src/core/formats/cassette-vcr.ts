// VCR cassettes (vcrpy, pytest-recording, Ruby VCR, betamax) → one request per interaction that is an Anthropic,
// OpenAI or Gemini call (exchange.ts). Layouts read:
//  - vcrpy: `interactions[]` of `{request: {body, headers, method, uri}, response: {body: {string}, headers,
//    status}}`; bodies are text, `!!binary` bytes (often gzip, per Content-Encoding) or null; PyYAML 1.x wrote
//    `!!python/unicode` strings (read as plain strings). The file ends with `version: 1`: without it the file is cut.
//  - pydantic-ai's serializer: `parsed_body` (the JSON already parsed) in place of `body` on either side.
//  - Ruby VCR / betamax: `http_interactions[]` with `body: {string | base64_string, encoding}` and `recorded_at`.
//  - vcrpy's in-memory dict `{requests: [], responses: []}` (paired by position), as langchain_tests' gzipped
//    YAML persister writes it; a request with no response is read without recorded usage.
//  - cassetter (pydantic-ai's suite from March 2026): vcrpy's layout with a typed `body: {type, content}`: `json`
//    (the JSON as YAML structure), `text`, `binary` (hex) or `none`; `status` a bare number; `recorded_at`.
// There is no send time in a vcrpy cassette; the response's `Date` header (second precision) stands in.

import { isObject, stringField, type JsonObject } from '../input/json-value.ts';
import { toEpochMs } from '../input/timestamp.ts';
import { bodyErrorOf, ExchangeReader, type HttpExchange } from './exchange.ts';
import { decodeBody, hexBytes, type DecodedBody } from './http-body.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';

/** The key a cassette keeps its interactions under: vcrpy's or Ruby VCR's. */
function interactionsKey(value: unknown): 'interactions' | 'http_interactions' | null {
  if (!isObject(value)) return null;
  if (Array.isArray(value['interactions'])) return 'interactions';
  return Array.isArray(value['http_interactions']) ? 'http_interactions' : null;
}

/**
 * vcrpy's cassette as it holds it in memory, `{requests: [...], responses: [...]}` paired by position: what a
 * persister writes that dumps that dict instead of vcrpy's serializer (langchain_tests' CustomSerializer, gzipped
 * YAML behind every langchain partner package's `tests/cassettes/*.yaml.gz`).
 */
function isPairedLists(value: unknown): value is JsonObject & { requests: unknown[]; responses: unknown[] } {
  if (!isObject(value) || !Array.isArray(value['requests']) || !Array.isArray(value['responses'])) return false;
  const first: unknown = value['requests'][0];
  return first === undefined ? value['responses'].length === 0 : isObject(first) && typeof first['uri'] === 'string' && typeof first['method'] === 'string';
}

function interactionsOf(value: unknown): unknown[] | null {
  const key = interactionsKey(value);
  if (key !== null) return (value as JsonObject)[key] as unknown[];
  if (!isPairedLists(value)) return null;
  const { requests, responses } = value;
  return requests.map((request, i) => ({ request, response: responses[i] }));
}

/** A header of a vcrpy (`{Name: [values]}`) or VCR/betamax (`{Name: [values]}` or a string) header map. */
export function mapHeader(headers: unknown, name: string): string | null {
  if (!isObject(headers)) return null;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = headers[key];
    const first: unknown = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' ? first : null;
  }
  return null;
}

type SideBody = DecodedBody | { parsed: JsonObject | unknown[] };

/** A side's body: parsed (`parsed_body`), text, bytes, a `{string | base64_string}` wrapper, or cassetter's `{type, content}`. */
async function sideBody(side: JsonObject): Promise<SideBody> {
  const parsed = side['parsed_body'];
  if (isObject(parsed) || Array.isArray(parsed)) return { parsed };
  const contentEncoding = mapHeader(side['headers'], 'content-encoding');
  const body = side['body'];
  // Bytes (`!!binary`) are an object to isObject: read them as the body, not as a wrapper around it.
  if (isObject(body) && !(body instanceof Uint8Array)) {
    if (typeof body['base64_string'] === 'string') return decodeBody({ text: body['base64_string'], base64: true, contentEncoding });
    if ('string' in body) return bodyValue(body['string'], contentEncoding);
    if (typeof body['type'] === 'string') return typedBody(body['type'], body['content'], contentEncoding);
    const keys = Object.keys(body);
    return { error: `is an object with no \`string\`, \`base64_string\` or \`type\` (cassetter) field${keys.length === 0 ? '' : ` (it has ${keys.slice(0, 5).map((k) => `\`${k}\``).join(', ')})`}` };
  }
  return bodyValue(body, contentEncoding);
}

/** A cassetter body: `{type: json | text | binary | none, content}` (Kludex/cassetter SPECIFICATION.md §1.2). */
async function typedBody(type: string, content: unknown, contentEncoding: string | null): Promise<SideBody> {
  switch (type) {
    case 'none':
      return null;
    case 'json':
      if (isObject(content) || Array.isArray(content)) return { parsed: content };
      return content === undefined ? null : { text: JSON.stringify(content) };
    case 'text':
      if (typeof content === 'string') return content === '' ? null : { text: content };
      return content === undefined || content === null ? null : { error: `is of type text but its content is ${Array.isArray(content) ? 'a list' : typeof content}, not a string` };
    case 'binary': {
      // An all-digit hex string unquoted is a YAML number: read back as its digits (cassetter quotes it when writing).
      const hex = typeof content === 'number' && Number.isSafeInteger(content) ? String(content) : content;
      if (hex === undefined || hex === null || hex === '') return null;
      const bytes = typeof hex === 'string' ? hexBytes(hex) : null;
      return bytes === null ? { error: 'is of type binary but its content is not hex' } : decodeBody({ bytes, contentEncoding });
    }
    default:
      return { error: `is of type "${type.slice(0, 40)}", not one of cassetter's body types (json, text, binary, none)` };
  }
}

function bodyValue(value: unknown, contentEncoding: string | null): Promise<DecodedBody> | DecodedBody {
  if (value instanceof Uint8Array) return decodeBody({ bytes: value, contentEncoding });
  if (typeof value === 'string') return value === '' ? null : { text: value };
  return null;
}

function content(body: SideBody): string | JsonObject | unknown[] | null {
  if (body === null || 'error' in body) return null;
  return 'parsed' in body ? body.parsed : body.text;
}

async function interactionExchange(interaction: unknown, where: string, line: number): Promise<HttpExchange | string> {
  if (!isObject(interaction) || !isObject(interaction['request'])) return `${where} has no request`;
  const request = interaction['request'];
  const response = isObject(interaction['response']) ? interaction['response'] : null;
  const sent = await sideBody(request);
  const answer = response === null ? null : await sideBody(response);
  const requestBody = content(sent);
  return {
    where,
    line,
    method: stringField(request, 'method') ?? '',
    url: stringField(request, 'uri') ?? stringField(request, 'url') ?? '',
    requestBody: Array.isArray(requestBody) ? null : requestBody,
    responseBody: answer === null ? null : content(answer),
    timestamp: toEpochMs(interaction['recorded_at']) ?? headerTime(response),
    bodyError: bodyErrorOf(sent, answer),
  };
}

function headerTime(response: JsonObject | null): number | null {
  const date = response === null ? null : mapHeader(response['headers'], 'date');
  const ms = date === null ? NaN : Date.parse(date);
  return Number.isFinite(ms) ? ms : null;
}

/** Responses past the last request of a `{requests, responses}` cassette: said, located at the first of them. */
function reportUnpaired(reader: ExchangeReader, record: TranscriptRecord): void {
  const value = record.value as { requests: unknown[]; responses: unknown[] };
  const [requests, responses] = [value.requests.length, value.responses.length];
  const extra = responses - requests;
  if (extra <= 0) return;
  const line = record.listLines?.('responses')?.[requests] ?? record.line;
  reader.error(line, `the cassette has ${responses} responses for ${requests} request${requests === 1 ? '' : 's'}: the last ${extra === 1 ? 'response has' : `${extra} responses have`} no request and ${extra === 1 ? 'is' : 'are'} not read`);
}

export const vcrCassetteImporter: TranscriptImporter = {
  id: 'vcr-cassette',
  matchesName: () => false,
  matchesRecords: (first) => first.length === 1 && interactionsOf(first[0]!.value) !== null,
  async importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): Promise<TranscriptImport> {
    const reader = new ExchangeReader(ctx, 'cassette');
    const record = records[0];
    const interactions = record === undefined ? null : interactionsOf(record.value);
    // Nothing parsed (the reader has reported why): no second error about an empty cassette.
    if (record === undefined || interactions === null) return { requests: [], errors: [] };
    // A vcrpy file ends with `version:`; a parse break or a missing version means the last interaction is cut off.
    const cut = record.cut === true || (isObject(record.value) && 'interactions' in record.value && !('version' in record.value));
    const whole = cut ? interactions.slice(0, -1) : interactions;
    if (cut) reader.error(record.line, `the cassette is cut off${record.cut === true ? '' : ' (it has no closing `version:`)'}: read the ${whole.length} interaction${whole.length === 1 ? '' : 's'} before the break; interaction ${interactions.length} is incomplete and not read`);
    const paired = isPairedLists(record.value);
    const lines = record.listLines?.(paired ? 'requests' : interactionsKey(record.value)!);
    if (paired) reportUnpaired(reader, record);
    for (let i = 0; i < whole.length; i++) {
      const line = lines?.[i] ?? record.line;
      const exchange = await interactionExchange(whole[i], `interaction ${i + 1} of ${interactions.length}`, line);
      if (typeof exchange === 'string') reader.error(line, exchange);
      else reader.add(exchange);
    }
    return reader.result();
  },
};
