// Replays a parsed pi journal along its context path and extracts only what the clearing model needs:
// pre-turn boundaries with context estimates and cold gaps, requests with observed usage, tool results with their
// reconstructed identity (session, run, call id), and compactions. Any inconsistency throws ReplayError, so the
// caller can discard the whole journal ("a journal contributes only when its whole replay succeeds").

import type { JournalSkipReason } from '../codes.ts';
import { IMAGE_TOKENS, heuristicTokens } from '../thresholds.ts';
import { contextPath, isObject, type Json, type JournalEntry, type ParsedJournal } from './parse.ts';

export class ReplayError extends Error {
  constructor(
    readonly reason: JournalSkipReason,
    readonly line: number | null,
    readonly field: string,
  ) {
    super(`${reason} at line ${line ?? '?'} (${field})`);
  }
}

/** MCP provenance a writer may capture on a tool call as `payload.origin`; pi does not record it natively. */
export interface McpOrigin {
  server: string;
  tool: string;
  serverIdentityDigest: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
}

export type ResultKind = 'plain_text' | 'error' | 'image' | 'opaque_or_mixed' | 'not_completed';

export interface ResultFact {
  pathIndex: number;
  runOrdinal: number;
  /** Entry id of the user message that opened the run; null if the result precedes every prompt. */
  runId: string | null;
  callId: string;
  toolName: string;
  /** API of the assistant message that made the call. */
  api: string | null;
  /** Conversation-wide ordinal of the tool call that produced it (for the latest-starts protection). */
  startOrdinal: number;
  kind: ResultKind;
  /** The single text block of a plain-text result (kept only until sidecar matching). */
  text: string | null;
  /** Heuristic tokens of the result as it sits in context. */
  tokens: number;
  origin: McpOrigin | null;
}

export interface UsageCounts {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface RequestFact {
  pathIndex: number;
  /** The prompt run it belongs to (0 before the first prompt). */
  runOrdinal: number;
  api: string | null;
  /** Observed usage when recorded with a positive total; null means the heuristic fallback prices it. */
  usage: UsageCounts | null;
  /** Heuristic context estimate just before the request (the fallback's uncached prefix). */
  fallbackPrefixTokens: number;
  /** Heuristic tokens of the assistant message itself (the fallback's output). */
  fallbackOutputTokens: number;
}

export interface BoundaryFact {
  /** Identity of the pre-turn point across journals: prompt entry id and its timestamp. */
  key: string;
  pathIndex: number;
  runOrdinal: number;
  runId: string;
  /** API of the first assistant answering this prompt; null when nothing answered (owner missing). */
  api: string | null;
  /** Estimated context tokens of the request this prompt starts. */
  estimate: number;
  /** Milliseconds since the latest preceding assistant message (any branch, failed/aborted included). */
  gapMs: number | null;
  /** Whether the run before this prompt ended with a completed assistant answer (stop or length). */
  previousRunCompleted: boolean;
  /** Tool calls started before this prompt (the latest ten of them stay protected). */
  startsBefore: number;
}

export interface CompactionFact {
  pathIndex: number;
  tokensBefore: number | null;
  summaryTokens: number;
  /** tokensBefore minus the estimated context right after compaction (summary + kept messages). */
  drainTokens: number | null;
}

export interface JournalReplay {
  sessionId: string;
  boundaries: BoundaryFact[];
  results: ResultFact[];
  requests: RequestFact[];
  compactions: CompactionFact[];
  /** For each path index, the first path index still in context there (after the latest compaction). */
  contextStart: Int32Array;
}

function textLength(content: unknown): { chars: number; images: number } {
  if (typeof content === 'string') return { chars: content.length, images: 0 };
  let chars = 0;
  let images = 0;
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') chars += block.text.length;
      else if (block.type === 'thinking' && typeof block.thinking === 'string') chars += block.thinking.length;
      else if (block.type === 'toolCall') {
        chars += (typeof block.name === 'string' ? block.name.length : 0) + JSON.stringify(block.arguments ?? {}).length;
      } else if (block.type === 'image') images++;
    }
  }
  return { chars, images };
}

