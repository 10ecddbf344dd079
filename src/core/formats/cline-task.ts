// Cline, Roo Code and Kilo Code task folders (…/tasks/<task id>/: api_conversation_history.json,
// ui_messages.json, task_metadata.json) → the Anthropic Messages requests the agent sent. The API history is the
// conversation as the agent keeps it (Anthropic MessageParams, with the agent's own keys beside role/content); the
// UI log has one `say: "api_req_started"` entry per API request, whose `text` JSON records
// tokensIn/tokensOut/cacheWrites/cacheReads/cost. Each such entry is one request. Which history it sent: Cline
// stamps `conversationHistoryIndex` (the last history index before the request's user message, so the request is
// history[0 … index + 1]) and the truncation range in force (`conversationHistoryDeletedRange` [start, end],
// removed inclusive); Roo and Kilo stamp neither, and their history messages carry `ts`: the request is the history
// before the first assistant message written after it. tokensIn excludes cache tokens (Cline's usage chunks are
// non-overlapping; Roo's `apiProtocol: "openai"` entries include them and are converted). Roo condenses and
// truncates without deleting: a summary (`isSummary`, `condenseId`) or truncation marker (`isTruncationMarker`,
// `truncationId`) is written, and the messages it replaced are tagged `condenseParent` / `truncationParent`; they
// left the requests sent after the marker, not the ones before. The system prompt and the tool definitions are not
// recorded: each request says so.
//
// The two files are read one after the other: the first is held (in the read's `companions`) until its partner in
// the same folder arrives, and the requests are built then; a part whose partner never comes is reported at the end.

import type { ParsedRequest, ReadError, RecordedUsage } from '../model.ts';
import { isObject, numberField, stringField, type JsonObject } from '../input/json-value.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';
import { importRebuilt } from './transcript-requests.ts';
import { note } from './notes.ts';

const HISTORY = 'api_conversation_history.json';
const UI = 'ui_messages.json';
const METADATA = 'task_metadata.json';

type Part = 'history' | 'ui';

interface HeldPart {
  part: Part;
  file: number;
  fileName: string;
  records: readonly TranscriptRecord[];
}

function split(fileName: string): { folder: string; base: string } {
  const at = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
  return { folder: at < 0 ? '' : fileName.slice(0, at), base: (at < 0 ? fileName : fileName.slice(at + 1)).toLowerCase() };
}

function partOf(fileName: string): Part | 'metadata' | null {
  const { base } = split(fileName);
  if (base === HISTORY) return 'history';
  if (base === UI) return 'ui';
  if (base === METADATA) return 'metadata';
  return null;
}

const heldKey = (folder: string) => `cline-task:${folder}`;

export const clineTaskImporter: TranscriptImporter = {
  id: 'cline-task',
  matchesName: (fileName) => partOf(fileName) !== null,
  // Only by name: the files' own shapes (plain arrays of messages) say too little on their own.
  matchesRecords: () => false,
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport {
    const part = partOf(ctx.fileName);
    // task_metadata.json (files in context, model usage, environment) holds no request.
    if (part === 'metadata' || part === null) return { requests: [], errors: [] };
    const companions = ctx.companions;
    const { folder } = split(ctx.fileName);
    const mine: HeldPart = { part, file: ctx.file, fileName: ctx.fileName, records };
    const held = companions?.get(heldKey(folder)) as HeldPart | undefined;
    if (part === 'ui' && held === undefined && !historyInRead(folder, ctx.readFiles)) return usageOnly(mine, ctx);
    if (held === undefined || held.part === part) {
      companions?.set(heldKey(folder), mine);
      if (companions === undefined) return { requests: [], errors: [missingPartner(mine)] };
      return { requests: [], errors: [] };
    }
    companions?.delete(heldKey(folder));
    const history = part === 'history' ? mine : held;
    const ui = part === 'ui' ? mine : held;
    return buildRequests(history, ui, ctx);
  },
  finishRead(companions) {
    const errors: ReadError[] = [];
    for (const [key, value] of companions) {
      if (!key.startsWith('cline-task:')) continue;
      errors.push(missingPartner(value as HeldPart));
      companions.delete(key);
    }
    return errors;
  },
};

