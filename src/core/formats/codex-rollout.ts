// OpenAI Codex CLI rollouts (`rollout-<timestamp>-<uuid>.jsonl`) → the Responses API requests the agent sent.
// Every line is `{timestamp, type, payload}`. `response_item` lines are the conversation history in Responses item
// form; the model's outputs of one API call (reasoning, assistant message, tool calls) are followed by an
// `event_msg` `token_count` whose `info.total_token_usage` is a running total. The same snapshot is often written
// twice in a row: only a CHANGED running total marks a completed call, and that call's own usage is the difference
// from the previous total (`last_token_usage` when present agrees with it; a total below the one before means the
// count started again, and the call's own usage is then `last_token_usage`). The request of a call is the history
// as it stood before the call's first output item. `compacted` replaces the history. A fork
// (`session_meta.forked_from_id`) copies its parent's lines, token counts included, in one burst after its own
// meta: those are the parent's calls, kept as history and not made requests of the fork. Items Codex never sends
// (`ghost_snapshot`) are left out. Tool definitions are not
// recorded, so each request says so. The system prompt is `session_meta.payload.base_instructions` (codex-rs
// `SessionMeta.base_instructions: Option<BaseInstructions { text }>`, a plain string in some builds); rollouts
// written before it existed lack it, and their requests say so too, so the setup inference covers it.
//
// Rollouts of Codex CLI before the `{timestamp, type, payload}` lines (mid 2025, into 0.3x) are read too: line 1 is
// a bare header `{id, timestamp, instructions, git?, cwd?}`, then `{"record_type":"state"}` markers and bare
// Responses items with no time of their own. They record no usage and no send time: a call is a run of output
// items, its request the history before the run; the simulation stands in for the usage, and the time is unknown.

import type { ParsedRequest, ReadError, RecordedUsage } from '../model.ts';
import { isObject, numberField, objectField, stringField, type JsonObject } from '../input/json-value.ts';
import { toEpochMs } from '../input/timestamp.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';
import { importRebuilt } from './transcript-requests.ts';

/** Items the model produces in a call; everything else in the history is input to the next call. */
const OUTPUT_ITEM_TYPES = new Set(['reasoning', 'function_call', 'custom_tool_call', 'web_search_call', 'local_shell_call', 'shell_call', 'apply_patch_call', 'image_generation_call', 'tool_search_call']);

/**
 * Items a rollout records that Codex never sends (codex-rs `is_api_message`): its undo snapshots
 * (`ghost_snapshot`, 0.4x–0.5x), the request control `compaction_trigger`, and system-role messages.
 */
function isSentItem(item: JsonObject): boolean {
  const type = stringField(item, 'type');
  if (type === 'ghost_snapshot' || type === 'compaction_trigger') return false;
  return !(type === 'message' && stringField(item, 'role') === 'system');
}

function isOutputItem(item: JsonObject): boolean {
  const type = stringField(item, 'type');
  if (type === 'message') return stringField(item, 'role') === 'assistant';
  return type !== null && OUTPUT_ITEM_TYPES.has(type);
}

interface Totals {
  input: number;
  cached: number;
  output: number;
}

function readTotals(usage: JsonObject | null): Totals | null {
  if (usage === null) return null;
  const input = numberField(usage, 'input_tokens');
  if (input === null) return null;
  return { input, cached: numberField(usage, 'cached_input_tokens') ?? 0, output: numberField(usage, 'output_tokens') ?? 0 };
}

/** A running total below the one before it: the count restarted (a resume that did not carry the usage over). */
const restarted = (current: Totals, previous: Totals | null) =>
  previous !== null && (current.input < previous.input || current.cached < previous.cached || current.output < previous.output);

/** One call's usage in Anthropic's sense (input excludes cached tokens), from two running totals. */
function callUsage(current: Totals, previous: Totals | null): RecordedUsage {
  const input = current.input - (previous?.input ?? 0);
  const cached = current.cached - (previous?.cached ?? 0);
  return { input: Math.max(0, input - cached), cacheRead: Math.max(0, cached), cacheWrite5m: 0, cacheWrite1h: 0, output: current.output - (previous?.output ?? 0) };
}

const sameTotals = (a: Totals, b: Totals | null) => b !== null && a.input === b.input && a.cached === b.cached && a.output === b.output;

