// A folder's summary at the speed of reading: each session's recorded usage folded into the session, project, day
// and model tables (src/core/transcripts/sessions.ts) with the misses the usage rule prices
// (src/core/cache/usage-misses.ts). A session the usage pass cannot read (not a Claude Code transcript) is
// analysed in full and gives the same rows, with the full analysis' misses. Only rows and counts are kept of a
// session, so memory is bounded by the largest one.
import type { ReadError } from '../model.ts';
import type { AnalyzeOptions } from '../analysis/analyze.ts';
import { modelUseOf } from '../analysis/models.ts';
import type { Analysis, ModelUse } from '../analysis/types.ts';
import { usageMisses } from '../cache/usage-misses.ts';
import type { InputFile } from '../input/index.ts';
import { SeenCalls, type DroppedCalls } from '../input/seen-calls.ts';
import { inWindowAt, type Window } from '../period/index.ts';
import { sessionParts, type MissOf, type SessionPart, type SessionSource } from '../transcripts/sessions.ts';
import { addModelUse } from './accumulate.ts';
import type { FastLines } from './claude-line.ts';
import { readSessionUsage, type UsageFile, type UsageRead, type UsageReadOptions } from './usage-pass.ts';

export interface UsageFolder {
  /** Files read, in the order read (a session's files together); names are for messages only. */
  files: UsageFile[];
  /** Sessions read (a session with its subagents, a task's two parts, any other file alone). */
  analyses: number;
  /** Of those, the ones read in full because the usage pass does not read their format. */
  fullAnalyses: number;
  requests: number;
  models: ModelUse[];
  parts: SessionPart[];
  /** Unreadable records, `file` folder-wide. */
  errors: ReadError[];
  /** Calls dropped as copies of calls an earlier file recorded, `file` folder-wide. */
  duplicateCalls: DroppedCalls[];
}

export const emptyUsageFolder = (): UsageFolder => ({ files: [], analyses: 0, fullAnalyses: 0, requests: 0, models: [], parts: [], errors: [], duplicateCalls: [] });

/** A session read one way or the other: its files and errors (indices its own), for the caller's checks. */
export interface UsageSession {
  read: Pick<UsageRead, 'files' | 'errors' | 'duplicateCalls'> | Analysis;
  /** The rows it added to the folder. */
  parts: SessionPart[];
  /** Whether it took the full analysis. */
  full: boolean;
}

/** The requests sent in the window (indices), or null for all of them (no window). */
function keptIn(source: Pick<SessionSource, 'requests'>, window: Window | null): number[] | null {
  return window === null ? null : source.requests.flatMap((call, r) => (inWindowAt(call.timestamp, window) ? [r] : []));
}

/** The parts of the kept requests; a miss stays priced as the whole session gives it. */
function partsOf(source: SessionSource, missOf: MissOf | null, kept: readonly number[] | null): SessionPart[] {
  if (kept === null) return sessionParts(source, missOf);
  const inside = { files: source.files, requests: kept.map((r) => source.requests[r]!), models: kept.map((r) => source.models[r]!) };
  return sessionParts(inside, missOf === null ? null : (k) => missOf(kept[k]!));
}

/** The session's parts from its usage pass, misses by the usage rule (the request before in its conversation). */
export function usageParts(read: UsageRead, kept: readonly number[] | null = null): SessionPart[] {
  const misses = usageMisses({
    requests: read.requests,
    conversationOf: (r) => read.requests[r]!.conversation,
    pricingOf: (r) => read.models[r]?.pricing ?? null,
  });
  return partsOf(read, (r) => misses[r] ?? null, kept);
}

export interface UsageFolderOptions extends AnalyzeOptions {
  /** --since / --until: only the requests sent in it are counted (misses as the whole session prices them). */
  window?: Window | null;
  /** Claude Code lines scanned for the keys the walk reads instead of parsed whole (claude-line.ts; the CLI's Node functions). */
  fastLines?: FastLines;
}

interface SessionSums {
  files: readonly UsageFile[];
  errors: readonly ReadError[];
  models: ModelUse[];
  requests: number;
  parts: SessionPart[];
  duplicateCalls: readonly DroppedCalls[];
}