/** pi's estimate for one context entry: UTF-16 characters / 4 (rounded up), 1,200 tokens per image. */
export function entryTokens(entry: JournalEntry): number {
  const raw = entry.raw;
  let measured = { chars: 0, images: 0 };
  if (entry.type === 'message' && isObject(raw.message)) {
    const message = raw.message;
    switch (message.role) {
      case 'user':
      case 'assistant':
      case 'toolResult':
      case 'custom':
        measured = textLength(message.content);
        break;
      case 'bashExecution':
        if (message.excludeFromContext !== true) {
          measured.chars = String(message.command ?? '').length + String(message.output ?? '').length;
        }
        break;
      case 'branchSummary':
      case 'compactionSummary':
        measured.chars = String(message.summary ?? '').length;
        break;
    }
  } else if (entry.type === 'custom_message') {
    measured = textLength(raw.content);
  } else if (entry.type === 'branch_summary') {
    measured.chars = String(raw.summary ?? '').length;
  }
  return heuristicTokens(measured.chars) + measured.images * IMAGE_TOKENS;
}

function nonNegativeNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Recorded usage with every counter a non-negative number and a positive total, else null. */
export function readUsage(usage: unknown): UsageCounts | null {
  if (!isObject(usage)) return null;
  const input = nonNegativeNumber(usage.input);
  const output = nonNegativeNumber(usage.output);
  const cacheRead = nonNegativeNumber(usage.cacheRead ?? 0);
  const cacheWrite = nonNegativeNumber(usage.cacheWrite ?? 0);
  if (input === null || output === null || cacheRead === null || cacheWrite === null) return null;
  if (input + output + cacheRead + cacheWrite <= 0) return null;
  return { input, cacheRead, cacheWrite, output };
}

/** Message timestamp in ms (pi's numeric `timestamp`), else the entry's ISO timestamp, else null. */
export function entryTime(entry: JournalEntry): number | null {
  const message = entry.raw.message;
  if (isObject(message) && typeof message.timestamp === 'number' && Number.isFinite(message.timestamp)) {
    return message.timestamp;
  }
  if (typeof entry.raw.timestamp === 'string') {
    const parsed = Date.parse(entry.raw.timestamp);
    if (Number.isFinite(parsed)) return parsed;
  }
  return null;
}

function readOrigin(block: Json): McpOrigin | null {
  const payload = block.payload;
  if (!isObject(payload) || !isObject(payload.origin)) return null;
  const origin = payload.origin;
  const annotations = isObject(origin.annotations) ? origin.annotations : {};
  if (
    typeof origin.server !== 'string' ||
    typeof origin.tool !== 'string' ||
    typeof origin.serverIdentityDigest !== 'string'
  ) {
    return null;
  }
  return {
    server: origin.server,
    tool: origin.tool,
    serverIdentityDigest: origin.serverIdentityDigest,
    readOnlyHint: annotations.readOnlyHint === true,
    destructiveHint: annotations.destructiveHint === true,
  };
}

function classifyResult(message: Json): { kind: ResultKind; text: string | null } {
  if (message.isError === true) return { kind: 'error', text: null };
  const content = message.content;
  if (typeof content === 'string') return { kind: 'plain_text', text: content };
  if (!Array.isArray(content)) return { kind: 'opaque_or_mixed', text: null };
  if (content.some((block) => isObject(block) && block.type === 'image')) return { kind: 'image', text: null };
  const only = content[0];
  if (content.length === 1 && isObject(only) && only.type === 'text' && typeof only.text === 'string') {
    return { kind: 'plain_text', text: only.text };
  }
  return { kind: 'opaque_or_mixed', text: null };
}

function role(entry: JournalEntry): string | null {
  return entry.type === 'message' && isObject(entry.raw.message) ? (entry.raw.message.role as string) : null;
}

/**
 * Whether the leaf leaves the journal mid-turn (open) or on a failed answer (interrupted). Entries that are not
 * part of a prompt turn (settings, labels, user shell commands) are looked through.
 */
