// `ctxray analyze <file...|->`: tokens by category per request and per file, the model each request is priced
// as, and optionally the versioned JSON record. Exit 0 ok, 1 bad arguments or unreadable input.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { analyzeInput } from '../../core/analysis/analyze.ts';
import { buildRecord } from '../../core/analysis/record.ts';
import type { Analysis } from '../../core/analysis/types.ts';
import { holdsNoRequestsByDesign, unreadableFiles } from '../../core/analysis/unreadable.ts';
import { InputError, WorkLimitError, type InputFile, type ReadProgress } from '../../core/input/index.ts';
import { applyWorkLimitFlag, WORK_LIMIT_FLAGS, WORK_LIMIT_HELP, workLimitMessage } from '../work-limits.ts';
import { progressReporter, type ProgressReporter } from '../progress.ts';
import { FORMAT_OPTIONS, formatOption } from '../../core/formats/wire.ts';
import { checkOutputPath, tempPathBeside, writeFlushed, writeOutputSafely } from '../fs/safe-output.ts';
import { stdinBytes, type CliIO, type Command } from '../io.ts';
import { CalibrationError } from '../../node/calibrate.ts';
import { calibrated, calibrationMode, type CalibratedAnalysis } from '../../node/pipeline.ts';
import { usageWarningLines } from '../report/usage-warnings.ts';
import { renderTerminalReport } from '../report/terminal.ts';
import { SEVERITY_RANK, type Severity } from '../../core/cache/index.ts';
import { renderCacheSummary } from '../report/findings-terminal.ts';
import { renderHtmlReport } from '../../render/report/html.ts';
import { renderTranscriptReport } from '../report/transcripts.ts';
import { companionFiles, describeFsError, lazyFileStream } from '../fs/folder-inputs.ts';
import { analyzeFolderInputs, FolderUsageError, hasFolderInput, needsDeep } from './analyze-folder.ts';
import { jsonTextSafe } from '../terminal-safe.ts';
import { checkZone, GROUPINGS, parseBound, PeriodError, periodTable, periodRecord } from '../../core/period/index.ts';
import { renderBrief, renderGroups } from '../report/brief.ts';
import { periodOf, type AnalyzeArgs } from './analyze-args.ts';
import { loadPricesFile } from '../prices-file.ts';
import { AGENT_NAMES, renderAgentSearch, searchAgentFolders } from '../agent-folders.ts';
import type { AgentId } from '../../core/agents/locations.ts';

export type { AnalyzeArgs } from './analyze-args.ts';

