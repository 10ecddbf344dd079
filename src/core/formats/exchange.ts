// One recorded HTTP exchange (a HAR entry, a cassette interaction) → the LLM request it was, with the usage its
// response recorded. Shared by the capture formats (har.ts, cassette.ts): they find the exchanges and decode their
// bodies; this file says which exchanges are LLM calls (by endpoint, then by a body only a request format has),
// rebuilds the request through the wire importers and tallies the exchanges it skipped by host.

import type { ParsedRequest, ReadError, RecordedUsage, WireFormat } from '../model.ts';
import { responseUsage } from '../input/envelope.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';
import { DEFAULT_LIMITS } from '../input/limits.ts';
import { looksLikeSse, sseJsonEvents } from '../input/sse.ts';
import { recordedUsage } from '../input/usage.ts';
import { detectWireFormat } from './detect.ts';
import { converseAsMessages, converseModel, converseRecordedUsage, isClaudeModel, isConverseCall } from './bedrock-converse.ts';
import { geminiAsChat, geminiModel, geminiRecordedUsage, isGeminiCall } from './gemini-generate.ts';
import { note } from './notes.ts';
import { importRebuilt } from './transcript-requests.ts';
import type { TranscriptContext, TranscriptImport } from './types.ts';

export type ExchangeApi = WireFormat | 'gemini' | 'bedrock-converse';

export interface HttpExchange {
  /** Where it is in the file, for errors: e.g. "entry 3" or "interaction 2". */
  where: string;
  line: number;
  method: string;
  url: string;
  /** The request body as text (already base64/gzip-decoded), or an object when the capture stored it parsed. */
  requestBody: string | JsonObject | null;
  /** The response body as text (JSON or server-sent events), or parsed; null when none was recorded. */
  responseBody: string | JsonObject | unknown[] | null;
  timestamp: number | null;
  /**
   * Why a body could not be decoded, or null. An error of the file only when the exchange is an LLM call: a
   * browser capture's images and an embeddings call's bodies are skipped with the rest of what is no call.
   */
  bodyError: string | null;
}

/** A decoded body, or why it could not be decoded (http-body.ts); a capture's own parsed form; or none. */
type SideBody = { text: string } | { error: string } | { parsed: unknown } | null;

/**
 * HttpExchange.bodyError for two decoded sides: the request body's error first. `responseName` is how the capture
 * names the response side ("the response body", or nock's "the response").
 */
export function bodyErrorOf(request: SideBody, response: SideBody, responseName = 'the response body'): string | null {
  if (request !== null && 'error' in request) return `the request body ${request.error}`;
  if (response !== null && 'error' in response) return `${responseName} ${response.error}`;
  return null;
}

const MAX_DEPTH = DEFAULT_LIMITS.maxNestingDepth;

