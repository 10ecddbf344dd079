// A folder of sessions read one session at a time (`ctxray analyze <folder>`): each session's analysis is folded
// into small sums here and then dropped, so memory is bounded by the largest session, not by the folder. Kept: each
// file's record entry, each session's row with its per-day figures (src/core/transcripts/sessions.ts), totals by
// model, token category and miss cause, cost totals, the time-range summary's sums with its costliest
// conversations, finding counts by code, and unreadable records. Per-request rows are not kept: a session's full
// record is that of its own file (docs/transcripts.md, "A folder in bounded memory").
import type { DroppedCalls } from '../input/seen-calls.ts';
import type { ReadError } from '../model.ts';
import type { MissCause } from '../cache/misses.ts';
import type { FindingCode, Severity } from '../cache/findings.ts';
import { costTotalsRecord, type CostTotalsRecord } from '../cache/record.ts';
import { fileRecord, type FileRecord } from '../analysis/record.ts';
import type { Analysis, ModelUse, TokenTotals } from '../analysis/types.ts';
import { emptyTotals } from '../analysis/totals.ts';
import { sessionPartsOf, summaryOf } from '../transcripts/index.ts';
import type { SessionPart } from '../transcripts/sessions.ts';
import { SUMMARY_TOP, type ConversationTotals, type FindingTotals, type SummaryTotals, type TimeRangeSummary } from '../transcripts/summary.ts';
import { addFields } from '../sums.ts';

export interface MissCauseTotals {
  cause: MissCause;
  count: number;
  tokens: number;
  cost: number;
}

/** Findings of one code over the folder (per session, its located problems; requests are each session's own). */
export interface FindingCount {
  code: FindingCode;
  severity: Severity;
  findings: number;
  requests: number;
  /** The fix of its first finding (the terminal's one-screen answer shows it). */
  fix: string;
}

export interface FolderAnalysis {
  generatedBy: string;
  pricedOn: string;
  /** Record entries of every file read, in the order read (a session's files together), indices folder-wide. */
  files: FileRecord[];
  /** Names of those files, for messages (never written to the record). */
  fileNames: string[];
  /** Groups of files analysed one at a time (a session with its subagents, a task's two parts, any other file). */
  analyses: number;
  /** Of those, the ones whose Claude estimates were rescaled on their own recorded usage. */
  calibrated: number;
  requests: number;
  models: ModelUse[];
  totals: TokenTotals;
  /** Null until a session with a cache analysis was added. */
  cost: CostTotalsRecord | null;
  misses: MissCauseTotals[];
  summary: TimeRangeSummary | null;
  parts: SessionPart[];
  /** Unreadable records, `file` folder-wide. */
  errors: ReadError[];
  findings: FindingCount[];
  /** Conversations of the sessions added so far (the summary numbers them folder-wide). */
  conversations: number;
  /** Calls dropped as copies of calls an earlier session's file recorded, `file` folder-wide. */
  duplicateCalls: DroppedCalls[];
}

export function emptyFolder(generatedBy: string, pricedOn: string): FolderAnalysis {
  return {
    generatedBy,
    pricedOn,
    files: [],
    fileNames: [],
    analyses: 0,
    calibrated: 0,
    requests: 0,
    models: [],
    totals: emptyTotals(),
    cost: null,
    misses: [],
    summary: null,
    parts: [],
    errors: [],
    findings: [],
    conversations: 0,
    duplicateCalls: [],
  };
}

function addTokenTotals(into: TokenTotals, from: TokenTotals): void {
  into.requests += from.requests;
  into.tokens += from.tokens;
  into.exactRequests += from.exactRequests;
  into.overhead += from.overhead;
  for (const [category, value] of Object.entries(from.byCategory) as [keyof TokenTotals['byCategory'], number][]) {
    into.byCategory[category] = (into.byCategory[category] ?? 0) + value;
  }
}

