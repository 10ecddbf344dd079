// LiteLLM proxy logs → one request per call the proxy sent on. Two shapes carry the same fields:
//  - SpendLogs rows, the table the proxy keeps per call (as `/spend/logs` returns them, a JSON array or JSONL
//    export, or wrapped as `{data: [...]}` by the UI's paged endpoint): request_id, call_type, spend, prompt_tokens,
//    completion_tokens, startTime, model, metadata (with `usage_object`), and the bodies — `proxy_server_request`
//    (the body the client sent), `messages`, `response` — only when the proxy runs with store_prompts_in_spend_logs;
//  - the StandardLoggingPayload its loggers write (S3, GCS, custom callbacks): id, call_type, response_cost,
//    status, messages, response, model_parameters, metadata.usage_object.
// Usage: LiteLLM's prompt_tokens counts the cache reads, and in current versions the cache writes too; the
// usage_object keeps them apart (cache_read_input_tokens / cache_creation_input_tokens, or OpenAI's
// prompt_tokens_details.cached_tokens). A total smaller than reads + writes comes from a version that left the writes
// out of it. Calls the proxy answered from its own cache, failed calls and non-LLM calls (embeddings, images,
// audio, rerank) were never billed as prompts: they are skipped and counted by kind.

import type { ParsedRequest, RecordedUsage } from '../model.ts';
import { isObject, numberField, objectField, stringField, type JsonObject } from '../input/json-value.ts';
import { toEpochMs } from '../input/timestamp.ts';
import { jsonOrSelf, loggedCallRequest, rowLogImporter } from './logged-call.ts';
import type { TranscriptContext, TranscriptImporter } from './types.ts';

/** call_type values of a prompt sent to a model (completion, acompletion, anthropic_messages, aresponses, …). */
const LLM_CALL = /completion|messages|responses|generate_content/;

export function isLiteLlmRow(value: unknown): value is JsonObject {
  if (!isObject(value) || typeof value['call_type'] !== 'string') return false;
  const spendRow = 'request_id' in value && 'spend' in value;
  const payload = 'id' in value && 'response_cost' in value;
  return spendRow || payload;
}

/** The rows of one record: a row, or the `{data: [rows]}` page the UI's endpoint returns. */
function rowsOf(value: unknown): unknown[] {
  if (isObject(value) && Array.isArray(value['data']) && !isLiteLlmRow(value)) return value['data'];
  return [value];
}

function usageObject(row: JsonObject): JsonObject | null {
  const metadata = jsonOrSelf(row['metadata']);
  return isObject(metadata) ? objectField(metadata, 'usage_object') : null;
}

function firstNumber(...values: (number | null | undefined)[]): number | null {
  for (const value of values) if (typeof value === 'number') return value;
  return null;
}

export function liteLlmRecorded(row: JsonObject): RecordedUsage | null {
  const usage = usageObject(row) ?? {};
  const prompt = firstNumber(numberField(row, 'prompt_tokens'), numberField(usage, 'prompt_tokens'));
  if (prompt === null) return null;
  const details = objectField(usage, 'prompt_tokens_details') ?? {};
  const read = firstNumber(numberField(usage, 'cache_read_input_tokens'), numberField(details, 'cached_tokens')) ?? 0;
  const write = firstNumber(numberField(usage, 'cache_creation_input_tokens'), numberField(details, 'cache_creation_tokens')) ?? 0;
  const split = objectField(usage, 'cache_creation') ?? objectField(details, 'cache_creation_token_details') ?? {};
  const write1h = Math.min(write, numberField(split, 'ephemeral_1h_input_tokens') ?? 0);
  const input = prompt - read - write >= 0 ? prompt - read - write : Math.max(0, prompt - read);
  const output = firstNumber(numberField(row, 'completion_tokens'), numberField(usage, 'completion_tokens')) ?? 0;
  return { input, cacheRead: read, cacheWrite5m: write - write1h, cacheWrite1h: write1h, output };
}

/** Why a row is no billed prompt ("embedding", "answered from LiteLLM's cache", "failed"), or null when it is one. */
function skipReason(row: JsonObject): string | null {
  const callType = String(row['call_type']);
  if (!LLM_CALL.test(callType)) return callType === '' ? 'no call type' : callType;
  if (String(row['cache_hit']).toLowerCase() === 'true') return "answered from LiteLLM's cache";
  if (String(row['status']).toLowerCase() === 'failure') return 'failed';
  return null;
}

/** The prompt the row kept: the client's body first (it has the tools and options), else the message list. */
function promptOf(row: JsonObject): { prompt: unknown; tools: unknown } {
  const sent = jsonOrSelf(row['proxy_server_request']);
  if (isObject(sent) && (Array.isArray(sent['messages']) || 'input' in sent)) return { prompt: sent, tools: null };
  const parameters = jsonOrSelf(row['model_parameters']);
  return { prompt: row['messages'], tools: isObject(parameters) ? parameters['tools'] : null };
}

function rowRequest(row: JsonObject, line: number, ctx: TranscriptContext): ParsedRequest | string {
  const why = skipReason(row);
  if (why !== null) return why;
  const { prompt, tools } = promptOf(row);
  const model = stringField(row, 'model') ?? stringField(row, 'model_group');
  return loggedCallRequest({ model, prompt, tools, recorded: liteLlmRecorded(row), line, timestamp: toEpochMs(row['startTime']) }, ctx);
}

const LITELLM_ROWS = { rowsOf, isRow: isLiteLlmRow, notARow: 'not a LiteLLM log row: no call_type with request_id and spend (or id and response_cost)', read: rowRequest };

export const liteLlmImporter: TranscriptImporter = rowLogImporter('litellm-log', LITELLM_ROWS, (skipped, requests) => {
  const rows = skipped.total === 1 ? 'row' : 'rows';
  return requests === 0 ? `this LiteLLM log holds no billed LLM call: ${skipped.total} ${rows} (${skipped.byReason})` : `skipped ${skipped.total} LiteLLM ${rows} that sent no billed prompt (${skipped.byReason})`;
});
