// Langfuse observations → one request per GENERATION. Read as Langfuse exports them: the UI's export (a JSON array
// or JSONL of observations), the public API's pages (`{data: [...], meta}` from /api/public/observations) and a
// trace with its observations (`/api/public/traces/{id}`, or `{trace, observations}`). Fields in camelCase as the
// API writes them, snake_case as the ClickHouse columns are named. The prompt is `input` (a message list, a request
// body, or a string), the model `model`, the time `startTime`. Usage: `usageDetails` in Langfuse's convention,
// where each key is priced on its own, so `input` excludes the cached tokens (cache_read_input_tokens,
// input_cached_tokens, input_cache_read; writes as cache_creation_input_tokens, input_cache_creation or Mastra's
// cache_write_input_tokens); the legacy `usage` ({input, output}) and promptTokens / completionTokens when that is
// all there is. Spans, events, tools and other observation types are no LLM call: skipped and counted by type.

import type { ParsedRequest, RecordedUsage } from '../model.ts';
import { isObject, numberField, objectField, stringField, type JsonObject } from '../input/json-value.ts';
import { toEpochMs } from '../input/timestamp.ts';
import { jsonOrSelf, loggedCallRequest, rowLogImporter } from './logged-call.ts';
import type { TranscriptContext, TranscriptImporter } from './types.ts';

/** A field under its API (camelCase) or column (snake_case) name. */
function field(object: JsonObject, camel: string): unknown {
  if (camel in object) return object[camel];
  return object[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

export function isObservation(value: unknown): value is JsonObject {
  return isObject(value) && typeof value['type'] === 'string' && typeof field(value, 'traceId') === 'string' && field(value, 'startTime') !== undefined;
}

/** The observations of one record: one observation, an API page, or a trace holding its observations. */
function observationsOf(value: unknown): unknown[] {
  if (isObservation(value) || !isObject(value)) return [value];
  if (Array.isArray(value['data'])) return value['data'];
  if (Array.isArray(value['observations'])) return value['observations'];
  return [value];
}

function sumOf(details: JsonObject, keys: readonly string[]): number {
  return keys.reduce((sum, key) => sum + (numberField(details, key) ?? 0), 0);
}

const READ_KEYS = ['cache_read_input_tokens', 'input_cached_tokens', 'input_cache_read'] as const;
// cache_write_input_tokens: Mastra's Langfuse exporter (@mastra/langfuse) names its cache writes so.
const WRITE_KEYS = ['cache_creation_input_tokens', 'input_cache_creation', 'cache_write_input_tokens'] as const;

export function observationRecorded(observation: JsonObject): RecordedUsage | null {
  const details = jsonOrSelf(field(observation, 'usageDetails'));
  if (isObject(details) && numberField(details, 'input') !== null) {
    const write1h = numberField(details, 'input_cache_creation_1h') ?? numberField(details, 'ephemeral_1h_input_tokens') ?? 0;
    const write = Math.max(sumOf(details, WRITE_KEYS), write1h);
    return { input: numberField(details, 'input')!, cacheRead: sumOf(details, READ_KEYS), cacheWrite5m: write - write1h, cacheWrite1h: write1h, output: numberField(details, 'output') ?? 0 };
  }
  const usage = objectField(observation, 'usage') ?? {};
  const input = numberField(usage, 'input') ?? numberField(observation, 'promptTokens') ?? numberField(observation, 'prompt_tokens');
  if (input === null) return null;
  const output = numberField(usage, 'output') ?? numberField(observation, 'completionTokens') ?? numberField(observation, 'completion_tokens') ?? 0;
  return { input, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output };
}

function generationRequest(observation: JsonObject, line: number, ctx: TranscriptContext): ParsedRequest | string {
  if (observation['type'] !== 'GENERATION') return String(observation['type']);
  const parameters = jsonOrSelf(field(observation, 'modelParameters'));
  const provided = field(observation, 'providedModelName');
  const model = stringField(observation, 'model') ?? (typeof provided === 'string' ? provided : null);
  const timestamp = toEpochMs(field(observation, 'startTime'));
  return loggedCallRequest({ model, prompt: observation['input'], tools: isObject(parameters) ? parameters['tools'] : null, recorded: observationRecorded(observation), line, timestamp }, ctx);
}

const OBSERVATIONS = { rowsOf: observationsOf, isRow: isObservation, notARow: 'not a Langfuse observation: no type, traceId and startTime', read: generationRequest };

// Spans, events and tools sit beside the generations; only an export of nothing else is worth a word.
export const langfuseImporter: TranscriptImporter = rowLogImporter('langfuse-observations', OBSERVATIONS, (skipped, requests) =>
  requests === 0 ? `this Langfuse export holds no GENERATION (LLM call): ${skipped.byReason}` : null,
);