export function leafState(path: JournalEntry[]): 'closed' | 'open' | 'interrupted' {
  for (let index = path.length - 1; index >= 0; index--) {
    const entry = path[index] as JournalEntry;
    const kind = role(entry);
    if (kind === 'user' || kind === 'toolResult') return 'open';
    if (kind === 'assistant') {
      const stop = (entry.raw.message as Json).stopReason;
      if (stop === 'aborted' || stop === 'error') return 'interrupted';
      if (stop === 'stop' || stop === 'length') return 'closed';
      return 'open';
    }
  }
  return 'closed';
}

interface PendingCall {
  name: string;
  api: string | null;
  startOrdinal: number;
  origin: McpOrigin | null;
}

export function replayJournal(journal: ParsedJournal): JournalReplay {
  const path = contextPath(journal);
  if (path === null) throw new ReplayError('invalid', null, 'parentId_cycle');
  const state = leafState(path);
  if (state !== 'closed') throw new ReplayError(state, path[path.length - 1]?.line ?? null, 'leaf');

  // Every assistant timestamp in the file, any branch: cold gaps count failed and abandoned dispatches too.
  const assistantTimes = journal.entries
    .filter((entry) => role(entry) === 'assistant')
    .map(entryTime)
    .filter((time): time is number => time !== null)
    .sort((a, b) => a - b);
  const replay = new Replay(path, assistantTimes);
  for (let index = 0; index < path.length; index++) replay.step(path[index] as JournalEntry, index);
  const { boundaries, results, requests, compactions, contextStart } = replay;
  return { sessionId: journal.sessionId, boundaries, results, requests, compactions, contextStart };
}

/** The walk along the context path: what is in context at each entry, and the facts gathered so far. */
class Replay {
  readonly contextStart: Int32Array;
  readonly boundaries: BoundaryFact[] = [];
  readonly results: ResultFact[] = [];
  readonly requests: RequestFact[] = [];
  readonly compactions: CompactionFact[] = [];
  private readonly positionOf = new Map<string, number>();
  /** Prefix sums of heuristic tokens over the path, so any context range is summed in O(1). */
  private readonly prefix: Float64Array;

  private start = 0; // first path index in context after the latest compaction
  private compactionIndex = -1;
  private summaryTokens = 0;
  private latestValid: { index: number; total: number } | null = null;
  private runOrdinal = 0;
  private runId: string | null = null;
  private runCompleted = false;
  private startOrdinal = 0;
  private pending = new Map<string, PendingCall>();
  private openBoundary: BoundaryFact | null = null;

  constructor(
    path: readonly JournalEntry[],
    private readonly assistantTimes: readonly number[],
  ) {
    path.forEach((entry, index) => this.positionOf.set(entry.id, index));
    const prefix = new Float64Array(path.length + 1);
    path.forEach((entry, index) => (prefix[index + 1] = (prefix[index] as number) + entryTokens(entry)));
    this.prefix = prefix;
    this.contextStart = new Int32Array(path.length);
  }

  step(entry: JournalEntry, index: number): void {
    this.contextStart[index] = this.start;
    if (entry.type === 'compaction') return this.compaction(entry, index);
    const kind = role(entry);
    const message = entry.raw.message as Json;
    if (kind === 'user') this.user(entry, index);
    else if (kind === 'assistant') this.assistant(entry, index, message);
    else if (kind === 'toolResult') this.toolResult(entry, index, message);
  }

  private rangeTokens(from: number, toInclusive: number): number {
    return toInclusive < from ? 0 : (this.prefix[toInclusive + 1] as number) - (this.prefix[from] as number);
  }

  /** Context estimate for what is sent right after path index `upTo` (inclusive). */
  private estimateThrough(upTo: number): number {
    if (this.latestValid !== null) return this.latestValid.total + this.rangeTokens(this.latestValid.index + 1, upTo);
    return this.summaryTokens + this.rangeTokens(this.start, upTo);
  }