export const ANALYZE_USAGE = `usage: ctxray analyze [<file...|folder...|->] [options]

Tokens by category for every request in request logs (Anthropic Messages, OpenAI Chat Completions,
OpenAI Responses; plain or gzipped; one body, a JSON array or JSONL; batch and gateway envelopes).
OpenAI counts are exact for text-only Chat requests; Claude counts are estimates, shown with ≈.

With no path, the folders where the agents ctxray knows keep their sessions are read (Claude Code, Codex,
Gemini CLI, pi, Cline, Roo, Kilo; opencode is named but not read), honouring CLAUDE_CONFIG_DIR, CODEX_HOME,
GEMINI_CLI_HOME, PI_CODING_AGENT_DIR; the report first says which were found and which were looked for.

options:
  --agent <name>  with no path: only this agent's folders (${AGENT_NAMES.join(', ')})
  --format <f>    anthropic | openai-chat | openai-responses | openai | auto (default: auto, per file)
                  (openai = openai-chat)
  --model <id>    price and tokenize every request as this model instead of the one it names
  --prices <file> negotiated rates (JSON, schema ctxray.prices/1, docs/pricing.md) for the models it names
  --no-usage-calibration
                  keep the plain Claude estimates when the log records usage (by default they are rescaled
                  by the median recorded ÷ estimated prompt of its requests, offline, and the report says so)
  --calibrate     count the largest Claude request exactly with Anthropic's count_tokens endpoint (one
                  call; reads ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL when set) and rescale every
                  Claude estimate by exact ÷ estimate
  --json <out>    also write the analysis as JSON (schema ctxray.analysis/2); '-' writes it to stdout
                  instead of the summary
  --html <out>    also write a self-contained HTML report (findings, treemap, cache table, diffs; no script)
  --content       show tool names and block excerpts in the terminal findings and the HTML report
  --fail-on <s>   exit 2 when a finding is at least this severe: error | warning | info
  --force         replace an existing --json or --html file (inputs are never overwritten)
  --since <t>     only requests at or after t: a date (2026-01-16), a wall time (2026-01-16T11:00, in --tz),
                  an ISO time with its offset (2026-01-16T11:00Z) or an age (30m, 12h, 7d, 2w)
  --until <t>     only requests before t (a bare date includes that day); --json gets a period section
  --tz <zone>     IANA zone of the times, days, weeks and months shown (default: this machine's)
  --by <g>        a row per group: session | project | day | week | month | model
  --deep          a folder: analyse every session in full (findings, miss causes, token categories; as
                  --json and --fail-on do) instead of the summary from recorded usage alone
  --jobs <n>      a folder's full analyses on n worker threads (default: one per available core)
  -v, --verbose   the full report: every request with its segments, overhead split and notes, the cache and
                  transcript tables (the default is one screen); reading progress on stderr (shown anyway when
                  stderr is a terminal)
  -h, --help      show this help

work limits (a read that reaches one stops with its code, e.g. LIMIT_RECORDS, and exits 1; raise only):
${WORK_LIMIT_HELP}

A folder is read recursively (.jsonl, .json, .gz, in sorted order), one session at a time (a session's file
with its subagents' transcripts, a task's two parts, any other file alone), so memory stays bounded by the
largest session; its unreadable files are reported and skipped. By default it gives one screen from recorded
usage alone, each line read once (Claude Code sessions; other agents' are analysed in full), --since/--until
keeping the requests sent in the window; -v (or --by) every table, each session's row printed as it finishes.
--deep, --json and --fail-on analyse every session in full, on --jobs worker threads: totals per model, the
costliest conversations, misses by cause and findings by code; the --json has sessions[] and no per-request
rows (--html and --calibrate take a session's file). Requests with
recorded usage (agent transcripts) add observed vs simulated; several files add the same tables.
'-' as an input reads standard input. NO_COLOR turns colors off (they are off when stdout is not a terminal).
exit status: 0 ok, 1 bad arguments, unreadable input, a work limit reached or a failed --calibrate,
2 when --fail-on is met, 130 when interrupted (Ctrl-C) while reading
`;

/** More worker threads than this only add memory: each holds a session. */
const MAX_JOBS = 64;

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

export class UsageError extends Error {}

const VALUE_OPTIONS = new Set(['--agent', '--format', '--model', '--prices', '--json', '--html', '--fail-on', '--since', '--until', '--tz', '--by', '--jobs', ...Object.keys(WORK_LIMIT_FLAGS)]);

