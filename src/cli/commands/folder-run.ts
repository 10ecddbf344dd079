// The session loop of `ctxray analyze <folder>`: sessions started in order (one at a time, or up to --jobs ahead
// on worker threads), settled in order — folded into the folder's sums, checked for unreadable named inputs and
// empty folder files, streamed as rows when asked — so a parallel run reports what a serial run reports, the
// first failing session's error included. The progress line counts the bytes of every session read so far.
import { holdsNoRequestsByDesign, locatedError, onlyCopies, unreadableFiles } from '../../core/analysis/unreadable.ts';
import type { ReadError } from '../../core/model.ts';
import type { ReadProgress } from '../../core/input/index.ts';
import { InputError, WorkLimitError } from '../../core/input/index.ts';
import type { SessionPart } from '../../core/transcripts/sessions.ts';
import type { CliIO } from '../io.ts';
import type { ProgressReporter } from '../progress.ts';
import { workLimitMessage } from '../work-limits.ts';
import type { SessionFiles, TaskFailure } from '../jobs/protocol.ts';
import type { InputFile } from '../../core/input/index.ts';
import { lazyInputs, type SessionFile } from '../fs/folder-inputs.ts';
import { sessionLine } from '../report/folder-usage.ts';
import type { AnalyzeArgs } from './analyze-args.ts';

export interface FolderRun {
  io: CliIO;
  signal: AbortSignal;
  /** Progress on stderr, when shown; the runner creates it once it knows the files. */
  progress: (names: readonly string[]) => ProgressReporter | null;
  /** Writes --json under the CLI's output rules; returns an error message or null. */
  writeJson: (data: string) => string | null;
  color: boolean;
}

/** One session to read: its files, and whether each was found in a folder (then unreadable is skipped, not fatal). */
export interface SessionInput {
  files: (SessionFile & { inFolder: boolean })[];
}

/** A session as read: its files and errors for the checks, its rows for streaming, and what to fold. */
export type Outcome<T> = { value: T; session: SessionFiles; parts: readonly SessionPart[] } | { failure: string };

export interface SessionLoop<T> {
  io: CliIO;
  signal: AbortSignal;
  sessions: readonly SessionInput[];
  progress: ProgressReporter | null;
  /** How many sessions may be in flight at once (1: read in turn). */
  ahead: number;
  start: (session: SessionInput, onProgress: (p: ReadProgress) => void) => Promise<Outcome<T>>;
  /** Called in session order before it is checked: the outcome to settle (a session read again, or as is). */
  reconcile?: (outcome: Outcome<T>, session: SessionInput, onProgress: (p: ReadProgress) => void) => Promise<Outcome<T>>;
  /** Called in session order for each session read. */
  fold: (value: T) => void;
  /** Called in session order with each session's rows (streaming output). */
  onRows?: (parts: readonly SessionPart[]) => void;
}

/** The session's files, opened lazily (a file is opened when the read reaches it). */
export const inputsOf = (session: SessionInput): InputFile[] => lazyInputs(session.files);

/** What every session of the run is read with (a worker gets the same, less the signal). */
export function sessionOptions(args: AnalyzeArgs) {
  return {
    format: args.format,
    model: args.model,
    prices: args.priceOverrides ?? null,
    usageCalibration: args.usageCalibration !== false,
    ...(args.limits !== undefined && { limits: args.limits }),
  };
}

/** A session's error as the failure to report, or thrown again when it is not a read's (or the run was cancelled). */
/**
 * A folder that gave no request: what stopped its files' records (located, as a single file's read says it), then
 * the refusal; exit 1.
 */
export function noRequestFound(io: CliIO, errors: readonly ReadError[], nameOf: (file: number) => string, suffix = ''): number {
  if (errors.length > 0) io.stderr(`ctxray analyze: unreadable input:\n${errors.map((error) => `  ${locatedError(nameOf(error.file), error)}`).join('\n')}\n`);
  io.stderr(`ctxray analyze: no request found in the folder input${suffix}\n`);
  return 1;
}

export function caught(error: unknown, session: SessionInput, signal: AbortSignal): { failure: string } {
  const failure = signal.aborted ? null : failureMessage(error, session);
  if (failure === null) throw error;
  return { failure };
}

/** -v: each session's rows as it settles, on stdout before the report (the report's columns, in session order). */
export function streamRows(io: CliIO, parts: readonly SessionPart[]): void {
  for (const part of parts) io.stdout(`${sessionLine(part.row)}\n`);
}