function addCost(into: CostTotalsRecord | null, from: CostTotalsRecord): CostTotalsRecord {
  if (into === null) return { ...from, projection: { ...from.projection }, basis: { ...from.basis }, simulated: { ...from.simulated } };
  into.actual += from.actual;
  into.optimized += from.optimized;
  into.potentialSavings += from.potentialSavings;
  into.savingsFraction = into.actual > 0 ? into.potentialSavings / into.actual : 0;
  into.unpricedRequests += from.unpricedRequests;
  into.projection.actual += from.projection.actual;
  into.projection.optimized += from.projection.optimized;
  into.projection.savings += from.projection.savings;
  into.assumedWithinTtl ||= from.assumedWithinTtl;
  into.basis.recordedRequests += from.basis.recordedRequests;
  into.basis.simulatedRequests += from.basis.simulatedRequests;
  into.simulated.asSent += from.simulated.asSent;
  into.simulated.optimized += from.simulated.optimized;
  return into;
}

const SUMMARY_COUNTS = ['requests', 'recordedRequests', 'promptTokens', 'cacheRead', 'cacheWrite', 'output', 'cost', 'unpricedRequests'] as const;

function addSummaryTotals(into: SummaryTotals, from: SummaryTotals): void {
  addFields(into, from, SUMMARY_COUNTS);
}

const byCostDescending = <T extends { cost: number }>(a: T, b: T): number => b.cost - a.cost;
const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Date.parse(a) <= Date.parse(b) ? a : b);
const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Date.parse(a) >= Date.parse(b) ? a : b);

/** `add` keyed rows of `from` into `into` (matched by `key`), appending keys it has not seen. */
export function mergeRows<T>(into: T[], from: readonly T[], rules: { key: (row: T) => unknown; add: (into: T, from: T) => void; copy: (row: T) => T }): void {
  const { key, add, copy } = rules;
  for (const row of from) {
    const k = key(row);
    const target = into.find((candidate) => key(candidate) === k);
    if (target === undefined) into.push(copy(row));
    else add(target, row);
  }
}

/**
 * The summary of a folder from each session's: sums per day, model and finding code; the costliest conversations
 * of all (each session keeps every code and its costliest conversations, which hold the folder's). Conversation
 * numbers and file indices are made folder-wide.
 */
/** A session's model rows summed into the folder's, by model id, first seen first. */
export function addModelUse(into: ModelUse[], from: readonly ModelUse[]): void {
  mergeRows(into, from, { key: (m) => m.id, add: (a, b) => {
      a.requests += b.requests;
      if (b.fastRequests !== undefined) a.fastRequests = (a.fastRequests ?? 0) + b.fastRequests;
    }, copy: (m) => ({ ...m }) });
}

function addSummary(into: TimeRangeSummary | null, from: TimeRangeSummary, fileOffset: number, conversationOffset: number): TimeRangeSummary {
  const conversations = from.topConversations.map((c): ConversationTotals => ({ ...c, models: [...c.models], conversation: c.conversation + conversationOffset, file: c.file + fileOffset }));
  if (into === null) {
    return {
      start: from.start,
      end: from.end,
      totals: { ...from.totals },
      days: from.days.map((d) => ({ ...d })),
      models: from.models.map((m) => ({ ...m })),
      topConversations: conversations.slice(0, SUMMARY_TOP),
      topFindings: from.topFindings.map((f) => ({ ...f })),
    };
  }
  into.start = earlier(into.start, from.start);
  into.end = later(into.end, from.end);
  addSummaryTotals(into.totals, from.totals);
  mergeRows(into.days, from.days, { key: (d) => d.day, add: addSummaryTotals, copy: (d) => ({ ...d }) });
  mergeRows(into.models, from.models, { key: (m) => m.model, add: addSummaryTotals, copy: (m) => ({ ...m }) });
  // Stable: among equal costs the earlier session's conversation stays first, as in one analysis of everything.
  into.topConversations = [...into.topConversations, ...conversations].sort(byCostDescending).slice(0, SUMMARY_TOP);
  mergeRows(into.topFindings, from.topFindings, { key: (f) => f.code, add: (a: FindingTotals, b: FindingTotals) => {
      a.findings += b.findings;
      a.requests += b.requests;
      a.cost += b.cost;
    }, copy: (f) => ({ ...f }) });
  return into;
}

