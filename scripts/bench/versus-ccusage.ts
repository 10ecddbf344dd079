// The folder summary side by side with ccusage, as issue #24 checks it: `ctxray analyze <folder>` (the built CLI,
// lib/bin/ctxray.js) against `ccusage session --offline --json` on the same `~/.claude/projects`-shaped folder of
// real sessions (scripts/bench/real-folder.ts), alternating fresh processes so both see the same load; the figure
// is the ratio of the median wall times (target ≤ 2). The totals of both are compared to the cent and to the token,
// and the CLI's peak RSS is read in one more run of the same read (target ≤ 512 MB). ccusage is not a dependency: the case runs
// when a binary is given (`npm run bench -- --only versus-ccusage --ccusage <path>`; ccusage 20's native binary is
// @ccusage/ccusage-linux-x64/bin/ccusage in an `npm install ccusage` folder).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './median.ts';

export interface VersusCcusage {
  runs: number;
  folderBytes: number;
  ctxrayMedianMs: number;
  ccusageMedianMs: number;
  ratio: number;
  ctxrayPeakRssBytes: number;
  /** Per figure, both tools' totals: cost in USD, tokens as recorded. */
  totals: { figure: string; ctxray: number; ccusage: number; equal: boolean }[];
}


interface Run {
  ms: number;
  stdout: string;
  stderr: string;
}

function timed(command: string, args: string[], env: NodeJS.ProcessEnv, stdio: ('ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe']): Run & { extra: string } {
  const start = process.hrtime.bigint();
  const run = spawnSync(command, args, { env, stdio, maxBuffer: 256 << 20, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${String(run.stderr).slice(0, 400)}`);
  return { ms, stdout: String(run.stdout ?? ''), stderr: String(run.stderr ?? ''), extra: String(run.output[3] ?? '') };
}

/** A run of the built CLI that writes its peak RSS (bytes) to file descriptor 3 as it exits (`node -e code <bin> <args>`: the CLI reads argv from its third entry, as when run as `node <bin> <args>`). */
const PEAK_WRAPPER = (bin: string) =>
  `process.on('exit', () => require('node:fs').writeSync(3, String(process.resourceUsage().maxRSS * 1024))); import(${JSON.stringify(pathToFileURL(bin).href)});`;

interface CcusageTotals {
  totalCost: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

/** The summary's totals, read from the "all sessions:" line of `analyze <folder> -v` (the summary has no record: --json is the deep read). */
interface SummaryTotals {
  cost: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const ALL_SESSIONS = /all sessions: [\d,]+ requests?, input ([\d,]+), output ([\d,]+), cache read ([\d,]+), cache write ([\d,]+), cost \$([\d,.]+)/;

function summaryTotals(report: string): SummaryTotals {
  // Written to a pipe: no colour codes.
  const found = ALL_SESSIONS.exec(report);
  if (found === null) throw new Error('ctxray analyze -v printed no "all sessions:" line');
  const [input, output, cacheRead, cacheWrite, cost] = found.slice(1).map((text) => Number(text!.replace(/,/g, '')));
  return { input: input!, output: output!, cacheRead: cacheRead!, cacheWrite: cacheWrite!, cost: cost! };
}

function compareTotals(mine: SummaryTotals, theirs: CcusageTotals): VersusCcusage['totals'] {
  // The report prints four decimals of a dollar: equal to the cent is what it can show.
  const cents = (usd: number) => Math.round(usd * 100);
  const rows: [string, number, number, boolean][] = [
    ['cost (USD, to the cent)', mine.cost, theirs.totalCost, cents(mine.cost) === cents(theirs.totalCost)],
    ['input tokens', mine.input, theirs.inputTokens, mine.input === theirs.inputTokens],
    ['output tokens', mine.output, theirs.outputTokens, mine.output === theirs.outputTokens],
    ['cache read tokens', mine.cacheRead, theirs.cacheReadTokens, mine.cacheRead === theirs.cacheReadTokens],
    ['cache write tokens', mine.cacheWrite, theirs.cacheCreationTokens, mine.cacheWrite === theirs.cacheCreationTokens],
  ];
  return rows.map(([figure, ctxray, ccusage, equal]) => ({ figure, ctxray, ccusage, equal }));
}

/** `projects`: the folder ccusage reads as `<CLAUDE_CONFIG_DIR>/projects`. */
export function measureVersusCcusage(root: string, ccusage: string, projects: string, folderBytes: number, runs: number, log: (line: string) => void): VersusCcusage {
  const bin = join(root, 'lib/bin/ctxray.js');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build:lib\` first`);
  // ccusage reads CLAUDE_CONFIG_DIR/projects; HOME is pointed there too so no other history is found.
  const config = dirname(projects);
  const ccusageEnv = { ...process.env, CLAUDE_CONFIG_DIR: config, HOME: config };
  const ctxrayArgs = [bin, 'analyze', projects];
  const ccusageArgs = ['session', '--offline', '--json'];
  log(`  versus-ccusage: ${runs} alternating runs each ...`);
  // One untimed run of each warms the file cache.
  const theirs = JSON.parse(timed(ccusage, ccusageArgs, ccusageEnv).stdout) as { totals: CcusageTotals };
  // The totals and the peak RSS from one more run of the same read (-v prints the totals line).
  const peak = timed(process.execPath, ['-e', PEAK_WRAPPER(bin), bin, 'analyze', projects, '-v'], process.env, ['ignore', 'pipe', 'pipe', 'pipe']);
  const mine = summaryTotals(peak.stdout);
  const ctxrayMs: number[] = [];
  const ccusageMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    ctxrayMs.push(timed(process.execPath, ctxrayArgs, process.env).ms);
    ccusageMs.push(timed(ccusage, ccusageArgs, ccusageEnv).ms);
  }
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const ctxrayMedianMs = median(ctxrayMs);
  const ccusageMedianMs = median(ccusageMs);
  return {
    runs,
    folderBytes,
    ctxrayMedianMs: round(ctxrayMedianMs),
    ccusageMedianMs: round(ccusageMedianMs),
    ratio: Math.round((ctxrayMedianMs / ccusageMedianMs) * 100) / 100,
    ctxrayPeakRssBytes: Number(peak.extra),
    totals: compareTotals(mine, theirs.totals),
  };
}

export function printVersusCcusage(result: VersusCcusage): void {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  console.log(
    `\nsummary vs ccusage (real-session folder, ${mb(result.folderBytes)} MB; median of ${result.runs} alternating runs): ` +
      `ctxray analyze ${result.ctxrayMedianMs} ms, ccusage session --offline --json ${result.ccusageMedianMs} ms, ratio ${result.ratio.toFixed(2)} (target ≤ 2); ` +
      `ctxray peak RSS ${mb(result.ctxrayPeakRssBytes)} MB (target ≤ 512)`,
  );
  const shown = (row: VersusCcusage['totals'][number], value: number) => (row.figure.startsWith('cost') ? value.toFixed(4) : String(value));
  for (const row of result.totals) console.log(`  ${row.figure.padEnd(24)} ctxray ${shown(row, row.ctxray).padStart(14)}  ccusage ${shown(row, row.ccusage).padStart(14)}  ${row.equal ? 'equal' : 'DIFFER'}`);
}
