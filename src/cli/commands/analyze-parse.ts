// The arguments of `ctxray analyze`: its usage text and their parsing, with the located refusal of a bad one
// (UsageError, exit 1 with the usage).
import { FORMAT_OPTIONS, formatOption } from '../../core/formats/wire.ts';
import type { Severity } from '../../core/cache/index.ts';
import { checkZone, GROUPINGS, parseBound, PeriodError } from '../../core/period/index.ts';
import { AGENT_NAMES } from '../agent-folders.ts';
import { applyWorkLimitFlag, WORK_LIMIT_FLAGS, WORK_LIMIT_HELP } from '../work-limits.ts';
import { periodOf, type AnalyzeArgs } from './analyze-args.ts';

type Bounds = { since?: string; until?: string };

export const ANALYZE_USAGE = `usage: ctxray analyze [<file...|folder...|->] [options]

Tokens by category for every request in request logs (Anthropic Messages, OpenAI Chat Completions,
OpenAI Responses; plain or gzipped; one body, a JSON array or JSONL; batch and gateway envelopes).
OpenAI counts are exact for text-only Chat requests; Claude counts are estimates, shown with ≈.

With no path, the folders where the agents ctxray knows keep their sessions are read (Claude Code, Codex,
Gemini CLI, pi, opencode, Cline, Roo, Kilo), honouring CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME,
PI_CODING_AGENT_DIR, XDG_DATA_HOME; the report first says which were found and which were looked for.

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
  --jobs <n>      a folder's sessions on n worker threads (full analyses: default one per core; the summary: default 1)
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
  const bounds: Bounds = {};
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
    if (!applyValueOption(args, { name, value, bounds })) applyFlag(args, name, value, arg);
  }
  if (args.agent !== undefined && args.inputs.length > 0) throw new UsageError('--agent picks the default folders of an agent: give it without paths');
  parsePeriod(args, bounds);
  if (args.html !== undefined && args.html === args.json) throw new UsageError('--html and --json name the same file');
  if (args.inputs.filter((input) => input === '-').length > 1) throw new UsageError('- (stdin) can be given only once');
  return args;
}

/** --tz checked, --since / --until read in it; a window that ends before it starts is refused. */
function parsePeriod(args: AnalyzeArgs, bounds: Bounds): void {
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

/** An option with a value; false when `name` is not one (then it is a flag). */
function applyValueOption(args: AnalyzeArgs, option: { name: string; value: string | undefined; bounds: Bounds }): boolean {
  const apply = VALUE_SETTERS.get(option.name);
  if (apply === undefined) return false;
  apply(args, option.value, option.bounds);
  return true;
}

type ValueOption = (args: AnalyzeArgs, value: string | undefined, bounds: Bounds) => void;

/** The refusal of an option given twice. */
function givenTwice(name: string): never {
  throw new UsageError(`${name} given twice`);
}

/** The value among `choices`, or the option's usage error naming them. */
function choiceOf<T extends string>(name: string, choices: readonly T[], value: string | undefined): T {
  const found = choices.find((choice) => choice === value);
  if (found === undefined) throw new UsageError(`${name} must be one of ${choices.join(', ')} (got "${value ?? ''}")`);
  return found;
}

const VALUE_SETTERS = new Map<string, ValueOption>([
  [
    '--format',
    (args, value) => {
      const format = formatOption(value ?? '');
      if (format === undefined) {
        throw new UsageError(`--format must be one of ${Object.keys(FORMAT_OPTIONS).join(', ')} (got "${value ?? ''}")`);
      }
      args.format = format;
    },
  ],
  ['--model', (args, value) => void (args.model = value ?? null)],
  ['--agent', (args, value) => void (args.agent = choiceOf('--agent', AGENT_NAMES, value))],
  [
    '--prices',
    (args, value) => {
      if (args.prices !== undefined) givenTwice('--prices');
      args.prices = value ?? '';
    },
  ],
  [
    '--json',
    (args, value) => {
      if (args.json !== null) givenTwice('--json');
      args.json = value ?? null;
    },
  ],
  [
    '--html',
    (args, value) => {
      if (args.html !== undefined) givenTwice('--html');
      args.html = value ?? '';
    },
  ],
  ['--fail-on', (args, value) => void (args.failOn = choiceOf('--fail-on', SEVERITIES, value))],
  [
    '--since',
    (args, value, bounds) => {
      bounds.since = value ?? '';
      args.period = periodOf(args);
    },
  ],
  [
    '--until',
    (args, value, bounds) => {
      bounds.until = value ?? '';
      args.period = periodOf(args);
    },
  ],
  ['--tz', (args, value) => void (args.period = { ...periodOf(args), zone: value ?? '' })],
  ['--by', (args, value) => void (args.period = { ...periodOf(args), by: choiceOf('--by', GROUPINGS, value) })],
  [
    '--jobs',
    (args, value) => {
      const jobs = Number(value);
      if (!Number.isInteger(jobs) || jobs < 1 || jobs > MAX_JOBS) {
        throw new UsageError(`--jobs must be a whole number from 1 to ${MAX_JOBS} (got "${value ?? ''}")`);
      }
      args.jobs = jobs;
    },
  ],
]);

/** A flag, or a work limit (--max-*), applied to `args`. */
function applyFlag(args: AnalyzeArgs, name: string, value: string | undefined, arg: string): void {
  switch (name) {
  case '--force':
    args.force = true;
    break;
  case '--calibrate':
    args.calibrate = true;
    break;
  case '--no-usage-calibration':
    args.usageCalibration = false;
    break;
  case '--content':
    args.content = true;
    break;
  case '--deep':
    args.deep = true;
    break;
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