  private compaction(entry: JournalEntry, index: number): void {
    const kept = this.positionOf.get(entry.raw.firstKeptEntryId as string);
    if (kept === undefined || kept >= index) throw new ReplayError('invalid', entry.line, 'firstKeptEntryId');
    this.start = kept;
    this.compactionIndex = index;
    this.summaryTokens = heuristicTokens((entry.raw.summary as string).length);
    this.latestValid = null; // usage recorded before a compaction does not describe the compacted context
    const tokensBefore = nonNegativeNumber(entry.raw.tokensBefore);
    this.compactions.push({
      pathIndex: index,
      tokensBefore,
      summaryTokens: this.summaryTokens,
      drainTokens: tokensBefore === null ? null : tokensBefore - this.estimateThrough(index),
    });
  }

  private user(entry: JournalEntry, index: number): void {
    this.runOrdinal++;
    const previousRunCompleted = this.runCompleted;
    this.runId = entry.id;
    this.runCompleted = false;
    this.pending = new Map();
    const time = entryTime(entry);
    let gapMs: number | null = null;
    if (time !== null) {
      const before = latestBelow(this.assistantTimes, time);
      if (before !== null) gapMs = time - before;
    }
    this.openBoundary = {
      key: `${entry.id}@${time ?? 'none'}`,
      pathIndex: index,
      runOrdinal: this.runOrdinal,
      runId: entry.id,
      api: null,
      estimate: this.estimateThrough(index),
      gapMs,
      previousRunCompleted,
      startsBefore: this.startOrdinal,
    };
    this.boundaries.push(this.openBoundary);
  }

  private assistant(entry: JournalEntry, index: number, message: Json): void {
    const usage = readUsage(message.usage);
    const api = typeof message.api === 'string' ? message.api : null;
    this.requests.push({
      pathIndex: index,
      runOrdinal: this.runOrdinal,
      api,
      usage,
      fallbackPrefixTokens: this.estimateThrough(index - 1),
      fallbackOutputTokens: entryTokens(entry),
    });
    if (this.openBoundary !== null && this.openBoundary.api === null) this.openBoundary.api = api;
    const stop = message.stopReason;
    if (usage !== null && stop !== 'aborted' && stop !== 'error' && index > this.compactionIndex) {
      this.latestValid = { index, total: usage.input + usage.cacheRead + usage.cacheWrite + usage.output };
    }
    this.runCompleted = stop === 'stop' || stop === 'length';
    // A new assistant message closes the placement window of earlier calls.
    this.pending = new Map();
    if (!Array.isArray(message.content)) return;
    for (const block of message.content) {
      if (!isObject(block) || block.type !== 'toolCall') continue;
      if (typeof block.id !== 'string' || typeof block.name !== 'string') {
        throw new ReplayError('invalid', entry.line, 'toolCall');
      }
      this.startOrdinal++;
      this.pending.set(block.id, { name: block.name, api, startOrdinal: this.startOrdinal, origin: readOrigin(block) });
    }
  }

  private toolResult(entry: JournalEntry, index: number, message: Json): void {
    if (typeof message.toolCallId !== 'string') throw new ReplayError('invalid', entry.line, 'toolCallId');
    const call = this.pending.get(message.toolCallId);
    const classified = classifyResult(message);
    const placed = call !== undefined;
    if (placed) this.pending.delete(message.toolCallId);
    this.results.push({
      pathIndex: index,
      runOrdinal: this.runOrdinal,
      runId: this.runId,
      callId: message.toolCallId,
      toolName: call?.name ?? (typeof message.toolName === 'string' ? message.toolName : ''),
      api: call?.api ?? null,
      startOrdinal: call?.startOrdinal ?? 0,
      kind: placed ? classified.kind : 'not_completed',
      text: placed && classified.kind === 'plain_text' ? classified.text : null,
      tokens: entryTokens(entry),
      origin: call?.origin ?? null,
    });
  }
}

/** Largest value strictly below `time` in an ascending array, or null. */
function latestBelow(sorted: readonly number[], time: number): number | null {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as number) < time) low = mid + 1;
    else high = mid;
  }
  return low === 0 ? null : (sorted[low - 1] as number);
}