export function parseAnalyzeArgs(argv: readonly string[]): AnalyzeArgs {
  const args: AnalyzeArgs = { inputs: [], format: 'auto', model: null, json: null, force: false, verbose: false, help: false };
  const bounds: { since?: string; until?: string } = {};
  let optionsEnded = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (optionsEnded || arg === '-' || !arg.startsWith('-')) {
      args.inputs.push(arg);
      continue;
    }
    if (arg === '--') {
      optionsEnded = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    let value: string | undefined;
    if (VALUE_OPTIONS.has(name)) {
      value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
    } else if (eq > 0) {
      throw new UsageError(`${name} takes no value`);
    }
    switch (name) {
      case '--format': {
        const format = formatOption(value ?? '');
        if (format === undefined) {
          throw new UsageError(`--format must be one of ${Object.keys(FORMAT_OPTIONS).join(', ')} (got "${value ?? ''}")`);
        }
        args.format = format;
        break;
      }
      case '--model':
        args.model = value ?? null;
        break;
      case '--agent':
        if (!AGENT_NAMES.includes(value as AgentId)) throw new UsageError(`--agent must be one of ${AGENT_NAMES.join(', ')} (got "${value ?? ''}")`);
        args.agent = value as AgentId;
        break;
      case '--prices':
        if (args.prices !== undefined) throw new UsageError('--prices given twice');
        args.prices = value ?? '';
        break;
      case '--json':
        if (args.json !== null) throw new UsageError('--json given twice');
        args.json = value ?? null;
        break;
      case '--force':
        args.force = true;
        break;
      case '--calibrate':
        args.calibrate = true;
        break;
      case '--no-usage-calibration':
        args.usageCalibration = false;
        break;
      case '--html':
        if (args.html !== undefined) throw new UsageError('--html given twice');
        args.html = value ?? '';
        break;
      case '--content':
        args.content = true;
        break;
      case '--fail-on': {
        const severity = SEVERITIES.find((s) => s === value);
        if (severity === undefined) throw new UsageError(`--fail-on must be one of ${SEVERITIES.join(', ')} (got "${value ?? ''}")`);
        args.failOn = severity;
        break;
      }
      case '--since':
      case '--until':
        bounds[name === '--since' ? 'since' : 'until'] = value ?? '';
        args.period = periodOf(args);
        break;
      case '--tz':
        args.period = { ...periodOf(args), zone: value ?? '' };
        break;
      case '--by': {
        const by = GROUPINGS.find((g) => g === value);
        if (by === undefined) throw new UsageError(`--by must be one of ${GROUPINGS.join(', ')} (got "${value ?? ''}")`);
        args.period = { ...periodOf(args), by };
        break;
      }
      case '--deep':
        args.deep = true;
        break;
      case '--jobs': {
        const jobs = Number(value);
        if (!Number.isInteger(jobs) || jobs < 1 || jobs > MAX_JOBS) throw new UsageError(`--jobs must be a whole number from 1 to ${MAX_JOBS} (got "${value ?? ''}")`);
        args.jobs = jobs;
        break;
      }
      case '-v':
      case '--verbose':
        args.verbose = true;
        break;
      case '-h':
      case '--help':
        args.help = true;
        break;
      default: {
        const limits = args.limits ?? {};
        const applied = applyWorkLimitFlag(name, value, limits);
        if (applied === null) throw new UsageError(`unknown option ${arg}`);
        if (applied.error !== null) throw new UsageError(applied.error);
        args.limits = limits;
      }
    }
  }
  if (args.agent !== undefined && args.inputs.length > 0) throw new UsageError('--agent picks the default folders of an agent: give it without paths');
  parsePeriod(args, bounds);
  if (args.html !== undefined && args.html === args.json) throw new UsageError('--html and --json name the same file');
  if (args.inputs.filter((input) => input === '-').length > 1) throw new UsageError('- (stdin) can be given only once');
  return args;
}

/** --tz checked, --since / --until read in it; a window that ends before it starts is refused. */
function parsePeriod(args: AnalyzeArgs, bounds: { since?: string; until?: string }): void {
  if (args.period === undefined) return;
  const zone = args.period.zone;
  try {
    checkZone(zone);
    const now = Date.now();
    if (bounds.since !== undefined) args.period.since = parseBound(bounds.since, { zone, now, end: false });
    if (bounds.until !== undefined) args.period.until = parseBound(bounds.until, { zone, now, end: true });
  } catch (error) {
    if (!(error instanceof PeriodError)) throw error;
    throw new UsageError(`--since/--until/--tz: ${error.message}`);
  }
  const { since, until } = args.period;
  if (since !== null && until !== null && until <= since) throw new UsageError('--until must be later than --since');
}

/** Which opened files were found beside a named one (unreadable ones are skipped, not fatal). */
interface FolderInputs {
  indices: Set<number>;
  /** Full paths of those files. */
  paths: string[];
}