/** Whether the read holds the task's history file (it may come after the UI log). Unknown (no list): assume so. */
function historyInRead(folder: string, readFiles: readonly string[] | undefined): boolean {
  if (readFiles === undefined) return true;
  return readFiles.some((name) => {
    const other = split(name);
    return other.folder === folder && other.base === HISTORY;
  });
}

/**
 * A UI log read without its history: a usage-only log. Each api_req_started is still one recorded call, with its
 * usage and time but no body (`usage_only`), so the figures it records (calls, tokens, cost, hit rate) are shown.
 */
function usageOnly(ui: HeldPart, ctx: TranscriptContext): TranscriptImport {
  const result = buildRequests({ part: 'history', file: ui.file, fileName: ui.fileName, records: [] }, ui, ctx);
  for (const request of result.requests) request.notes.push(note('usage_only'));
  return result;
}

function missingPartner(held: HeldPart): ReadError {
  const wanted = held.part === 'history' ? UI : HISTORY;
  return {
    file: held.file,
    line: 0,
    message: `a Cline/Roo/Kilo task file without its ${wanted} beside it: the requests are rebuilt from both (give the task folder)`,
  };
}

interface ApiRequestEntry {
  line: number;
  ts: number | null;
  info: JsonObject;
  historyIndex: number | null;
  deletedRange: [number, number] | null;
  model: string | null;
}

function rangeOf(value: unknown): [number, number] | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [start, end] = value as unknown[];
  return typeof start === 'number' && typeof end === 'number' && start >= 0 && end >= start ? [start, end] : null;
}

/**
 * The requests of a task, and its errors, belong to the part read second (`ctx.file`, so its file summary counts
 * them); each error names the part it is in.
 */
function buildRequests(historyPart: HeldPart, uiPart: HeldPart, ctx: TranscriptContext): TranscriptImport {
  const errors: ReadError[] = [];
  const history: JsonObject[] = [];
  for (const { line, value } of historyPart.records) {
    if (isObject(value) && (value['role'] === 'user' || value['role'] === 'assistant')) history.push(value);
    else errors.push({ file: ctx.file, line, message: `${HISTORY} record ${line} is not a user or assistant message` });
  }
  const entries: ApiRequestEntry[] = [];
  let latest: ApiRequestEntry | null = null;
  let rangeInForce: [number, number] | null = null;
  for (const { line, value } of uiPart.records) {
    if (!isObject(value)) continue;
    // Cline stamps the truncation range in force on every entry; it changes while a request is set up, after its
    // api_req_started, so the last stamp before the next request is the one that request was sent with.
    if ('conversationHistoryDeletedRange' in value) {
      rangeInForce = rangeOf(value['conversationHistoryDeletedRange']);
      if (latest !== null) latest.deletedRange = rangeInForce;
    }
    if (value['say'] !== 'api_req_started') continue;
    let info: unknown;
    try {
      info = JSON.parse(stringField(value, 'text') ?? '');
    } catch {
      info = undefined;
    }
    if (!isObject(info)) {
      errors.push({ file: ctx.file, line, message: `${UI} record ${line}: api_req_started whose "text" is not a JSON object` });
      continue;
    }
    const modelInfo = value['modelInfo'];
    const entry: ApiRequestEntry = {
      line,
      ts: numberField(value, 'ts'),
      info,
      historyIndex: numberField(value, 'conversationHistoryIndex'),
      deletedRange: rangeInForce,
      model: isObject(modelInfo) ? stringField(modelInfo, 'modelId') : null,
    };
    entries.push(entry);
    latest = entry;
  }

  const markers = markerTimes(history);
  const requests: ParsedRequest[] = [];
  let assistantSeen = 0;
  for (const entry of entries) {
    const end = entry.historyIndex !== null ? Math.min(history.length, entry.historyIndex + 2) : endByTime(history, entry, assistantSeen);
    if (entry.historyIndex === null) assistantSeen = countAssistants(history, end) + 1;
    let sent = history.slice(0, Math.max(0, end));
    if (markers.size > 0) sent = sent.filter((m) => !hiddenAt(m, markers, entry.ts));
    if (entry.deletedRange !== null) {
      const [start, stop] = entry.deletedRange;
      sent = [...sent.slice(0, start), ...sent.slice(stop + 1)];
    }
    const model = entry.model ?? modelAfter(history, end);
    requests.push(
      importRebuilt(
        {
          format: 'anthropic-messages',
          body: { model, messages: sent.map((m) => ({ role: m['role'], content: m['content'] })) },
          line: entry.line,
          timestamp: entry.ts,
          recorded: clineRecorded(entry.info),
          missing: ['transcript_missing_system', 'transcript_missing_tools'],
        },
        ctx,
      ),
    );
  }
  return { requests, errors };
}

