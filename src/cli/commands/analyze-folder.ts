// `ctxray analyze <folder>`: every session below the folder read and analysed on its own — a Claude Code session
// with its subagents' transcripts, a Cline task's two parts, any other file alone (src/core/folder/groups.ts) — and
// folded into the folder's sums (src/core/folder/accumulate.ts) before the next is read, so memory is bounded by
// the largest session, not by the folder. Files given beside the folder are sessions too (with their companions).
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_BY } from '../../core/analysis/version.ts';
import { holdsNoRequestsByDesign, onlyCopies, unreadableFiles } from '../../core/analysis/unreadable.ts';
import { SeenCalls } from '../../core/input/seen-calls.ts';
import { SEVERITY_RANK } from '../../core/cache/index.ts';
import { emptyFolder, foldSession, folderRecord, type FolderAnalysis } from '../../core/folder/index.ts';
import { InputError, WorkLimitError, type InputFile, type ReadProgress } from '../../core/input/index.ts';
import { PRICED_ON } from '../../core/pricing/table.ts';
import { MAX_FOLDER_FILES, companionFiles, lazyFileStream, listFolderSessions, describeFsError, skipCauses, type FolderFile } from '../fs/folder-inputs.ts';
import type { CliIO } from '../io.ts';
import type { ProgressReporter } from '../progress.ts';
import { workLimitMessage } from '../work-limits.ts';
import { renderFolderReport } from '../report/folder.ts';
import { renderFolderBrief } from '../report/folder-brief.ts';
import { periodOf, type AnalyzeArgs } from './analyze-args.ts';
import { jsonTextSafe } from '../terminal-safe.ts';

/** One session to read: its files, and whether each was found in a folder (then unreadable is skipped, not fatal). */
interface SessionInput {
  files: { name: string; full: string; size: number; folderPath: string; inFolder: boolean }[];
}

export interface FolderRun {
  io: CliIO;
  signal: AbortSignal;
  /** Progress on stderr, when shown; the runner creates it once it knows the files. */
  progress: (names: readonly string[]) => ProgressReporter | null;
  /** Writes --json under the CLI's output rules; returns an error message or null. */
  writeJson: (data: string) => string | null;
  color: boolean;
}

/** Raised for what the folder run refuses before reading (exit 1, the message said). */
export class FolderUsageError extends Error {}

function sessionInputs(args: AnalyzeArgs, io: CliIO, skipped: string[]): SessionInput[] {
  const sessions: SessionInput[] = [];
  const given = new Set(args.inputs.filter((input) => input !== '-').map((input) => path.resolve(io.cwd, input)));
  for (const input of args.inputs) {
    if (input === '-') throw new FolderUsageError('- (stdin) cannot be read with a folder: give the folder alone');
    const full = path.resolve(io.cwd, input);
    let stats: fs.Stats;
    try {
      stats = fs.statSync(full);
      if (!stats.isDirectory()) fs.accessSync(full, fs.constants.R_OK);
    } catch (error) {
      throw new FolderUsageError(`cannot read ${input}: ${describeFsError(error)}`);
    }
    if (stats.isDirectory()) {
      const listing = listFolderSessions(full, input);
      skipped.push(...listing.skipped);
      if (listing.leftOut > 0) skipped.push(`${input}: ${listing.leftOut} more file(s) beyond the first ${MAX_FOLDER_FILES} left unread`);
      if (listing.sessions.length === 0) {
        const causes = listing.skipped.length > 0 ? ` (skipped: ${skipCauses(listing.skipped)})` : '';
        throw new FolderUsageError(`cannot read ${input}: no readable .jsonl, .json or .gz file in it${causes}`);
      }
      for (const group of listing.sessions) sessions.push({ files: group.map((file) => ({ ...file, inFolder: true })) });
      continue;
    }
    const size = stats.size;
    const companions = companionFiles(full, input).filter((companion) => !given.has(companion.full));
    const relative = (file: FolderFile) => path.relative(path.dirname(full), file.full).split(path.sep).join('/');
    sessions.push({
      files: [
        { name: input, full, size, folderPath: path.basename(full), inFolder: false },
        ...companions.map((companion) => ({ ...companion, folderPath: relative(companion), inFolder: true })),
      ],
    });
  }
  return sessions;
}