function pathOf(url: string): string {
  const noQuery = url.split(/[?#]/, 1)[0]!;
  return noQuery.replace(/\/+$/, '');
}

/** The API an endpoint URL names, or null when the path is none of the request formats'. */
export function endpointApi(url: string): ExchangeApi | null {
  if (isGeminiCall(url)) return 'gemini';
  if (isConverseCall(url)) return 'bedrock-converse';
  const path = pathOf(url);
  if (/\/messages$/.test(path) && !/\/threads\//.test(path)) return 'anthropic-messages';
  if (/\/chat\/completions$/.test(path)) return 'openai-chat';
  if (/\/responses$/.test(path)) return 'openai-responses';
  return null;
}

/**
 * Endpoints of the providers' APIs that take no prompt a cache could hold (embeddings, moderation, images, audio,
 * the legacy completions (OpenAI's `/completions`, Anthropic's `/v1/complete`), files, batches, models, token
 * counting, Gemini's `:embedContent` / `:batchEmbedContents` / `:countTokens`): never read as a request, whatever
 * their body looks like (an embeddings body's `input` list reads like a Responses request). Named in the skipped tally.
 */
const NO_PROMPT_ENDPOINT = /\/(embeddings|moderations|images\/[a-z_]+|audio\/[a-z_]+|completions|complete|files|batches|models|count_tokens)$|:(embedContent|batchEmbedContents|countTokens)$/;

/** The name a skipped exchange's endpoint goes by in the tally (`embeddings`, Gemini's `embedContent`), or null. */
function noPromptEndpoint(url: string): string | null {
  const match = NO_PROMPT_ENDPOINT.exec(pathOf(url));
  return match === null ? null : (match[1] ?? match[2]!);
}

/** Bedrock InvokeModel (`/model/{modelId}/invoke`, or its streaming form): the model is named by the URL only. */
const BEDROCK_INVOKE = /\/model\/([^/?#]+)\/invoke(?:-with-response-stream)?(?:[?#]|$)/;

/** The body with the model its URL names, when the body names none (a Bedrock Messages body). */
function withUrlModel(body: JsonObject, url: string): JsonObject {
  if (typeof body['model'] === 'string') return body;
  const match = BEDROCK_INVOKE.exec(url);
  if (match === null) return body;
  let model: string;
  try {
    model = decodeURIComponent(match[1]!);
  } catch {
    return body;
  }
  return { ...body, model };
}

/** The host of a URL for the skipped-entries tally ('(no host)' for a relative or unreadable one). */
export function hostOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:@]+@)?([^/?#:]+)/i.exec(url);
  return match ? match[2]!.toLowerCase() : '(no host)';
}

function parsedBody(body: string | JsonObject | null): JsonObject | string | null {
  if (body === null || isObject(body)) return body;
  try {
    const value = JSON.parse(body) as unknown;
    return isObject(value) ? value : 'is JSON but not an object';
  } catch {
    return 'is not JSON';
  }
}

/** The events or document a response body holds: SSE text → its JSON events; JSON text → the value. */
function responseChunks(body: HttpExchange['responseBody']): unknown[] {
  if (body === null) return [];
  if (typeof body !== 'string') return Array.isArray(body) ? body : [body];
  if (looksLikeSse(body)) return sseJsonEvents(body);
  try {
    const value = JSON.parse(body) as unknown;
    return Array.isArray(value) ? value : [value];
  } catch {
    return [];
  }
}

function recordedOf(api: ExchangeApi, body: HttpExchange['responseBody']): RecordedUsage | null {
  if (body === null) return null;
  if (api === 'gemini') return geminiRecordedUsage(responseChunks(body));
  if (api === 'bedrock-converse') return converseRecordedUsage(responseChunks(body));
  return recordedUsage(responseUsage(body, MAX_DEPTH), api);
}

/** The wire format and body a call is read as: Gemini as Chat Completions, Bedrock Converse as Anthropic Messages. */
function wireOf(api: ExchangeApi, body: JsonObject, url: string): { format: WireFormat; body: JsonObject } {
  if (api === 'gemini') return { format: 'openai-chat', body: geminiAsChat(body, geminiModel(url)) };
  if (api === 'bedrock-converse') return { format: 'anthropic-messages', body: converseAsMessages(body, converseModel(url)) };
  return { format: api, body: withUrlModel(body, url) };
}

/**
 * The exchanges of one capture file → its requests. Exchanges that are no LLM call are counted by host; a file
 * with none says what it held instead of opening empty.
 */
export class ExchangeReader {
  private readonly requests: ParsedRequest[] = [];
  private readonly errors: ReadError[] = [];
  private readonly skipped = new Map<string, number>();
  private exchanges = 0;
  private firstSkippedLine = 0;

  constructor(
    private readonly ctx: TranscriptContext,
    /** What the file is, for messages: 'HAR', 'cassette'. */
    private readonly kind: string,
  ) {}

  error(line: number, message: string): void {
    this.errors.push({ file: this.ctx.file, line, message });
  }

  add(exchange: HttpExchange): void {
    this.exchanges++;
    const api = this.apiOf(exchange);
    if (api === null) {
      const endpoint = noPromptEndpoint(exchange.url);
      const where = endpoint === null ? hostOf(exchange.url) : `${hostOf(exchange.url)} ${endpoint}`;
      if (this.skipped.size === 0) this.firstSkippedLine = exchange.line;
      this.skipped.set(where, (this.skipped.get(where) ?? 0) + 1);
      return;
    }
    if (exchange.bodyError !== null) {
      this.error(exchange.line, `${exchange.where}: ${exchange.bodyError}`);
      return;
    }
    const body = parsedBody(exchange.requestBody);
    if (typeof body === 'string' || body === null) {
      this.error(exchange.line, `${exchange.where}: the request body of this ${api} call ${body ?? 'is missing'}`);
      return;
    }
    const request = importRebuilt({ ...wireOf(api, body, exchange.url), line: exchange.line, timestamp: exchange.timestamp, recorded: recordedOf(api, exchange.responseBody), missing: [] }, this.ctx);
    if (api === 'gemini' || (api === 'bedrock-converse' && !isClaudeModel(converseModel(exchange.url)))) request.notes.push(note('provider_not_modelled'));
    this.requests.push(request);
  }

  /** By endpoint; a POST to another path counts when its body has a shape only a request format has. */
  private apiOf(exchange: HttpExchange): ExchangeApi | null {
    const byUrl = endpointApi(exchange.url);
    if (byUrl !== null) return byUrl;
    if (exchange.method.toUpperCase() !== 'POST' || NO_PROMPT_ENDPOINT.test(pathOf(exchange.url))) return null;
    const body = parsedBody(exchange.requestBody);
    if (!isObject(body)) return null;
    const detection = detectWireFormat(body);
    return detection?.strong === true ? detection.format : null;
  }

  result(): TranscriptImport {
    const tally = [...this.skipped].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const skipped = tally.reduce((sum, [, n]) => sum + n, 0);
    const byHost = tally.map(([host, n]) => `${host} ${n}`).join(', ');
    if (this.requests.length === 0 && this.errors.length === 0) {
      const held = this.exchanges === 0 ? 'no entries at all' : `${this.exchanges} entr${this.exchanges === 1 ? 'y' : 'ies'}, none an LLM call (by host: ${byHost})`;
      this.error(this.firstSkippedLine || 1, `this ${this.kind} holds no Anthropic, OpenAI or Gemini call: ${held}`);
    } else if (skipped > 0) {
      this.error(this.firstSkippedLine, `skipped ${skipped} ${this.kind} ${skipped === 1 ? 'entry that is' : 'entries that are'} no LLM call (by host: ${byHost})`);
    }
    return { requests: this.requests, errors: this.errors };
  }
}