/**
 * Roo/Kilo: the history before the first assistant message written after the request started (by `ts`), else —
 * no timestamps — before the next assistant message not yet answered by an earlier request.
 */
function endByTime(history: readonly JsonObject[], entry: ApiRequestEntry, assistantSeen: number): number {
  let assistants = 0;
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    if (message['role'] !== 'assistant') continue;
    const ts = numberField(message, 'ts');
    if (entry.ts !== null && ts !== null ? ts >= entry.ts : assistants >= assistantSeen) return i;
    assistants++;
  }
  return history.length;
}

function countAssistants(history: readonly JsonObject[], end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) if (history[i]!['role'] === 'assistant') count++;
  return count;
}

/** Roo's condense summaries and truncation markers: their id → when they were written. */
function markerTimes(history: readonly JsonObject[]): Map<string, number> {
  const times = new Map<string, number>();
  for (const message of history) {
    const id = stringField(message, 'condenseId') ?? stringField(message, 'truncationId');
    const ts = numberField(message, 'ts');
    if (id !== null && ts !== null && (message['isSummary'] === true || message['isTruncationMarker'] === true)) times.set(id, ts);
  }
  return times;
}

/** A message a marker written before the request replaced (Roo keeps it in the file, tagged with the marker's id). */
function hiddenAt(message: JsonObject, markers: Map<string, number>, requestTs: number | null): boolean {
  for (const key of ['condenseParent', 'truncationParent']) {
    const parent = stringField(message, key);
    const at = parent === null ? undefined : markers.get(parent);
    if (at !== undefined && (requestTs === null || at <= requestTs)) return true;
  }
  return false;
}

/** The model of the answer (Cline writes `modelInfo` on assistant history messages). */
function modelAfter(history: readonly JsonObject[], end: number): string | null {
  const answer = history[end];
  const info = answer?.['modelInfo'];
  return isObject(info) ? stringField(info, 'modelId') : null;
}

/** The usage an api_req_started entry records, in Anthropic's sense; null when it records none (a failed call). */
export function clineRecorded(info: JsonObject): RecordedUsage | null {
  const tokensIn = numberField(info, 'tokensIn');
  const tokensOut = numberField(info, 'tokensOut');
  if (tokensIn === null && tokensOut === null) return null;
  const cacheRead = numberField(info, 'cacheReads') ?? 0;
  const cacheWrite = numberField(info, 'cacheWrites') ?? 0;
  // Roo Code: on the OpenAI protocol tokensIn already includes the cached tokens.
  const inclusive = info['apiProtocol'] === 'openai';
  const input = inclusive ? Math.max(0, (tokensIn ?? 0) - cacheRead - cacheWrite) : (tokensIn ?? 0);
  return { input, cacheRead, cacheWrite5m: cacheWrite, cacheWrite1h: 0, output: tokensOut ?? 0 };
}
