// `ctxray analyze <folder> --deep` (and --json, --fail-on): every session analysed in full, in turn or on --jobs
// worker threads, folded in session order. A call copied into a later session's file is counted once folder-wide
// (SeenCalls): a serial run shares one registry; a parallel one reads each session with its own, gets back the
// keys of its calls and, in session order, reads again — with the keys counted before — any session that holds
// one, so the sums are the serial run's, byte for byte.
import { GENERATED_BY } from '../../core/analysis/version.ts';
import { SEVERITY_RANK } from '../../core/cache/index.ts';
import { emptyFolder, foldSession, folderRecord, mergeFolder, type FolderAnalysis } from '../../core/folder/index.ts';
import { SeenCalls } from '../../core/input/seen-calls.ts';
import { PRICED_ON } from '../../core/pricing/table.ts';
import { defaultJobs } from '../jobs/pool.ts';
import type { SessionDone } from '../jobs/protocol.ts';
import { renderFolderBrief } from '../report/folder-brief.ts';
import { renderFolderReport } from '../report/folder.ts';
import { jsonTextSafe } from '../terminal-safe.ts';
import { periodOf, type AnalyzeArgs } from './analyze-args.ts';
import { caught, noRequestFound, type FolderRun, eachSession, inputsOf, sessionOptions, streamRows, type LoopBase } from './folder-run.ts';
import { poolSessions, taskFiles } from './folder-pool-run.ts';

/** Every session analysed in full; returns the exit status. */
export async function deepFolder(args: AnalyzeArgs, run: FolderRun, loop: LoopBase): Promise<number> {
  const folder: FolderAnalysis = emptyFolder(GENERATED_BY, PRICED_ON);
  const jobs = Math.min(args.jobs ?? defaultJobs(), loop.sessions.length);
  const status = jobs > 1 ? await parallelDeep(args, { ...loop, folder, jobs }) : await serialDeep(args, { ...loop, folder });
  return status ?? deepReport(args, run, { folder, skipped: loop.skipped });
}

function serialDeep(args: AnalyzeArgs, loop: LoopBase & { folder: FolderAnalysis}): Promise<number | null> {
  // One registry for the whole run: a call copied into another session's file is counted once, folder-wide.
  const seenCalls = new SeenCalls();
  return eachSession<null>(
    {
      ...loop,
      ahead: 1,
      start: async (session, onProgress) => {
        try {
          const { analysis, parts } = await foldSession(loop.folder, inputsOf(session), { ...sessionOptions(args), seenCalls, signal: loop.signal, onProgress });
          return { value: null, session: analysis, parts };
        } catch (error) {
          return caught(error, session, loop.signal);
        }
      },
      fold: () => undefined,
      ...(args.verbose && args.json !== '-' && { onRows: (parts) => streamRows(loop.io, parts) }),
    },
    loop.skipped,
  );
}

/** --jobs N: sessions analysed on N worker threads, merged in session order (the serial run's record, byte for byte). */
function parallelDeep(args: AnalyzeArgs, loop: LoopBase & { folder: FolderAnalysis; jobs: number }): Promise<number | null> {
  return poolSessions<SessionDone>(loop, {
    jobs: loop.jobs,
    task: (session) => ({ files: taskFiles(session), options: sessionOptions(args) }),
    fold: (done) => mergeFolder(loop.folder, done.folder),
    ...(args.verbose && args.json !== '-' && { onRows: (parts) => streamRows(loop.io, parts) }),
  });
}

function deepReport(args: AnalyzeArgs, run: FolderRun, result: { folder: FolderAnalysis; skipped: readonly string[] }): number {
  const { io } = run;
  const { folder, skipped } = result;
  if (skipped.length > 0) io.stderr(`ctxray analyze: skipped in folder input:\n${skipped.map((line) => `  ${line}`).join('\n')}\n`);
  if (folder.requests === 0) return noRequestFound(io, folder.errors, (file) => folder.fileNames[file] ?? `file ${file + 1}`);
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
  const status = args.json === null ? 0 : writeRecord(args, run, folder);
  return status !== 0 ? status : failOnStatus(args, run, folder);
}

function writeRecord(args: AnalyzeArgs, run: FolderRun, folder: FolderAnalysis): number {
  const { io } = run;
  const json = jsonTextSafe(JSON.stringify(folderRecord(folder), null, 2)) + '\n';
  if (args.json === '-') {
    io.stdout(json);
    for (const error of folder.errors) {
      const name = folder.fileNames[error.file] ?? `file ${error.file + 1}`;
      io.stderr(`ctxray analyze: skipped ${name}${error.line > 0 && error.recordNumber === undefined ? `:${error.line}` : ''}: ${error.message}\n`);
    }
    return 0;
  }
  const failure = run.writeJson(json);
  if (failure === null) return 0;
  io.stderr(`ctxray analyze: ${failure}\n`);
  return 1;
}

function failOnStatus(args: AnalyzeArgs, run: FolderRun, folder: FolderAnalysis): number {
  if (args.failOn === undefined) return 0;
  const threshold = SEVERITY_RANK[args.failOn];
  const meeting = folder.findings.filter((finding) => SEVERITY_RANK[finding.severity] <= threshold);
  if (meeting.length === 0) return 0;
  const count = meeting.reduce((sum, finding) => sum + finding.findings, 0);
  run.io.stderr(`ctxray analyze: --fail-on ${args.failOn}: ${count} finding(s) at least that severe (${meeting.map((f) => f.code).join(', ')})\n`);
  return 2;
}