/** Opens each input: stdin and files are streamed (a log can be hundreds of MB); folders are read elsewhere (analyze-folder.ts). */
async function openInputs(args: AnalyzeArgs, io: CliIO, folders: FolderInputs): Promise<InputFile[]> {
  const files: InputFile[] = [];
  const given = new Set(args.inputs.filter((input) => input !== '-').map((input) => path.resolve(io.cwd, input)));
  for (const input of args.inputs) {
    if (input === '-') {
      files.push({ name: '(stdin)', bytes: await stdinBytes(io) });
      continue;
    }
    const full = path.resolve(io.cwd, input);
    let stats: fs.Stats;
    try {
      stats = fs.statSync(full);
    } catch (error) {
      throw new UsageError(`cannot read ${input}: ${describeFsError(error)}`);
    }
    try {
      fs.accessSync(full, fs.constants.R_OK);
    } catch (error) {
      throw new UsageError(`cannot read ${input}: ${describeFsError(error)}`);
    }
    const stream = Readable.toWeb(fs.createReadStream(full)) as ReadableStream<Uint8Array>;
    files.push({ name: input, bytes: stream, size: stats.size, folderPath: path.basename(full) });
    // A session's subagents and a task's other half are read with it, unless given as inputs themselves.
    for (const companion of companionFiles(full, input)) {
      if (given.has(companion.full)) continue;
      given.add(companion.full);
      folders.indices.add(files.length);
      folders.paths.push(companion.full);
      files.push({ name: companion.name, bytes: lazyFileStream(companion.full), size: companion.size, folderPath: relativePath(path.dirname(full), companion.full) });
    }
  }
  return files;
}

/** `file` relative to `folder`, with `/` separators whatever the platform (the record's one form of a path). */
function relativePath(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/');
}

/** Writes the JSON record; refuses inputs always and existing files unless --force. Returns an error or null. */
function writeJson(args: AnalyzeArgs, io: CliIO, json: string): string | null {
  return writeOutput('--json', args.json ?? '', args, io, json);
}

/** Writes one output file (--json, --html) under the same rules. Returns an error or null. */
function writeOutput(flag: string, target: string, args: AnalyzeArgs, io: CliIO, data: string): string | null {
  const inputPaths = [...args.inputs.filter((input) => input !== '-'), ...(args.folderFiles ?? [])];
  const rules = { cwd: io.cwd, stdinIsInput: args.inputs.includes('-') };
  const check = checkOutputPath(target, inputPaths, rules);
  if (!check.ok && !(args.force && check.code === 'OUTPUT_EXISTS')) {
    const hint = check.code === 'OUTPUT_EXISTS' ? ' (pass --force to replace it)' : '';
    return check.message.replaceAll('--out', flag) + hint;
  }
  if (check.ok) {
    const written = writeOutputSafely(target, inputPaths, data, rules);
    return written.ok ? null : written.message.replaceAll('--out', flag);
  }
  return replaceFile(path.resolve(io.cwd, target), data, flag);
}

/** --force: write a temp file beside the target, then rename over it, so a failed write leaves nothing half-written. */
function replaceFile(destination: string, data: string, flag: string): string | null {
  const stats = fs.lstatSync(destination);
  if (!stats.isFile()) return `${flag} exists and is not a regular file; it was not replaced`;
  const temp = tempPathBeside(destination);
  try {
    writeFlushed(temp, data);
    fs.renameSync(temp, destination);
    return null;
  } catch (error) {
    fs.rmSync(temp, { force: true });
    return `could not replace the ${flag} file (${describeFsError(error)}); it was left as it was`;
  }
}

/** Color only on a terminal, never when NO_COLOR is set to anything non-empty (no-color.org) or TERM=dumb. */
export function colorEnabled(env: CliIO['env'], stdoutIsTerminal: boolean): boolean {
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  return stdoutIsTerminal && env.TERM !== 'dumb';
}

