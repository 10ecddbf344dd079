// `ctxray analyze <file...|->`: the files given (with their companions) analysed together — tokens by category per
// request and per file, the model each request is priced as, the cache simulation and findings, the terminal report
// and the --json / --html outputs. Loaded only for files: a folder's summary needs none of it.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { analyzeInput } from '../../core/analysis/analyze.ts';
import { buildRecord } from '../../core/analysis/record.ts';
import type { Analysis } from '../../core/analysis/types.ts';
import { holdsNoRequestsByDesign, unreadableFiles } from '../../core/analysis/unreadable.ts';
import { InputError, WorkLimitError, type InputFile, type ReadProgress } from '../../core/input/index.ts';
import { allUsageOnly } from '../../core/model.ts';
import { SEVERITY_RANK } from '../../core/cache/index.ts';
import { periodTable, periodRecord, type PeriodTable } from '../../core/period/index.ts';
import { renderHtmlReport } from '../../render/report/html.ts';
import { CalibrationError } from '../../node/calibrate.ts';
import { calibrated, calibrationMode, type CalibratedAnalysis } from '../../node/pipeline.ts';
import { companionFiles, describeFsError, lazyFileStream } from '../fs/folder-inputs.ts';
import { stdinBytes, type CliIO } from '../io.ts';
import { progressReporter } from '../progress.ts';
import { renderBrief, renderGroups } from '../report/brief.ts';
import { renderCacheSummary } from '../report/findings-terminal.ts';
import { renderTerminalReport } from '../report/terminal.ts';
import { renderTranscriptReport } from '../report/transcripts.ts';
import { usageWarningLines } from '../report/usage-warnings.ts';
import { jsonTextSafe } from '../terminal-safe.ts';
import { workLimitMessage } from '../work-limits.ts';
import { periodOf, type AnalyzeArgs } from './analyze-args.ts';
import { UsageError } from './analyze-parse.ts';
import { colorEnabled, interruptible, writeJson, writeOutput } from './analyze-run.ts';

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

/** Reads and analyses the files given together; returns the exit status. */
export async function analyzeFiles(args: AnalyzeArgs, io: CliIO, show: { progress: boolean; terminal: boolean }): Promise<number> {
  const read = await readFiles(args, io, show);
  if (typeof read === 'number') return read;
  const { folders } = read;
  let analysis = read.analysis;
  const unreadable = unreadableFiles(analysis, (file) => !folders.indices.has(file));
  if (unreadable.length > 0) {
    io.stderr(`ctxray analyze: unreadable input:\n${unreadable.map((line) => `  ${line}`).join('\n')}\n`);
    return 1;
  }
  // Files with unreadable records are listed by the report already; add the folder's files that held no request.
  const skipped = analysis.files.flatMap((file, i) =>
    folders.indices.has(i) && file.requests === 0 && file.errors === 0 && !holdsNoRequestsByDesign(file) ? [`${file.name}: no request bodies found`] : [],
  );
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
  const period = args.period !== undefined ? periodTable(analysis, args.period) : null;
  if (!jsonToStdout) printReport(args, io, { analysis, period, companions: folders.indices.size > 0 });
  const failure = writeOutputs(args, io, { analysis, period });
  if (failure !== null) return failure;
  return failOnMet(args, analysis, io) ? 2 : 0;
}

/** Reads and analyses the files given (with their companions); or the exit status, the reason said. */
async function readFiles(args: AnalyzeArgs, io: CliIO, show: { progress: boolean; terminal: boolean }): Promise<{ analysis: Analysis; folders: FolderInputs } | number> {
  const folders: FolderInputs = { indices: new Set(), paths: [] };
  const progress = show.progress ? progressReporter({ write: io.stderr, terminal: show.terminal, names: args.inputs.map((input) => (input === '-' ? '(stdin)' : input)) }) : null;
  const cancel = interruptible(io, () => progress?.finish());
  let fileNames: string[] = [];
  try {
    const files = await openInputs(args, io, folders);
    fileNames = files.map((file) => file.name);
    args.folderFiles = folders.paths;
    const analysis = await analyzeInput(files, {
      format: args.format,
      model: args.model,
      prices: args.priceOverrides ?? null,
      signal: cancel.signal,
      ...(args.limits !== undefined && { limits: args.limits }),
      ...(progress !== null && { onProgress: (p: ReadProgress) => progress.update(p) }),
    });
    cancel.signal.throwIfAborted();
    return { analysis, folders };
  } catch (error) {
    progress?.finish(); // before any message, so it does not land on the progress line
    const message = cancel.signal.aborted ? 'cancelled' : readFailure(error, (file) => (args.inputs[file] === '-' ? '(stdin)' : (fileNames[file] ?? `file ${file + 1}`)));
    if (message === null) throw error;
    io.stderr(`ctxray analyze: ${message}\n`);
    return cancel.signal.aborted ? 130 : 1;
  } finally {
    cancel.dispose();
    progress?.finish();
  }
}

