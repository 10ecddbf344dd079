// `ctxray compare <before> <after>`: two runs side by side. Each side is a log file, a folder or an analysis
// record (`analyze --json`); logs and folders are analysed exactly as `ctxray analyze --json` does (the same
// command, run in-process), so the change of every total is the difference of the two records.
// Exit 0 compared, 1 bad arguments or unreadable input, 2 when a --fail-if-worse metric got worse.
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_BY } from '../../core/analysis/version.ts';
import { ANALYSIS_SCHEMA } from '../../core/analysis/record.ts';
import {
  COMPARE_METRICS,
  CompareInputError,
  compareRecord,
  compareSideOf,
  compareSides,
  isAnalysisRecordHead,
  metricOf,
  RECORD_HEAD_BYTES,
  worseMetrics,
  type CompareMetric,
} from '../../core/compare/index.ts';
import { checkOutputPath, writeOutputSafely } from '../fs/safe-output.ts';
import { parsedArgs, type CliIO, type Command } from '../io.ts';
import { renderCompareReport } from '../report/compare.ts';
import { jsonTextSafe } from '../terminal-safe.ts';
import { analyzeCommand, colorEnabled } from './analyze.ts';

export const COMPARE_USAGE = `usage: ctxray compare <before> <after> [options]

Every headline figure of two runs before → after with the change: requests, tokens, cost (recorded or
simulated, as analyze says), optimized cost, potential savings, cache hit rate, cache reads and writes, what
misses cost, findings; then tokens by category, misses by cause and findings by code.
Each side is a log file, a folder (read as analyze reads it) or an analysis record written by
\`ctxray analyze --json\` (schema ${ANALYSIS_SCHEMA}).

options:
  --json <out>           write the comparison as JSON (schema ctxray.compare/1); '-' writes it to stdout
                         instead of the table
  --fail-if-worse <m>    exit 2 when metric m got worse (repeatable, or comma-separated); metrics:
                         ${COMPARE_METRICS.join(', ')}
                         (hitRate and cacheRead are worse when lower, the rest when higher)
  -h, --help             show this help
exit status: 0 compared, 1 bad arguments or unreadable input, 2 when a --fail-if-worse metric got worse
`;

interface CompareArgs {
  inputs: string[];
  json: string | null;
  failIfWorse: CompareMetric[];
  help: boolean;
}

class UsageError extends Error {}

function parseCompareArgs(argv: readonly string[]): CompareArgs {
  const args: CompareArgs = { inputs: [], json: null, failIfWorse: [], help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = () => {
      const given = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (given === undefined || given === '') throw new UsageError(`${name} needs a value`);
      return given;
    };
    if (name === '-h' || name === '--help') args.help = true;
    else if (name === '--json') {
      if (args.json !== null) throw new UsageError('--json given twice');
      args.json = value();
    } else if (name === '--fail-if-worse') {
      for (const part of value().split(',')) {
        const metric = metricOf(part.trim());
        if (metric === undefined) throw new UsageError(`--fail-if-worse: unknown metric "${part.trim()}" (one of ${COMPARE_METRICS.join(', ')})`);
        if (!args.failIfWorse.includes(metric)) args.failIfWorse.push(metric);
      }
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    else args.inputs.push(arg);
  }
  if (!args.help && args.inputs.length !== 2) throw new UsageError(`give two inputs, before and after (got ${args.inputs.length})`);
  if (args.inputs.includes('-')) throw new UsageError('- (stdin) cannot be a side: give files, folders or records');
  return args;
}

/** Whether a file starts as an analysis record: `analyze --json` writes its schema first. */
function isRecordFile(full: string): boolean {
  const head = Buffer.alloc(RECORD_HEAD_BYTES);
  const fd = fs.openSync(full, 'r');
  try {
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return isAnalysisRecordHead(head.subarray(0, read).toString('utf8'));
  } finally {
    fs.closeSync(fd);
  }
}

/** One side as an analysis record: read as one, or the record `analyze --json -` writes for it. Null when it failed (said). */
async function recordOf(input: string, io: CliIO): Promise<unknown> {
  const full = path.resolve(io.cwd, input);
  let stats: fs.Stats;
  try {
    stats = fs.statSync(full);
  } catch (error) {
    throw new UsageError(`cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (stats.isFile() && isRecordFile(full)) {
    try {
      return JSON.parse(fs.readFileSync(full, 'utf8')) as unknown;
    } catch (error) {
      throw new UsageError(`${input}: not a readable analysis record: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let json = '';
  const code = await analyzeCommand([input, '--json', '-'], { ...io, stdout: (text) => (json += text) });
  if (code !== 0) return null;
  return JSON.parse(json) as unknown;
}

export const compareCommand: Command = async (argv, io) => {
  const args = parsedArgs(io, { name: 'compare', usage: COMPARE_USAGE, usageError: UsageError }, () => parseCompareArgs(argv));
  if (typeof args === 'number') return args;
  const [beforeName, afterName] = args.inputs as [string, string];
  let sides;
  try {
    const beforeRecord = await recordOf(beforeName, io);
    if (beforeRecord === null) return 1;
    const afterRecord = await recordOf(afterName, io);
    if (afterRecord === null) return 1;
    sides = { before: compareSideOf(beforeRecord, beforeName), after: compareSideOf(afterRecord, afterName) };
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof CompareInputError)) throw error;
    io.stderr(`ctxray compare: ${error.message}\n`);
    return 1;
  }
  const comparison = compareSides(sides.before, sides.after);
  if (args.json !== '-') {
    io.stdout(renderCompareReport(comparison, { names: { before: beforeName, after: afterName }, sides, color: colorEnabled(io.env, process.stdout.isTTY === true) }));
  }
  if (args.json !== null) {
    const json = jsonTextSafe(JSON.stringify(compareRecord({ generatedBy: GENERATED_BY, ...sides, comparison }), null, 2)) + '\n';
    if (args.json === '-') io.stdout(json);
    else {
      const failure = writeJson(args.json, args.inputs, io, json);
      if (failure !== null) {
        io.stderr(`ctxray compare: ${failure}\n`);
        return 1;
      }
    }
  }
  const worse = worseMetrics(comparison, args.failIfWorse);
  if (worse.length === 0) return 0;
  io.stderr(`ctxray compare: --fail-if-worse: ${worse.map((row) => `${row.metric} ${row.before ?? 'n/a'} -> ${row.after ?? 'n/a'}`).join(', ')}\n`);
  return 2;
};

function writeJson(target: string, inputs: readonly string[], io: CliIO, data: string): string | null {
  const rules = { cwd: io.cwd, stdinIsInput: false };
  const check = checkOutputPath(target, inputs, rules);
  if (!check.ok) return check.message.replaceAll('--out', '--json');
  const written = writeOutputSafely(target, inputs, data, rules);
  return written.ok ? null : written.message.replaceAll('--out', '--json');
}
