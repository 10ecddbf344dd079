// One session of a folder, read, calibrated and folded into the folder's sums: the step `ctxray analyze <folder>`
// and the app's folder drop share. Each caller keeps its own policy for a session that fails (the CLI stops with
// exit 1, the app lists it and goes on) and for files that gave no request.
import { analyzeInput, type AnalyzeOptions } from '../analysis/analyze.ts';
import type { Analysis } from '../analysis/types.ts';
import { usageCalibratedAnalysis } from '../analysis/attach.ts';
import type { InputFile } from '../input/index.ts';
import type { SessionPart } from '../transcripts/sessions.ts';
import { addSession, type FolderAnalysis } from './accumulate.ts';

export interface SessionOptions extends AnalyzeOptions {
  /** Rescale the session's Claude estimates on its own recorded usage, as `ctxray analyze <file>` does (default on). */
  usageCalibration?: boolean;
}

export interface FoldedSession {
  /** The session as read, before calibration: its files, per-file counts and errors. */
  analysis: Analysis;
  /** The rows it added to the folder (a session and its subagents). */
  parts: SessionPart[];
}

/** Reads one session's files and folds them into `folder`. Throws what analyzeInput throws, with nothing folded. */
export async function foldSession(folder: FolderAnalysis, files: InputFile[], options: SessionOptions = {}): Promise<FoldedSession> {
  const { usageCalibration = true, ...analyzeOptions } = options;
  const analysis = await analyzeInput(files, analyzeOptions);
  analyzeOptions.signal?.throwIfAborted();
  const calibrated = usageCalibration ? usageCalibratedAnalysis(analysis) : null;
  const before = folder.parts.length;
  addSession(folder, calibrated?.analysis ?? analysis, { calibrated: (calibrated?.calibration ?? null) !== null });
  return { analysis, parts: folder.parts.slice(before) };
}