/** What a failed read says, or null for an error that is not a read's. */
function readFailure(error: unknown, nameOf: (file: number) => string): string | null {
  if (error instanceof UsageError) return error.message;
  if (error instanceof WorkLimitError) return workLimitMessage(error, nameOf(error.file));
  if (error instanceof InputError) return `unreadable input${error.line > 0 ? ` at line ${error.line}` : ''}: ${error.message}`;
  return null;
}

/** The terminal report: one screen by default, -v every request and table, --by the groups. */
function printReport(args: AnalyzeArgs, io: CliIO, report: { analysis: Analysis; period: PeriodTable | null; companions: boolean }): void {
  const { analysis, period } = report;
  const color = colorEnabled(io.env, process.stdout.isTTY === true);
  if (args.verbose) {
    io.stdout(renderTerminalReport(analysis, { color, verbose: args.verbose }));
    const usageOnly = allUsageOnly(analysis.requests);
    if (analysis.cache) io.stdout(renderCacheSummary(analysis.cache, { models: analysis.modelUse, color, content: args.content === true, verbose: args.verbose, usageOnly }));
    const fileNames = analysis.files.map((file) => file.name);
    // Recorded against simulated means nothing without bodies: the usage-only line already gives the recorded figures.
    if (!usageOnly) io.stdout(renderTranscriptReport(analysis, { color, fileNames, summary: report.companions || fileNames.length > 1 }));
  } else {
    io.stdout(renderBrief(analysis, { color, period: periodOf(args) }));
  }
  if (period !== null && period.by !== null) io.stdout(renderGroups(period, { color }));
}

/** --html and --json; returns 1 when one could not be written (said on stderr), else null. */
function writeOutputs(args: AnalyzeArgs, io: CliIO, result: { analysis: Analysis; period: PeriodTable | null }): number | null {
  const { analysis, period } = result;
  if (args.html !== undefined && analysis.cache) {
    const html = renderHtmlReport(analysis, analysis.cache, { content: args.content === true });
    const failure = writeOutput(args, io, { flag: '--html', target: args.html, data: html });
    if (failure !== null) {
      io.stderr(`ctxray analyze: ${failure}\n`);
      return 1;
    }
  }
  if (args.json === null) return null;
  const record = buildRecord(analysis);
  if (period !== null) record['period'] = periodRecord(period);
  const json = jsonTextSafe(JSON.stringify(record, null, 2)) + '\n';
  if (args.json === '-') {
    io.stdout(json);
    for (const error of analysis.errors) {
      const name = analysis.files[error.file]?.name ?? `file ${error.file + 1}`;
      io.stderr(`ctxray analyze: skipped ${name}${error.line > 0 && error.recordNumber === undefined ? `:${error.line}` : ''}: ${error.message}\n`);
    }
    return null;
  }
  const failure = writeJson(args, io, json);
  if (failure === null) return null;
  io.stderr(`ctxray analyze: ${failure}\n`);
  return 1;
}

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

/** --fail-on: whether a finding is at least that severe (said on stderr, so it shows even with --json -). */
function failOnMet(args: AnalyzeArgs, analysis: Analysis, io: CliIO): boolean {
  if (args.failOn === undefined) return false;
  const threshold = SEVERITY_RANK[args.failOn];
  const meeting = (analysis.findings ?? []).filter((finding) => SEVERITY_RANK[finding.severity] <= threshold);
  if (meeting.length === 0) return false;
  io.stderr(`ctxray analyze: --fail-on ${args.failOn}: ${meeting.length} finding(s) at least that severe (${[...new Set(meeting.map((f) => f.code))].join(', ')})\n`);
  return true;
}