export const analyzeCommand: Command = async (argv, io) => {
  let args: AnalyzeArgs;
  try {
    args = parseAnalyzeArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`ctxray analyze: ${error.message}\n\n${ANALYZE_USAGE}`);
    return 1;
  }
  if (args.help) {
    io.stdout(ANALYZE_USAGE);
    return 0;
  }

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
  const stderrIsTerminal = process.stderr.isTTY === true;
  const showProgress = stderrIsTerminal || args.verbose;
  if (hasFolderInput(args, io)) return analyzeFolderCommand(args, io, showProgress);

  let analysis: Analysis;
  const folders: FolderInputs = { indices: new Set(), paths: [] };
  const progress = showProgress
    ? progressReporter({ write: io.stderr, terminal: stderrIsTerminal, names: args.inputs.map((input) => (input === '-' ? '(stdin)' : input)) })
    : null;
  const cancel = interruptible(io, () => progress?.finish());
  let fileNames: string[] = [];
  try {
    const files = await openInputs(args, io, folders);
    fileNames = files.map((file) => file.name);
    args.folderFiles = folders.paths;
    analysis = await analyzeInput(files, {
      format: args.format,
      model: args.model,
      prices: args.priceOverrides ?? null,
      signal: cancel.signal,
      ...(args.limits !== undefined && { limits: args.limits }),
      ...(progress !== null && { onProgress: (p: ReadProgress) => progress.update(p) }),
    });
    cancel.signal.throwIfAborted();
  } catch (error) {
    progress?.finish(); // before any message, so it does not land on the progress line
    if (cancel.signal.aborted) {
      io.stderr('ctxray analyze: cancelled\n');
      return 130;
    }
    if (error instanceof UsageError) {
      io.stderr(`ctxray analyze: ${error.message}\n`);
      return 1;
    }
    if (error instanceof WorkLimitError) {
      const name = args.inputs[error.file] === '-' ? '(stdin)' : (fileNames[error.file] ?? `file ${error.file + 1}`);
      io.stderr(`ctxray analyze: ${workLimitMessage(error, name)}\n`);
      return 1;
    }
    if (error instanceof InputError) {
      io.stderr(`ctxray analyze: unreadable input${error.line > 0 ? ` at line ${error.line}` : ''}: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    cancel.dispose();
    progress?.finish();
  }

  const unreadable = unreadableFiles(analysis, (file) => !folders.indices.has(file));
  if (unreadable.length > 0) {
    io.stderr(`ctxray analyze: unreadable input:\n${unreadable.map((line) => `  ${line}`).join('\n')}\n`);
    return 1;
  }
  // Files with unreadable records are listed by the report already; add the folder's files that held no request.
  const empty = analysis.files.flatMap((file, i) =>
    folders.indices.has(i) && file.requests === 0 && file.errors === 0 && !holdsNoRequestsByDesign(file) ? [`${file.name}: no request bodies found`] : [],
  );
  const skipped = empty;
  if (skipped.length > 0) io.stderr(`ctxray analyze: skipped in folder input:\n${skipped.map((line) => `  ${line}`).join('\n')}\n`);
  if (analysis.requests.length === 0) {
    io.stderr('ctxray analyze: no request found in the folder input\n');
    return 1;
  }

  const jsonToStdout = args.json === '-';
  const mode = calibrationMode({ countTokens: args.calibrate === true, usageCalibration: args.usageCalibration !== false });
  let result: CalibratedAnalysis;
  try {
    result = await calibrated(analysis, mode, io.env);
  } catch (error) {
    if (!(error instanceof CalibrationError)) throw error;
    io.stderr(`ctxray analyze: ${error.message}\n`);
    return 1;
  }
  analysis = result.analysis;
  const note = calibrationNote(result);
  if (note !== null) {
    // Recorded usage beside the requests measures the estimate: applied by default, said so, switchable off.
    if (jsonToStdout) io.stderr(`ctxray analyze: ${note}`);
    else io.stdout(note);
  }
  for (const line of usageWarningLines(analysis)) io.stderr(`ctxray analyze: warning: ${line}\n`);
  const color = colorEnabled(io.env, process.stdout.isTTY === true);
  if (!jsonToStdout && args.verbose) {
    io.stdout(renderTerminalReport(analysis, { color, verbose: args.verbose }));
    const usageOnly = analysis.requests.length > 0 && analysis.requests.every((request) => request.notes.some((n) => n.code === 'usage_only'));
    if (analysis.cache) io.stdout(renderCacheSummary(analysis.cache, { models: analysis.modelUse, color, content: args.content === true, verbose: args.verbose, usageOnly }));
    const fileNames = analysis.files.map((file) => file.name);
    // Recorded against simulated means nothing without bodies: the usage-only line already gives the recorded figures.
    if (!usageOnly) io.stdout(renderTranscriptReport(analysis, { color, fileNames, summary: folders.indices.size > 0 || fileNames.length > 1 }));
  } else if (!jsonToStdout) {
    io.stdout(renderBrief(analysis, { color, period: periodOf(args) }));
  }
  const period = args.period !== undefined ? periodTable(analysis, args.period) : null;
  if (period !== null && period.by !== null && !jsonToStdout) io.stdout(renderGroups(period, { color }));
  if (args.html !== undefined && analysis.cache) {
    const failure = writeOutput('--html', args.html, args, io, renderHtmlReport(analysis, analysis.cache, { content: args.content === true }));
    if (failure !== null) {
      io.stderr(`ctxray analyze: ${failure}\n`);
      return 1;
    }
  }
  if (args.json !== null) {
    const record = buildRecord(analysis);
    if (period !== null) record['period'] = periodRecord(period);
    const json = jsonTextSafe(JSON.stringify(record, null, 2)) + '\n';
    if (jsonToStdout) {
      io.stdout(json);
      for (const error of analysis.errors) {
        const name = analysis.files[error.file]?.name ?? `file ${error.file + 1}`;
        io.stderr(`ctxray analyze: skipped ${name}${error.line > 0 && error.recordNumber === undefined ? `:${error.line}` : ''}: ${error.message}\n`);
      }
    } else {
      const failure = writeJson(args, io, json);
      if (failure !== null) {
        io.stderr(`ctxray analyze: ${failure}\n`);
        return 1;
      }
    }
  }
  return failOnMet(args, analysis, io) ? 2 : 0;
};

/** The line that says how the estimates were calibrated, or null when they were not. */
function calibrationNote({ analysis, fromUsage, counted }: CalibratedAnalysis): string | null {
  if (fromUsage !== null) {
    return (
      `calibrated Claude estimates on this log's recorded usage: ×${fromUsage.factor.toFixed(4)} (median over ` +
      `${fromUsage.requests} request(s); --no-usage-calibration keeps the plain estimates)\n`
    );
  }
  if (counted === null) return null;
  const line = analysis.requests[counted.requestIndex]?.line ?? 0;
  return (
    `calibrated Claude estimates with count_tokens: ${counted.exact} tokens for the request at line ${line} ` +
    `(estimated ≈${counted.estimated}), factor ${counted.calibration.factor.toFixed(4)}\n`
  );
}

