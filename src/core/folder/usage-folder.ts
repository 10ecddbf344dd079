// A folder's summary at the speed of reading: each session's recorded usage folded into the session, project, day
// and model tables (src/core/transcripts/sessions.ts) with the misses the usage rule prices
// (src/core/cache/usage-misses.ts). A session the usage pass cannot read (not a Claude Code transcript) is
// analysed in full and gives the same rows, with the full analysis' misses. Only rows and counts are kept of a
// session, so memory is bounded by the largest one.
import type { ReadError } from '../model.ts';
import { analyzeInput, type AnalyzeOptions } from '../analysis/analyze.ts';
import { modelUseOf } from '../analysis/models.ts';
import type { Analysis, ModelUse } from '../analysis/types.ts';
import { usageMisses } from '../cache/usage-misses.ts';
import type { InputFile } from '../input/index.ts';
import type { DroppedCalls } from '../input/seen-calls.ts';
import { sessionPartsOf } from '../transcripts/index.ts';
import { sessionParts, type SessionPart } from '../transcripts/sessions.ts';
import { addModelUse } from './accumulate.ts';
import { readSessionUsage, type UsageFile, type UsageRead } from './usage-pass.ts';

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
  read: Pick<UsageRead, 'files' | 'errors'> | Analysis;
  /** The rows it added to the folder. */
  parts: SessionPart[];
  /** Whether it took the full analysis. */
  full: boolean;
}

/** The session's parts from its usage pass, misses by the usage rule. */
export function usageParts(read: UsageRead): SessionPart[] {
  const misses = usageMisses({
    requests: read.requests,
    conversationOf: (r) => read.requests[r]!.conversation,
    pricingOf: (r) => read.models[r]?.pricing ?? null,
  });
  return sessionParts(read, (r) => misses[r] ?? null);
}

interface SessionSums {
  files: readonly UsageFile[];
  errors: readonly ReadError[];
  models: ModelUse[];
  requests: number;
  parts: SessionPart[];
  duplicateCalls: readonly DroppedCalls[];
}

function add(folder: UsageFolder, session: SessionSums): void {
  const offset = folder.files.length;
  for (const dropped of session.duplicateCalls) folder.duplicateCalls.push({ file: dropped.file + offset, calls: dropped.calls });
  folder.files.push(...session.files);
  for (const error of session.errors) folder.errors.push({ ...error, file: error.file + offset });
  folder.analyses++;
  folder.requests += session.requests;
  addModelUse(folder.models, session.models);
  folder.parts.push(...session.parts);
}

/** Reads one session (its files together) and folds its rows into `folder`. Throws what a full read throws. */
export async function foldSessionUsage(folder: UsageFolder, files: InputFile[], options: AnalyzeOptions = {}): Promise<UsageSession> {
  const read = await readSessionUsage(files, {
    ...(options.model !== undefined && { model: options.model }),
    ...(options.prices !== undefined && { prices: options.prices }),
    ...(options.limits !== undefined && { limits: options.limits }),
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.onProgress !== undefined && { onProgress: options.onProgress }),
    ...(options.seenCalls !== undefined && { seenCalls: options.seenCalls }),
  });
  options.signal?.throwIfAborted();
  if (read !== null) {
    const parts = usageParts(read);
    add(folder, { files: read.files, errors: read.errors, models: modelUseOf(read.models), requests: read.requests.length, parts, duplicateCalls: read.duplicateCalls });
    return { read, parts, full: false };
  }
  const analysis = await analyzeInput(files, options);
  options.signal?.throwIfAborted();
  const parts = sessionPartsOf(analysis);
  add(folder, { files: analysis.files, errors: analysis.errors, models: analysis.modelUse, requests: analysis.requests.length, parts, duplicateCalls: analysis.duplicateCalls ?? [] });
  folder.fullAnalyses++;
  return { read: analysis, parts, full: true };
}