export const codexRolloutImporter: TranscriptImporter = {
  id: 'codex-rollout',
  recordsCompactions: true,
  matchesName: (fileName) => /(^|[\\/])rollout-[^\\/]*\.jsonl(\.gz)?$/i.test(fileName),
  matchesRecords: (first) =>
    (first.length > 0 &&
      first.every((r) => isObject(r.value) && typeof r.value['type'] === 'string' && isObject(r.value['payload'])) &&
      first.some((r) => isObject(r.value) && (r.value['type'] === 'session_meta' || r.value['type'] === 'response_item'))) ||
    (first.length > 1 && isLegacyHeader(first[0]!.value) && first.slice(1).every((r) => isStateMarker(r.value) || isBareItem(r.value))),
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport {
    const state = newRollout(ctx);
    if (records.length > 0 && isLegacyHeader(records[0]!.value)) return readLegacy(state, records);
    for (const { line, value } of records) {
      if (!isObject(value)) continue;
      const payload = objectField(value, 'payload');
      const at = toEpochMs(value['timestamp']);
      if (payload === null) {
        state.errors.push({ file: ctx.file, line, message: 'rollout line has no "payload" object' });
        continue;
      }
      const type = value['type'];
      if (typeof type === 'string') LINE_READERS.get(type)?.(state, payload, at, line);
    }
    return { requests: state.requests, errors: state.errors };
  },
};

function newRollout(ctx: TranscriptContext): Rollout {
  return { ctx, errors: [], requests: [], instructions: null, model: null, history: [], callStart: null, sentAt: null, lastInputAt: null, previous: null, compacted: false, metaSeen: false, replayUntil: null };
}

/** Line 1 of a rollout written before `session_meta`: `{id, timestamp, instructions, …}`, no type, no payload. */
function isLegacyHeader(value: unknown): value is JsonObject {
  return isObject(value) && typeof value['id'] === 'string' && typeof value['timestamp'] === 'string' && !('type' in value) && !('payload' in value) && !('record_type' in value);
}

const isStateMarker = (value: unknown) => isObject(value) && typeof value['record_type'] === 'string';
const isBareItem = (value: unknown): value is JsonObject => isObject(value) && typeof value['type'] === 'string' && !('payload' in value);

/**
 * A rollout of before `session_meta`: each run of output items is one call, made with the history before it. Its
 * header's `instructions` are the user's own, not the system prompt the agent sent, so the system prompt is
 * missing as for the later rollouts that record none.
 */
function readLegacy(state: Rollout, records: readonly TranscriptRecord[]): TranscriptImport {
  state.model = stringField(records[0]!.value as JsonObject, 'model');
  let callLine = 0;
  const endCall = () => {
    if (state.callStart === null) return;
    const body: JsonObject = { model: state.model, input: state.history.slice(0, state.callStart) };
    state.requests.push(importRebuilt({ format: 'openai-responses', body, line: callLine, timestamp: null, recorded: null, missing: ['transcript_missing_system', 'transcript_missing_tools'] }, state.ctx));
    state.callStart = null;
  };
  for (const { line, value } of records.slice(1)) {
    if (isStateMarker(value)) continue;
    if (!isBareItem(value)) {
      state.errors.push({ file: state.ctx.file, line, message: 'rollout line (of the format before session_meta) is neither a response item nor a state marker' });
      continue;
    }
    if (!isSentItem(value)) continue;
    if (!isOutputItem(value)) endCall();
    else if (state.callStart === null) {
      state.callStart = state.history.length;
      callLine = line;
    }
    state.history.push(value);
  }
  endCall();
  return { requests: state.requests, errors: state.errors };
}

/** What a rollout's lines have told so far. */
interface Rollout {
  readonly ctx: TranscriptContext;
  readonly errors: ReadError[];
  readonly requests: ParsedRequest[];
  instructions: string | null;
  model: string | null;
  history: JsonObject[];
  /** History length when the current call's first output item arrived, or null between calls. */
  callStart: number | null;
  sentAt: number | null;
  lastInputAt: number | null;
  previous: Totals | null;
  /** A `compacted` line since the call before: the next call carries the record. */
  compacted: boolean;
  /** The file's first `session_meta` was read (a later one is copied history of a fork or a resume). */
  metaSeen: boolean;
  /**
   * In a fork (`session_meta.forked_from_id`): until when a token count is still the parent's, copied into this
   * file when it was forked; null once the fork's own calls begin, or in a file that is no fork.
   */
  replayUntil: number | null;
}

/**
 * How long after the fork (or the replayed token count before) a token count is still part of the copied history.
 * Codex writes the parent's items in one burst at the fork (their times rewritten to it, or kept from the parent,
 * which is earlier); the fork's own first call ends a model response later.
 */