/** Adds one session's sums (or a folder of sessions read apart: `from`'s counts) to `folder`. */
function add(folder: UsageFolder, session: SessionSums, from: Pick<UsageFolder, 'analyses' | 'fullAnalyses'> = { analyses: 1, fullAnalyses: 0 }): void {
  const offset = folder.files.length;
  for (const dropped of session.duplicateCalls) folder.duplicateCalls.push({ file: dropped.file + offset, calls: dropped.calls });
  folder.files.push(...session.files);
  for (const error of session.errors) folder.errors.push({ ...error, file: error.file + offset });
  folder.analyses += from.analyses;
  folder.fullAnalyses += from.fullAnalyses;
  folder.requests += session.requests;
  addModelUse(folder.models, session.models);
  folder.parts.push(...session.parts);
}

/** What the usage pass takes of the folder's options (those set). */
function usageOptions(options: UsageFolderOptions): UsageReadOptions {
  const { model, prices, limits, signal, onProgress, seenCalls, fastLines } = options;
  const all: UsageReadOptions = { model, prices, limits, signal, onProgress, seenCalls, fastLines };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined)) as UsageReadOptions;
}

/** A session the usage pass read, folded. */
function foldUsageRead(folder: UsageFolder, read: UsageRead, window: Window | null): UsageSession {
  const kept = keptIn(read, window);
  const parts = usageParts(read, kept);
  const models = modelUseOf(kept === null ? read.models : kept.map((r) => read.models[r]!));
  add(folder, { files: read.files, errors: read.errors, models, requests: kept?.length ?? read.requests.length, parts, duplicateCalls: read.duplicateCalls });
  return { read, parts, full: false };
}

/** A session analysed in full (not a Claude Code transcript), folded with its full analysis' misses. */
function foldAnalysis(folder: UsageFolder, analysis: Analysis, window: Window | null): UsageSession {
  const misses = analysis.cache?.misses;
  const kept = keptIn(analysis, window);
  const parts = partsOf(analysis, misses === undefined ? null : (r) => misses.requests[r] ?? null, kept);
  const models = kept === null ? analysis.modelUse : modelUseOf(kept.map((r) => analysis.models[r]!));
  add(folder, { files: analysis.files, errors: analysis.errors, models, requests: kept?.length ?? analysis.requests.length, parts, duplicateCalls: analysis.duplicateCalls ?? [] }, { analyses: 1, fullAnalyses: 1 });
  return { read: analysis, parts, full: true };
}

/**
 * Reads one session (its files together) and folds its rows into `folder`. Throws what a full read throws.
 * `files` opens the session's files: a session the pass does not read is opened again for the full analysis.
 */
export async function foldSessionUsage(folder: UsageFolder, files: () => InputFile[], options: UsageFolderOptions = {}): Promise<UsageSession> {
  const { window = null, fastLines: _fast, ...analyzeOptions } = options;
  const read = await readSessionUsage(files(), usageOptions(options));
  options.signal?.throwIfAborted();
  if (read !== null) return foldUsageRead(folder, read, window);
  const { analyzeInput } = await import('../analysis/analyze.ts');
  const analysis = await analyzeInput(files(), analyzeOptions);
  options.signal?.throwIfAborted();
  return foldAnalysis(folder, analysis, window);
}

/** A session read apart (on a worker): its sums in a folder of its own, its files for the checks, its calls' keys. */
export interface UsageApart {
  folder: UsageFolder;
  session: { files: UsageFile[]; errors: ReadError[]; duplicateCalls: DroppedCalls[] };
  keys: string[];
}

/**
 * Reads one session on its own, as apart.ts reads one for the full analysis: `claimed` holds the keys of calls
 * earlier sessions counted (SessionOrder.settle), whose copies here are dropped as the serial pass drops them.
 */
export async function foldUsageApart(files: () => InputFile[], options: UsageFolderOptions & { claimed?: readonly string[] } = {}): Promise<UsageApart> {
  const { claimed = [], ...folderOptions } = options;
  const folder = emptyUsageFolder();
  const seenCalls = SeenCalls.holding(claimed);
  const { read } = await foldSessionUsage(folder, files, { ...folderOptions, seenCalls });
  const session = { files: read.files.map(checkedFile), errors: read.errors, duplicateCalls: read.duplicateCalls ?? [] };
  return { folder, session, keys: seenCalls.claimedKeys() };
}

/** What the caller's checks read of a file (a full analysis' file holds more than a worker need post). */
const checkedFile = ({ name, format, envelope, layout, records, requests, errors, folderPath, session }: UsageFile): UsageFile => ({
  name,
  format,
  envelope,
  layout,
  records,
  requests,
  errors,
  ...(folderPath !== undefined && { folderPath }),
  session,
});

/** Adds a folder of sessions read apart to `folder`, after the sessions already in it (file indices shifted). */
export const mergeUsageFolder = (folder: UsageFolder, apart: UsageFolder): void => add(folder, apart, apart);
