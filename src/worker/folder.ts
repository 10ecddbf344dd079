// A dropped folder, analysed one session at a time: its files are grouped into sessions (a session with its
// subagents' transcripts, a Cline task's parts; src/core/folder/groups.ts), each session is read, analysed with the
// CLI's default usage calibration, folded into the folder's sums (src/core/folder/session.ts), and dropped. So a
// folder of hundreds of sessions holds rows, never more than one session's analysis, and the rows are the ones
// `ctxray analyze <folder> --json` gives in `sessions[]`. Each row names the inputs it was read from, so the page
// can open that session's full analysis. A folder dropped on the page is read on a pool of session workers instead
// (./pool/folder-pooled.ts), with the same rows and the same record; the helpers below are shared.
import { holdsNoRequestsByDesign, onlyCopies } from '../core/analysis/unreadable.ts';
import { SeenCalls } from '../core/input/seen-calls.ts';
import { InputError, WorkLimitError, type InputFile, type InputLimits } from '../core/input/index.ts';
import { claudeCodeSessionId, emptyFolder, folderRecord, foldSession, isFlatAgentFile, sessionGroups, type FolderAnalysis } from '../core/folder/index.ts';
import { GENERATED_BY } from '../core/analysis/version.ts';
import { recordJson } from '../core/text/json-safe.ts';
import { PRICED_ON } from '../core/pricing/table.ts';
import { sessionTableOf, type GroupRow, type SessionRow } from '../core/transcripts/index.ts';
import type { SessionFiles } from '../core/folder/index.ts';
import { AUTO_WEEK_DAYS, folderSeries, type FolderSeries } from '../core/transcripts/daily.ts';
import type { SessionPart } from '../core/transcripts/sessions.ts';
import type { InputBlob, ProgressInfo } from './inputs.ts';

/** A session's row, with the indices of the inputs that make it (its own file first, then its subagents'). */
export interface FolderSessionRow extends SessionRow {
  inputs: number[];
  /** The UTC days it has requests on (YYYY-MM-DD; null for requests without a time), for the per-day table. */
  days: (string | null)[];
  /** Only while the folder fills in: the row is from the session's recorded usage (misses priced by the usage rule), its full analysis still to come. */
  usageOnly?: boolean;
}

export interface FolderView {
  sessions: FolderSessionRow[];
  projects: GroupRow[];
  days: GroupRow[];
  /** Log files read. */
  files: number;
  /** "<path>: <reason>" for each file that gave no request (unreadable, or not a request log). */
  skipped: string[];
  /**
   * The folder over time, by day and by ISO week, for its charts (src/ui/folder-charts.ts). Both are computed here:
   * the worker keeps no folder state after this answer (a session opened from the table replaces its state).
   */
  series: { day: FolderSeries; week: FolderSeries; auto: FolderSeries['bucketing'] };
  /** The folder's ctxray.analysis record as `ctxray analyze <folder> --json` writes it (the app's "JSON record"); '' while `progress` is set. */
  record: string;
  /**
   * Set while the folder is still being read (a view posted as it fills in): `done` of `total` sessions analysed in
   * full, in order; the other rows, if any, are their recorded usage alone (`usageOnly`). Absent once all are read.
   */
  progress?: { done: number; total: number };
}

export interface FolderOptions {
  signal: AbortSignal;
  onProgress: (progress: ProgressInfo) => void;
  limits?: Partial<InputLimits>;
  /** The sums to fold into (a comparison reads its record, src/worker/handlers/compare.ts); a fresh one by default. */
  into?: FolderAnalysis;
}

/** How much of a flat `agent-*.jsonl` is read to find the session it belongs to (as the CLI's listing reads). */
const HEAD_BYTES = 64 * 1024;

export const pathOf = (input: InputBlob): string => input.folderPath ?? input.name;

async function flatSessionIds(inputs: readonly InputBlob[]): Promise<(string | null)[]> {
  return Promise.all(
    inputs.map(async (input) => {
      if (!isFlatAgentFile(pathOf(input))) return null;
      const head = await input.blob.slice(0, HEAD_BYTES).text();
      // Whole lines only: a head that is the whole file gets the newline that ends its last line.
      return claudeCodeSessionId(input.blob.size <= HEAD_BYTES ? `${head}\n` : head);
    }),
  );
}

/** The folder's sessions: groups of input indices (a session's own file first, then its subagents'). */
export async function folderGroups(inputs: readonly InputBlob[]): Promise<number[][]> {
  const ids = await flatSessionIds(inputs);
  return sessionGroups(inputs.map(pathOf), (i) => ids[i] ?? null);
}