const REPLAY_GAP_MS = 1000;

/** Reads one line of a type (its payload, its time, its line number). */
type LineReader = (state: Rollout, payload: JsonObject, at: number | null, line: number) => void;

const LINE_READERS = new Map<string, LineReader>([
  ['session_meta', (state, payload, at) => {
    // A forked rollout opens with its own meta naming the parent, then copies the parent's lines (their token
    // counts too): the parent's calls, which its own file records.
    if (!state.metaSeen && typeof payload['forked_from_id'] === 'string' && at !== null) state.replayUntil = at + REPLAY_GAP_MS;
    state.metaSeen = true;
    // A resumed or forked rollout may repeat its origin's meta: the first one recording instructions holds.
    const base = payload['base_instructions'];
    state.instructions ??= typeof base === 'string' ? base : isObject(base) ? stringField(base, 'text') : null;
  }],
  ['turn_context', (state, payload, at) => {
    state.model = stringField(payload, 'model') ?? state.model;
    state.lastInputAt = at ?? state.lastInputAt;
  }],
  ['response_item', (state, payload, at) => {
    if (!isSentItem(payload)) return;
    if (isOutputItem(payload)) {
      if (state.callStart === null) {
        state.callStart = state.history.length;
        state.sentAt = state.lastInputAt;
      }
    } else state.lastInputAt = at ?? state.lastInputAt;
    state.history.push(payload);
  }],
  ['compacted', (state, payload) => {
    const replacement = payload['replacement_history'];
    state.history = Array.isArray(replacement)
      ? replacement.filter(isObject)
      : [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: stringField(payload, 'message') ?? '' }] }];
    state.callStart = null;
    state.compacted = true;
  }],
  ['event_msg', readTokenCount],
]);

/**
 * Whether an earlier file of the read or folder counted this call already. A rollout records no id per call; the
 * time of its token count and the running totals it reached name it (two calls of one session never share both),
 * so a copy of the file (`archived_sessions/`, a backup beside the original) is counted once, as a copied Claude
 * Code session is.
 */
function copiedCall(ctx: TranscriptContext, at: number | null, totals: Totals): boolean {
  if (at === null || ctx.seenCalls === undefined) return false;
  return !ctx.seenCalls.claim(`codex-rollout\u0000${at}`, `${totals.input}\u0000${totals.cached}\u0000${totals.output}`, ctx.file);
}

/** A changed running total marks a completed call: its request is the history before the call's first output. */
function readTokenCount(state: Rollout, payload: JsonObject, at: number | null, line: number): void {
  if (payload['type'] !== 'token_count') return;
  const info = objectField(payload, 'info');
  const totals = readTotals(info ? objectField(info, 'total_token_usage') : null);
  if (totals === null || sameTotals(totals, state.previous)) return;
  const replayed = state.replayUntil !== null && at !== null && at <= state.replayUntil;
  // Copied lines keep the parent's (earlier) times in some versions: the end of the burst never moves back.
  state.replayUntil = replayed ? Math.max(state.replayUntil ?? at, at + REPLAY_GAP_MS) : null;
  if (replayed || copiedCall(state.ctx, at, totals)) {
    // The parent's call copied into a fork, or counted from an earlier file (a copy of this rollout, in another
    // folder or archived): its history is kept, its request is not made again.
    state.previous = totals;
    state.compacted = false;
    state.callStart = null;
    state.sentAt = null;
    return;
  }
  // A total below the one before: the count started again. The call's own usage is `last_token_usage`, else the
  // total itself.
  const last = restarted(totals, state.previous) ? (readTotals(info ? objectField(info, 'last_token_usage') : null) ?? totals) : null;
  const { instructions, history } = state;
  const input = history.slice(0, state.callStart ?? history.length);
  const body: JsonObject = { model: state.model, input };
  if (instructions !== null) body['instructions'] = instructions;
  state.requests.push(
    importRebuilt(
      {
        format: 'openai-responses',
        body,
        line,
        timestamp: state.sentAt ?? state.lastInputAt,
        recorded: last !== null ? callUsage(last, null) : callUsage(totals, state.previous),
        missing: instructions === null ? ['transcript_missing_system', 'transcript_missing_tools'] : ['transcript_missing_tools'],
        compacted: state.compacted,
      },
      state.ctx,
    ),
  );
  state.previous = totals;
  state.compacted = false;
  state.callStart = null;
  state.sentAt = null;
}
