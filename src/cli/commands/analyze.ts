// `ctxray analyze <file...|folder...|->`: the arguments read, prices loaded, the agents' folders found when no path
// is given; then a folder is read a session at a time (analyze-folder.ts) and files are analysed together
// (analyze-files.ts, loaded only then: a folder's summary starts without the full analysis' modules). Exit 0 ok,
// 1 bad arguments or unreadable input, 2 --fail-on met.
import { renderAgentSearch, searchAgentFolders } from '../agent-folders.ts';
import { parsedArgs, type CliIO, type Command } from '../io.ts';
import { loadPricesFile } from '../prices-file.ts';
import { progressReporter, type ProgressReporter } from '../progress.ts';
import { periodOf, type AnalyzeArgs } from './analyze-args.ts';
import { analyzeFolderInputs, FolderUsageError, hasFolderInput, needsDeep } from './analyze-folder.ts';
import { ANALYZE_USAGE, parseAnalyzeArgs, UsageError } from './analyze-parse.ts';
import { colorEnabled, interruptible, refusedJson, writeJson } from './analyze-run.ts';

export type { AnalyzeArgs } from './analyze-args.ts';
export { ANALYZE_USAGE, parseAnalyzeArgs, UsageError } from './analyze-parse.ts';
export { colorEnabled } from './analyze-run.ts';

export const analyzeCommand: Command = async (argv, io) => {
  const args = prepareArgs(argv, io);
  if (typeof args === 'number') return args;
  const stderrIsTerminal = process.stderr.isTTY === true;
  const showProgress = stderrIsTerminal || args.verbose;
  const refused = refusedJson(args, io);
  if (refused !== null) {
    io.stderr(`ctxray analyze: ${refused}\n`);
    return 1;
  }
  if (hasFolderInput(args, io)) return analyzeFolderCommand(args, io, showProgress);
  const { analyzeFiles } = await import('./analyze-files.ts');
  return analyzeFiles(args, io, { progress: showProgress, terminal: stderrIsTerminal });
};

/** The parsed arguments, prices loaded and the agents' folders found when no path is given; or the exit status. */
function prepareArgs(argv: readonly string[], io: CliIO): AnalyzeArgs | number {
  const args = parsedArgs(io, { name: 'analyze', usage: ANALYZE_USAGE, usageError: UsageError }, () => parseAnalyzeArgs(argv));
  if (typeof args === 'number') return args;
  if (args.prices !== undefined) {
    const loaded = loadPricesFile(args.prices, io.cwd);
    if (!loaded.ok) {
      io.stderr(`ctxray analyze: ${loaded.message}\n`);
      return 1;
    }
    args.priceOverrides = loaded.prices;
  }
  if (args.inputs.length === 0) {
    // No path: the agents' own folders, said first (on stderr when stdout carries the JSON record).
    const search = searchAgentFolders(io, args.agent ?? null);
    (args.json === '-' ? io.stderr : io.stdout)(renderAgentSearch(search, { verbose: args.verbose }));
    if (search.found.length === 0) {
      io.stderr(`ctxray analyze: no ${args.agent === undefined ? 'agent' : args.agent} session folder found; give a path (a file, a folder, or - for stdin)\n`);
      return 1;
    }
    args.inputs = search.found.map((folder) => folder.path);
  }
  return args;
}

/**
 * A folder among the inputs: every session read and analysed on its own (analyze-folder.ts). The report draws
 * from the folder's sums, so what needs every request at once is refused: --html (give a session's file) and
 * --calibrate (one count_tokens call for one log).
 */
async function analyzeFolderCommand(args: AnalyzeArgs, io: CliIO, showProgress: boolean): Promise<number> {
  const windowed = periodOf(args).since !== null || periodOf(args).until !== null;
  const refused = args.html !== undefined ? '--html' : args.calibrate === true ? '--calibrate' : null;
  if (refused !== null) {
    io.stderr(`ctxray analyze: ${refused} takes log files, not a folder (a folder is read one session at a time); give a session's file\n`);
    return 1;
  }
  if (windowed && needsDeep(args)) {
    io.stderr("ctxray analyze: --since/--until on a folder take its summary from recorded usage (no --deep, --json or --fail-on); give a session's file for its full analysis in a window\n");
    return 1;
  }
  let progress: ProgressReporter | null = null;
  const cancel = interruptible(io, () => progress?.finish());
  try {
    return await analyzeFolderInputs(args, {
      io,
      signal: cancel.signal,
      progress: (names) => (progress = showProgress ? progressReporter({ write: io.stderr, terminal: process.stderr.isTTY === true, names }) : null),
      writeJson: (json) => writeJson(args, io, json),
      color: colorEnabled(io.env, process.stdout.isTTY === true),
    });
  } catch (error) {
    (progress as ProgressReporter | null)?.finish();
    if (cancel.signal.aborted) {
      io.stderr('ctxray analyze: cancelled\n');
      return 130;
    }
    if (error instanceof FolderUsageError) {
      io.stderr(`ctxray analyze: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    cancel.dispose();
  }
}