/** Folds one session's analysis (its files analysed together) into the folder's sums. */
export function addSession(folder: FolderAnalysis, analysis: Analysis, options: { calibrated: boolean }): void {
  const fileOffset = folder.files.length;
  analysis.files.forEach((file, i) => {
    folder.files.push(fileRecord(file, fileOffset + i));
    folder.fileNames.push(file.name);
  });
  folder.analyses++;
  if (options.calibrated) folder.calibrated++;
  folder.requests += analysis.requests.length;
  for (const dropped of analysis.duplicateCalls ?? []) folder.duplicateCalls.push({ file: dropped.file + fileOffset, calls: dropped.calls });
  addModelUse(folder.models, analysis.modelUse);
  addTokenTotals(folder.totals, analysis.totals);
  for (const error of analysis.errors) folder.errors.push({ ...error, file: error.file + fileOffset });
  folder.parts.push(...sessionPartsOf(analysis));
  const cache = analysis.cache;
  if (cache === undefined) return;
  folder.cost = addCost(folder.cost, costTotalsRecord(cache));
  mergeRows(folder.misses, cache.misses.summary.map(({ cause, count, tokens, cost }) => ({ cause, count, tokens, cost })), { key: (m) => m.cause, add: (a, b) => {
      a.count += b.count;
      a.tokens += b.tokens;
      a.cost += b.cost;
    }, copy: (m) => ({ ...m }) });
  folder.misses.sort(byCostDescending);
  for (const finding of cache.findings) {
    const count = folder.findings.find((f) => f.code === finding.code);
    if (count === undefined) folder.findings.push({ code: finding.code, severity: finding.severity, findings: 1, requests: finding.requests.length, fix: finding.fix });
    else {
      count.findings++;
      count.requests += finding.requests.length;
    }
  }
  // Every finding code of the session, so no code the folder's ten costliest hold is cut per session.
  const summary = summaryOf(analysis, Number.POSITIVE_INFINITY);
  if (summary !== null) {
    folder.summary = addSummary(folder.summary, summary, fileOffset, folder.conversations);
  }
  folder.conversations += cache.conversations.count;
}

const dayOrder = (a: { day: string | null }, b: { day: string | null }) => (a.day === b.day ? 0 : a.day === null ? 1 : b.day === null ? -1 : a.day < b.day ? -1 : 1);

/** The summary as one analysis orders it: days by date, models and finding codes the costliest first (ten). */
export function folderSummary(folder: FolderAnalysis): TimeRangeSummary | null {
  const summary = folder.summary;
  if (summary === null) return null;
  return {
    ...summary,
    days: [...summary.days].sort(dayOrder),
    models: [...summary.models].sort(byCostDescending),
    topFindings: [...summary.topFindings].sort(byCostDescending).slice(0, SUMMARY_TOP),
  };
}

/**
 * Folds the sums of sessions summed apart (a worker's one session, folded into an empty folder) into `into`, as
 * if `into` had added them itself: files and conversations renumbered after its own, every sum added in the same
 * order, so a folder read in parallel gives the record a serial read gives, byte for byte.
 */
export function mergeFolder(into: FolderAnalysis, from: FolderAnalysis): void {
  const fileOffset = into.files.length;
  for (const file of from.files) into.files.push({ ...file, index: file.index + fileOffset });
  into.fileNames.push(...from.fileNames);
  into.analyses += from.analyses;
  into.calibrated += from.calibrated;
  into.requests += from.requests;
  for (const dropped of from.duplicateCalls) into.duplicateCalls.push({ file: dropped.file + fileOffset, calls: dropped.calls });
  addModelUse(into.models, from.models);
  addTokenTotals(into.totals, from.totals);
  for (const error of from.errors) into.errors.push({ ...error, file: error.file + fileOffset });
  into.parts.push(...from.parts);
  if (from.cost !== null) into.cost = addCost(into.cost, from.cost);
  if (from.misses.length > 0) {
    mergeRows(into.misses, from.misses, { key: (m) => m.cause, add: (a, b) => {
      a.count += b.count;
      a.tokens += b.tokens;
      a.cost += b.cost;
    }, copy: (m) => ({ ...m }) });
    into.misses.sort(byCostDescending);
  }
  mergeRows(into.findings, from.findings, { key: (f) => f.code, add: (a, b) => {
    a.findings += b.findings;
    a.requests += b.requests;
  }, copy: (f) => ({ ...f }) });
  if (from.summary !== null) into.summary = addSummary(into.summary, from.summary, fileOffset, into.conversations);
  into.conversations += from.conversations;
}