/** A session's inputs as the core reads them. */
export const inputFiles = (inputs: readonly InputBlob[], group: readonly number[]): InputFile[] =>
  group.map((i) => {
    const input = inputs[i]!;
    return { name: input.name, bytes: input.blob.stream(), size: input.blob.size, folderPath: pathOf(input) };
  });

/** The files of a session read that gave no request (unreadable, or not a request log), as the folder lists them. */
export function emptyFilesOf(read: SessionFiles, paths: readonly string[]): string[] {
  return read.files.flatMap((file, j) => {
    if (file.requests > 0 || onlyCopies(read, j) || (file.errors === 0 && holdsNoRequestsByDesign(file))) return [];
    const error = read.errors.find((e) => e.file === j);
    return [`${paths[j] ?? file.name}: ${error?.message ?? 'no request bodies found'}`];
  });
}

/** A session that stopped the read: located as the CLI locates it, by its file (`file`: of the session's) and line. */
export const failedSessionLine = (paths: readonly string[], failure: { file: number; line: number; message: string }): string =>
  `${paths[failure.file] ?? ''}${failure.line > 0 ? ` line ${failure.line}` : ''}: ${failure.message}`;

/** A session's rows and the inputs they were read from. */
export interface ShownSession {
  parts: readonly SessionPart[];
  group: readonly number[];
  usageOnly?: boolean;
}

/** The folder view of the sessions read so far; `record` and `progress` as FolderView says. */
export function folderViewOf(shown: readonly ShownSession[], rest: Pick<FolderView, 'files' | 'skipped' | 'record' | 'progress'>): FolderView {
  const rowOf = new Map<SessionRow, { inputs: number[]; days: (string | null)[]; usageOnly?: true }>();
  for (const { parts, group, usageOnly } of shown) {
    for (const part of parts) rowOf.set(part.row, { inputs: [...group], days: part.days.map((day) => day.key), ...(usageOnly === true && { usageOnly: true }) });
  }
  const parts = shown.flatMap((session) => session.parts);
  const table = sessionTableOf(parts);
  return {
    sessions: table.sessions.map((row) => ({ ...row, inputs: [], days: [], ...rowOf.get(row) })),
    projects: table.projects,
    days: table.days,
    ...rest,
    series: seriesOf(parts),
  };
}

function seriesOf(parts: readonly SessionPart[]): FolderView['series'] {
  const day = folderSeries(parts, 'day');
  return { day, week: folderSeries(parts, 'week'), auto: day.days > AUTO_WEEK_DAYS ? 'week' : 'day' };
}

export async function analyzeFolder(inputs: readonly InputBlob[], options: FolderOptions): Promise<FolderView> {
  const groups = await folderGroups(inputs);
  const bytesTotal = inputs.reduce((sum, input) => sum + input.blob.size, 0);
  const folder = options.into ?? emptyFolder(GENERATED_BY, PRICED_ON);
  // A call copied into another session's file is counted once over the whole drop.
  const seenCalls = new SeenCalls();
  const shown: ShownSession[] = [];
  const skipped: string[] = [];
  let bytesBefore = 0;
  let records = 0;
  for (const [done, group] of groups.entries()) {
    options.signal.throwIfAborted();
    const offsets: number[] = [];
    let groupBytes = 0;
    for (const i of group) {
      offsets.push(groupBytes);
      groupBytes += inputs[i]!.blob.size;
    }
    const files = inputFiles(inputs, group);
    const paths = files.map((file) => file.folderPath ?? file.name);
    const sessions = { done, total: groups.length };
    options.onProgress({ file: group[0]!, bytesRead: bytesBefore, bytesTotal, records, sessions });
    try {
      const { analysis: read, parts } = await foldSession(folder, files, {
        signal: options.signal,
        seenCalls,
        onProgress: (p) => options.onProgress({ file: group[p.file] ?? group[0]!, bytesRead: bytesBefore + (offsets[p.file] ?? 0) + p.bytesRead, bytesTotal, records: records + p.records, sessions }),
        ...(options.limits !== undefined && { limits: options.limits }),
      });
      for (const file of read.files) records += file.records;
      skipped.push(...emptyFilesOf(read, paths));
      shown.push({ parts, group });
    } catch (error) {
      if (options.signal.aborted || !(error instanceof InputError)) throw error;
      skipped.push(failedSessionLine(paths, { file: error instanceof WorkLimitError ? error.file : 0, line: error.line, message: error.message }));
    }
    bytesBefore += groupBytes;
  }
  return folderViewOf(shown, { files: inputs.length, skipped, record: recordJson(folderRecord(folder)) });
}