/**
 * Ctrl-C while reading stops the read (the file streams are cancelled) and exits 130 instead of dying mid-write.
 * A second Ctrl-C exits at once: a read waiting on stdin or on a pipe that sends nothing more never sees the abort.
 */
function interruptible(io: CliIO, finishProgress: () => void): { signal: AbortSignal; dispose: () => void } {
  const cancel = new AbortController();
  const onInterrupt = () => {
    if (!cancel.signal.aborted) {
      cancel.abort();
      return;
    }
    finishProgress();
    io.stderr('ctxray analyze: cancelled\n');
    // process.exit would wait for a read still blocked in a pipe that sends nothing more (Node joins its I/O
    // threads on exit); dying by SIGINT itself does not, and shells report it as status 130.
    process.removeListener('SIGINT', onInterrupt);
    process.kill(process.pid, 'SIGINT');
  };
  process.on('SIGINT', onInterrupt);
  return { signal: cancel.signal, dispose: () => process.removeListener('SIGINT', onInterrupt) };
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

/** --fail-on: whether a finding is at least that severe (said on stderr, so it shows even with --json -). */
function failOnMet(args: AnalyzeArgs, analysis: Analysis, io: CliIO): boolean {
  if (args.failOn === undefined) return false;
  const threshold = SEVERITY_RANK[args.failOn];
  const meeting = (analysis.findings ?? []).filter((finding) => SEVERITY_RANK[finding.severity] <= threshold);
  if (meeting.length === 0) return false;
  io.stderr(`ctxray analyze: --fail-on ${args.failOn}: ${meeting.length} finding(s) at least that severe (${[...new Set(meeting.map((f) => f.code))].join(', ')})\n`);
  return true;
}
