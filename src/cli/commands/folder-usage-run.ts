// `ctxray analyze <folder>` by default: the folder's summary from recorded usage alone (src/core/folder/usage-
// folder.ts), so it runs at the speed of reading: in the main thread one session after another with one registry
// of the calls counted, or with --jobs N on N worker threads settled in session order. A copy of a call in a later
// file is dropped either way. --since / --until keep the requests sent in the window; -v and --by print every
// table, each session's row streamed as it settles; the default is one screen.
import { emptyUsageFolder, foldSessionUsage, mergeUsageFolder, type UsageApart, type UsageFolder } from '../../core/folder/usage-folder.ts';
import { SeenCalls } from '../../core/input/seen-calls.ts';
import { wallText, type Window } from '../../core/period/index.ts';
import { PRICED_ON } from '../../core/pricing/table.ts';
import { NODE_FAST_LINES, usageInputs } from '../fs/usage-inputs.ts';
import { renderUsageFolderBrief } from '../report/folder-usage-brief.ts';
import { renderUsageFolderReport } from '../report/folder-usage.ts';
import { periodOf, type AnalyzeArgs } from './analyze-args.ts';
import { poolSessions, taskFiles } from './folder-pool-run.ts';
import { caught, noRequestFound, type FolderRun, eachSession, sessionOptions, streamRows, type LoopBase, type SessionInput, type SessionLoop } from './folder-run.ts';

/**
 * The summary runs in the main thread unless --jobs asks for workers: on the 2-vCPU machine it was measured on, two
 * workers took longer than one thread (docs/performance.md: each worker's start, module load and young heap cost
 * more than the half of the reading it takes over), so the default does not assume a gain it has not shown.
 */
const usageJobs = (args: Pick<AnalyzeArgs, 'jobs'>, sessions: readonly SessionInput[]): number => Math.max(1, Math.min(args.jobs ?? 1, sessions.length));

interface UsageLoop extends LoopBase {
  folder: UsageFolder;
  window: Window | null;
  onRows?: SessionLoop<null>['onRows'];
}

/** In the main thread, one session after another, one registry of the calls counted. */
function serialUsage(args: AnalyzeArgs, run: FolderRun, loop: UsageLoop): Promise<number | null> {
  const seenCalls = new SeenCalls();
  const { folder, window } = loop;
  return eachSession<null>(
    {
      ...loop,
      ahead: 1,
      start: async (session, onProgress) => {
        try {
          const read = await foldSessionUsage(folder, usageInputs(session.files), { ...sessionOptions(args), seenCalls, window, signal: run.signal, onProgress, fastLines: NODE_FAST_LINES });
          return { value: null, session: read.read, parts: read.parts };
        } catch (error) {
          return caught(error, session, run.signal);
        }
      },
      fold: () => undefined,
      ...(loop.onRows !== undefined && { onRows: loop.onRows }),
    },
    loop.skipped,
  );
}

/** Reads every session's recorded usage; returns the exit status. */
export async function usageFolder(args: AnalyzeArgs, run: FolderRun, loop: LoopBase): Promise<number> {
  const folder = emptyUsageFolder();
  const period = periodOf(args);
  const window = period.since === null && period.until === null ? null : { since: period.since, until: period.until };
  const full = args.verbose || period.by !== null;
  const usageLoop: UsageLoop = { ...loop, folder, window, ...(full && { onRows: (parts) => streamRows(run.io, parts) }) };
  const jobs = usageJobs(args, loop.sessions);
  const status =
    jobs > 1
      ? await poolSessions<UsageApart>(usageLoop, {
          jobs,
          task: (session) => ({ files: taskFiles(session), options: sessionOptions(args), usage: { window } }),
          fold: (done) => mergeUsageFolder(folder, done.folder),
          ...(usageLoop.onRows !== undefined && { onRows: usageLoop.onRows }),
        })
      : await serialUsage(args, run, usageLoop);
  return status ?? usageReport(args, run, { folder, skipped: loop.skipped });
}

/** The window as the brief says it, in the zone of the report. */
function windowText(args: AnalyzeArgs): string | null {
  const { since, until, zone } = periodOf(args);
  if (since === null && until === null) return null;
  const from = since === null ? '' : `from ${wallText(since, zone)}`;
  const to = until === null ? '' : `before ${wallText(until, zone)}`;
  return `${[from, to].filter((part) => part !== '').join(' ')} (${zone})`;
}

function usageReport(args: AnalyzeArgs, run: FolderRun, result: { folder: UsageFolder; skipped: readonly string[] }): number {
  const { io } = run;
  const { folder, skipped } = result;
  if (skipped.length > 0) io.stderr(`ctxray analyze: skipped in folder input:\n${skipped.map((line) => `  ${line}`).join('\n')}\n`);
  if (folder.requests === 0) {
    const window = windowText(args);
    return noRequestFound(io, folder.errors, (file) => folder.files[file]?.name ?? `file ${file + 1}`, window === null ? '' : ` sent ${window}`);
  }
  const period = periodOf(args);
  if (args.verbose || period.by !== null) io.stdout(renderUsageFolderReport(folder, { color: run.color, pricedOn: PRICED_ON }));
  else io.stdout(renderUsageFolderBrief(folder, { color: run.color, zone: period.zone, pricedOn: PRICED_ON, window: windowText(args) }));
  return 0;
}