/** What a run's loop shares whichever way it reads: where to write, the sessions, the progress line. */
export type LoopBase = Pick<SessionLoop<unknown>, 'io' | 'signal' | 'sessions' | 'progress'> & { skipped: string[] };

/** The message a serial read prints for a session that failed, from an error or a worker's failure. */
export function failureMessage(error: unknown, session: SessionInput): string | null {
  const named = (file: number) => session.files[file]?.name ?? `file ${file + 1}`;
  if (error instanceof WorkLimitError) return workLimitMessage(error, named(error.file));
  if (error instanceof InputError) return `unreadable input${error.line > 0 ? ` at line ${error.line}` : ''}: ${error.message}`;
  return null;
}

export function taskFailureMessage(failure: TaskFailure, session: SessionInput): string {
  if (failure.kind === 'input') return failureMessage(new InputError(failure.message, failure.line), session)!;
  const error = new WorkLimitError(failure.code, '', failure.limit, { line: failure.line, file: failure.file });
  error.message = failure.message;
  return failureMessage(error, session)!;
}

/** Reads every session; returns null when all were read, else the exit status (1, the reason said on stderr). */
export async function eachSession<T>(loop: SessionLoop<T>, skipped: string[]): Promise<number | null> {
  const { io, sessions, progress } = loop;
  const total = sessions.reduce((sum, session) => sum + session.files.reduce((s, file) => s + file.size, 0), 0);
  const fileOffsets: number[] = [];
  sessions.reduce((offset, session, s) => ((fileOffsets[s] = offset), offset + session.files.length), 0);
  const inFlight = new Map<number, number>();
  let bytesDone = 0;
  /** The session settled next: the progress line names its file (sessions read ahead add their bytes). */
  let current = 0;
  const onProgress = (s: number) => (p: ReadProgress) => {
    inFlight.set(s, p.bytesRead + sessions[s]!.files.slice(0, p.file).reduce((sum, file) => sum + file.size, 0));
    if (s !== current) return;
    let reading = bytesDone;
    for (const bytes of inFlight.values()) reading += bytes;
    progress?.update({ ...p, file: fileOffsets[s]! + p.file, bytesRead: reading, bytesTotal: total });
  };
  // A settled session's entry is cleared: its outcome (a full analysis, in a serial deep run) must not outlive its fold.
  const started: (Promise<Outcome<T>> | null)[] = [];
  const startUpTo = (end: number) => {
    for (let s = started.length; s < Math.min(end, sessions.length); s++) started.push(loop.start(sessions[s]!, onProgress(s)));
  };
  try {
    for (let s = 0; s < sessions.length; s++) {
      loop.signal.throwIfAborted();
      current = s;
      startUpTo(s + loop.ahead);
      const first = await started[s]!;
      started[s] = null;
      const outcome = loop.reconcile === undefined ? first : await loop.reconcile(first, sessions[s]!, onProgress(s));
      const session = sessions[s]!;
      inFlight.delete(s);
      bytesDone += session.files.reduce((sum, file) => sum + file.size, 0);
      const status = settle(outcome, session, { io, progress, skipped });
      if (status !== null) return status;
      if ('value' in outcome) {
        loop.fold(outcome.value);
        if (loop.onRows !== undefined) {
          progress?.finish();
          loop.onRows(outcome.parts);
        }
      }
    }
  } finally {
    progress?.finish();
    // Sessions started ahead of a failure are not waited for; their results are dropped.
    for (const pending of started) pending?.catch(() => undefined);
  }
  return null;
}

function settle<T>(outcome: Outcome<T>, session: SessionInput, ctx: { io: CliIO; progress: ProgressReporter | null; skipped: string[] }): number | null {
  if ('failure' in outcome) {
    ctx.progress?.finish();
    ctx.io.stderr(`ctxray analyze: ${outcome.failure}\n`);
    return 1;
  }
  const read = outcome.session;
  const unreadable = unreadableFiles(read, (file) => !(session.files[file]?.inFolder ?? true));
  if (unreadable.length > 0) {
    ctx.progress?.finish();
    ctx.io.stderr(`ctxray analyze: unreadable input:\n${unreadable.map((line) => `  ${line}`).join('\n')}\n`);
    return 1;
  }
  read.files.forEach((file, i) => {
    if (session.files[i]?.inFolder === true && file.requests === 0 && file.errors === 0 && !holdsNoRequestsByDesign(file) && !onlyCopies(read, i)) ctx.skipped.push(`${file.name}: no request bodies found`);
  });
  return null;
}
