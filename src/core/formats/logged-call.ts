// One call as an observability or gateway log keeps it (a LiteLLM spend log row, a Langfuse generation): the model,
// the prompt in whatever shape the logger stored it (a message list, a request body, a string, JSON text of
// either), the tools when kept apart, and the usage the provider reported. Rebuilt into the request body the client
// sent, in the wire format its shape names; a call whose prompt the logger did not keep is a usage-only request.

import type { ParsedRequest, ReadError, RecordedUsage } from '../model.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';
import { detectWireFormat } from './detect.ts';
import { note } from './notes.ts';
import { importRebuilt } from './transcript-requests.ts';
import type { TranscriptContext, TranscriptImporter, TranscriptRecord } from './types.ts';

export interface LoggedCall {
  /** The model the call went to (it replaces an alias the body may name). */
  model: string | null;
  /** The stored prompt: a request body, a message list, a string, or JSON text of one of these. */
  prompt: unknown;
  /** Tool definitions the logger kept beside the prompt, if any. */
  tools: unknown;
  recorded: RecordedUsage | null;
  line: number;
  timestamp: number | null;
}

/** JSON text as its value; any other value as itself. Loggers store JSON columns as text as often as not. */
export function jsonOrSelf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return value;
  }
}

/** The request body a stored prompt stands for, or null when the logger kept none. */
function bodyOf(call: LoggedCall): JsonObject | null {
  const prompt = jsonOrSelf(call.prompt);
  let body: JsonObject | null = null;
  if (Array.isArray(prompt) && prompt.length > 0) body = { messages: prompt };
  else if (typeof prompt === 'string' && prompt !== '') body = { messages: [{ role: 'user', content: prompt }] };
  else if (isObject(prompt) && (Array.isArray(prompt['messages']) || 'input' in prompt)) body = { ...prompt };
  if (body === null) return null;
  // The logged model is the one the call went to; the body may name the gateway's alias for it.
  if (call.model !== null) body['model'] = call.model;
  const tools = jsonOrSelf(call.tools);
  if (Array.isArray(tools) && tools.length > 0 && !('tools' in body)) body['tools'] = tools;
  return body;
}

export function loggedCallRequest(call: LoggedCall, ctx: TranscriptContext): ParsedRequest {
  const body = bodyOf(call);
  if (body === null) {
    const request = importRebuilt({ format: 'openai-chat', body: { model: call.model, messages: [] }, line: call.line, timestamp: call.timestamp, recorded: call.recorded, missing: [] }, ctx);
    request.notes.push(note('usage_only'));
    return request;
  }
  const format = detectWireFormat(body)?.format ?? 'openai-chat';
  return importRebuilt({ format, body, line: call.line, timestamp: call.timestamp, recorded: call.recorded, missing: [] }, ctx);
}

/** A log of one row per call (LiteLLM, Langfuse): how to find its rows and read each. */
export interface RowLog<Row> {
  /** The rows of one parsed record (a row, or a page or trace holding rows). */
  rowsOf(value: unknown): unknown[];
  isRow(value: unknown): value is Row;
  /** The error for a value that is no row, e.g. "not a Langfuse observation: …". */
  notARow: string;
  /** The request a row records, or why it records none (counted by that reason). */
  read(row: Row, line: number, ctx: TranscriptContext): ParsedRequest | string;
}

export interface RowLogRead {
  requests: ParsedRequest[];
  errors: ReadError[];
  /** Rows that record no request, by reason, the most common first: "aembedding 2, failed 1". */
  skipped: { total: number; byReason: string };
}

/**
 * The importer of a row log: claimed by its records (never by name), its rows read with readRowLog, and the rows it
 * skipped told in one error at the file's first line when `skippedNote` has something to say about them.
 */
export function rowLogImporter<Row>(
  id: string,
  log: RowLog<Row>,
  skippedNote: (skipped: RowLogRead['skipped'], requests: number) => string | null,
): TranscriptImporter {
  return {
    id,
    matchesName: () => false,
    matchesRecords: (first) => first.length > 0 && first.every((record) => log.rowsOf(record.value).some(log.isRow)),
    importFile(records, ctx) {
      const { requests, errors, skipped } = readRowLog(log, records, ctx);
      const message = skipped.total > 0 ? skippedNote(skipped, requests.length) : null;
      if (message !== null) errors.push({ file: ctx.file, line: records[0]?.line ?? 1, message });
      return { requests, errors };
    },
  };
}

export function readRowLog<Row>(log: RowLog<Row>, records: readonly TranscriptRecord[], ctx: TranscriptContext): RowLogRead {
  const requests: ParsedRequest[] = [];
  const errors: ReadError[] = [];
  const skipped = new Map<string, number>();
  for (const record of records) {
    for (const row of log.rowsOf(record.value)) {
      const read = log.isRow(row) ? log.read(row, record.line, ctx) : null;
      if (read === null) errors.push({ file: ctx.file, line: record.line, message: log.notARow });
      else if (typeof read === 'string') skipped.set(read, (skipped.get(read) ?? 0) + 1);
      else requests.push(read);
    }
  }
  const byReason = [...skipped].sort((a, b) => b[1] - a[1]).map(([why, n]) => `${why} ${n}`).join(', ');
  return { requests, errors, skipped: { total: [...skipped.values()].reduce((a, b) => a + b, 0), byReason } };
}