/** Reads every session in turn; returns the exit status (a work limit or unreadable named input: 1, said on stderr). */
export async function analyzeFolderInputs(args: AnalyzeArgs, run: FolderRun): Promise<number> {
  const { io } = run;
  const skipped: string[] = [];
  const sessions = sessionInputs(args, io, skipped);
  const allFiles = sessions.flatMap((session) => session.files);
  args.folderFiles = allFiles.flatMap((file) => (file.inFolder ? [file.full] : []));
  const total = allFiles.reduce((sum, file) => sum + file.size, 0);
  const names = sessions.flatMap((session, s) => session.files.map((file) => `[${(s + 1).toLocaleString('en-US')}/${sessions.length.toLocaleString('en-US')}] ${file.name}`));
  const progress = run.progress(names);
  const folder: FolderAnalysis = emptyFolder(GENERATED_BY, PRICED_ON);
  // One registry for the whole run: a call copied into another session's file is counted once, folder-wide.
  const seenCalls = new SeenCalls();
  let bytesBefore = 0;
  try {
    for (const session of sessions) {
      run.signal.throwIfAborted();
      const fileOffset = folder.files.length;
      const inputs: InputFile[] = session.files.map((file) => ({ name: file.name, bytes: lazyFileStream(file.full), size: file.size, folderPath: file.folderPath }));
      let analysis;
      try {
        ({ analysis } = await foldSession(folder, inputs, {
          format: args.format,
          model: args.model,
          prices: args.priceOverrides ?? null,
          seenCalls,
          usageCalibration: args.usageCalibration !== false,
          signal: run.signal,
          ...(args.limits !== undefined && { limits: args.limits }),
          ...(progress !== null && {
            onProgress: (p: ReadProgress) => progress.update({ ...p, file: fileOffset + p.file, bytesRead: bytesBefore + p.bytesRead, bytesTotal: total }),
          }),
        }));
      } catch (error) {
        if (run.signal.aborted) throw error;
        const failure =
          error instanceof WorkLimitError
            ? workLimitMessage(error, session.files[error.file]?.name ?? `file ${fileOffset + error.file + 1}`)
            : error instanceof InputError
              ? `unreadable input${error.line > 0 ? ` at line ${error.line}` : ''}: ${error.message}`
              : null;
        if (failure === null) throw error;
        progress?.finish();
        io.stderr(`ctxray analyze: ${failure}\n`);
        return 1;
      }
      bytesBefore += session.files.reduce((sum, file) => sum + file.size, 0);
      const unreadable = unreadableFiles(analysis, (file) => !(session.files[file]?.inFolder ?? true));
      if (unreadable.length > 0) {
        progress?.finish();
        io.stderr(`ctxray analyze: unreadable input:\n${unreadable.map((line) => `  ${line}`).join('\n')}\n`);
        return 1;
      }
      analysis.files.forEach((file, i) => {
        if (session.files[i]?.inFolder === true && file.requests === 0 && file.errors === 0 && !holdsNoRequestsByDesign(file) && !onlyCopies(analysis, i)) skipped.push(`${file.name}: no request bodies found`);
      });
    }
  } finally {
    progress?.finish();
  }
  return report(args, run, folder, skipped);
}

function report(args: AnalyzeArgs, run: FolderRun, folder: FolderAnalysis, skipped: readonly string[]): number {
  const { io } = run;
  if (skipped.length > 0) io.stderr(`ctxray analyze: skipped in folder input:\n${skipped.map((line) => `  ${line}`).join('\n')}\n`);
  if (folder.requests === 0) {
    io.stderr('ctxray analyze: no request found in the folder input\n');
    return 1;
  }
  const jsonToStdout = args.json === '-';
  if (folder.calibrated > 0) {
    const note =
      `calibrated Claude estimates on each session's own recorded usage: ${folder.calibrated.toLocaleString('en-US')} of ` +
      `${folder.analyses.toLocaleString('en-US')} session(s) (--no-usage-calibration keeps the plain estimates)\n`;
    if (jsonToStdout) io.stderr(`ctxray analyze: ${note}`);
    else io.stdout(note);
  }
  if (!jsonToStdout) {
    const full = args.verbose || periodOf(args).by !== null;
    io.stdout(full ? renderFolderReport(folder, { color: run.color }) : renderFolderBrief(folder, { color: run.color, zone: periodOf(args).zone }));
  }
  if (args.json !== null) {
    const json = jsonTextSafe(JSON.stringify(folderRecord(folder), null, 2)) + '\n';
    if (jsonToStdout) {
      io.stdout(json);
      for (const error of folder.errors) {
        const name = folder.fileNames[error.file] ?? `file ${error.file + 1}`;
        io.stderr(`ctxray analyze: skipped ${name}${error.line > 0 && error.recordNumber === undefined ? `:${error.line}` : ''}: ${error.message}\n`);
      }
    } else {
      const failure = run.writeJson(json);
      if (failure !== null) {
        io.stderr(`ctxray analyze: ${failure}\n`);
        return 1;
      }
    }
  }
  if (args.failOn !== undefined) {
    const threshold = SEVERITY_RANK[args.failOn];
    const meeting = folder.findings.filter((finding) => SEVERITY_RANK[finding.severity] <= threshold);
    if (meeting.length > 0) {
      const count = meeting.reduce((sum, finding) => sum + finding.findings, 0);
      io.stderr(`ctxray analyze: --fail-on ${args.failOn}: ${count} finding(s) at least that severe (${meeting.map((f) => f.code).join(', ')})\n`);
      return 2;
    }
  }
  return 0;
}

/** Whether the inputs hold a folder (then every input is read one session at a time). */
export function hasFolderInput(args: AnalyzeArgs, io: CliIO): boolean {
  return args.inputs.some((input) => {
    if (input === '-') return false;
    try {
      return fs.statSync(path.resolve(io.cwd, input)).isDirectory();
    } catch {
      return false;
    }
  });
}
