// npm run bench [-- --json <file>] [--runs N] [--gateway-mb M] [--growth-mb M] [--folder-sessions N] [--folder-mb M]
//   [--folder-call-kb K]
//   [--only <case,...>] [--ccusage <ccusage binary>]
// Times the full analysis on synthetic inputs against a floor measured in the same run (decode + JSON.parse of
// every record + tokenizing each distinct text once). Floor and analysis runs alternate in one process so both see
// the same load; peak RSS comes from a separate process that streams the file once, as the CLI does.
// The cold-start case packs and installs the package, then times `node <installed bin> --version` against
// `node -e 0`. The browser case (scripts/bench/browser.ts) times the built app in Chromium: switching requests and
// panels on 200 and 28,000 requests, and the first render of the 28,000-request gateway log against the CLI.
// --only runs the named cases: analysis case names (`pi-session-real` and `claude-projects-real-summary` when
//   ../shared/fixtures is present), `growth`,
//   `scaling` (scripts/bench/scaling.ts), `cold-start`, `browser`, `versus-ccusage` (the built CLI's folder summary
//   against a ccusage binary given by --ccusage, on the real-session folder: scripts/bench/versus-ccusage.ts; skipped
//   without one); `claude-projects-1000-2gb` (the issue's 2 GB folder) runs only when named.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchInputs, claudeProjectsFolderInput, gatewayConversationsInput, growthInputs, type BenchInput } from './bench/inputs.ts';
import { browserBench, type BrowserBench } from './bench/browser.ts';
import { measureColdStart, type ColdStart } from './bench/cold-start.ts';
import { runCase as runCaseIn } from './bench/run-case.ts';
import { measureScaling, printScaling, type ScalingResult } from './bench/scaling.ts';
import { realFolderInput } from './bench/real-folder.ts';
import { measureVersusCcusage, printVersusCcusage, type VersusCcusage } from './bench/versus-ccusage.ts';
import { median } from './bench/median.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const runs = Number(option('--runs', '5'));
const jsonOut = option('--json', '');
const gatewayMb = Number(option('--gateway-mb', '200'));
const growthMb = Number(option('--growth-mb', '6'));
// The folder case: 1,000 synthetic Claude Code sessions; 2,000 MB is the issue's size, the default is a tenth of it.
const folderSessions = Number(option('--folder-sessions', '1000'));
const folderMb = Number(option('--folder-mb', '200'));
// Size of one call in the generated sessions (KB).
const folderCallKb = Number(option('--folder-call-kb', '6'));
// The issue's own case, 1,000 sessions / 2,000 MB, runs only when named (--only claude-projects-1000-2gb): its
// generation and runs take many minutes. Its sessions are as dense as a real one (a 2.6 MB Claude Code session
// holds 132 calls): ~100 calls of ~20 KB each.
const ISSUE_FOLDER = 'claude-projects-1000-2gb';
const benchDir = join(root, '.bench');
const REAL_SUMMARY = 'claude-projects-real-summary';
const realSummary = (): BenchInput[] => {
  const folder = realFolderInput(root, benchDir);
  return folder === null ? [] : [{ name: REAL_SUMMARY, path: folder.path, bytes: folder.bytes, requests: 0, speed: 'summary' }];
};
const ccusageBin = option('--ccusage', '');
const only = option('--only', '').split(',').filter(Boolean);
const selected = (name: string) => only.length === 0 || only.includes(name);

interface Timing {
  timesMs: number[];
  cpuMs: number[];
}
interface PairedRun {
  floor: Timing;
  analysis: Timing;
  requests: number;
}
interface StreamRun extends Timing {
  peakRssBytes: number;
  requests: number;
}

const runCase = <T>(mode: 'paired' | 'analysis', file: string, count: number, speed = 'full'): T => runCaseIn<T>(root, mode, file, count, speed);


interface CaseResult {
  name: string;
  bytes: number;
  requests: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  floorMs: number;
  ratio: number;
  peakRssBytes: number;
  /** CPU time (user + system) of the same runs: steadier than wall time on a machine shared with other jobs. */
  cpuMedianMs: number;
  floorCpuMs: number;
  cpuRatio: number;
}

function measure(input: BenchInput, count: number): CaseResult {
  const speed = input.speed ?? 'full';
  const paired = runCase<PairedRun>('paired', input.path, count, speed);
  const streamed = runCase<StreamRun>('analysis', input.path, 1, speed);
  const medianMs = median(paired.analysis.timesMs);
  const floorMs = median(paired.floor.timesMs);
  const cpuMedianMs = median(paired.analysis.cpuMs);
  const floorCpuMs = median(paired.floor.cpuMs);
  return {
    name: input.name,
    bytes: input.bytes,
    requests: paired.requests,
    medianMs: round(medianMs),
    minMs: round(Math.min(...paired.analysis.timesMs)),
    maxMs: round(Math.max(...paired.analysis.timesMs)),
    floorMs: round(floorMs),
    ratio: Math.round((medianMs / floorMs) * 100) / 100,
    peakRssBytes: streamed.peakRssBytes,
    cpuMedianMs: round(cpuMedianMs),
    floorCpuMs: round(floorCpuMs),
    cpuRatio: Math.round((cpuMedianMs / floorCpuMs) * 100) / 100,
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

const flagship: BenchInput = { name: 'flagship-24', path: join(root, 'examples/synthetic-anthropic-agent-cache-bust.jsonl.gz'), bytes: 0, requests: 24 };
const { statSync } = await import('node:fs');
flagship.bytes = statSync(flagship.path).size;

const NON_ANALYSIS = new Set(['growth', 'cold-start', 'browser', 'scaling', 'versus-ccusage']);
const analysisCases = only.length === 0 || only.some((name) => !NON_ANALYSIS.has(name));
// A real 2.4 MB pi session (../shared/fixtures/real, not in the repository): measured only where it is present.
const piFixture = join(root, '../shared/fixtures/real/transcripts/pi/before-compaction.jsonl');
const piSession: BenchInput[] = existsSync(piFixture) ? [{ name: 'pi-session-real', path: piFixture, bytes: statSync(piFixture).size, requests: 484 }] : [];
if (analysisCases || selected('growth')) console.error(`generating inputs in ${benchDir} (first run only) ...`);
const inputs = analysisCases
  ? [
      flagship,
      ...(await benchInputs(benchDir, gatewayMb)),
      ...piSession,
      ...(selected(`claude-projects-${folderSessions}`) ? [await claudeProjectsFolderInput(benchDir, folderSessions, folderMb, folderCallKb)] : []),
      // The same folder's summary from recorded usage alone, against reading it and JSON.parse of every line.
      ...(selected(`claude-projects-summary-${folderSessions}`)
        ? [{ ...(await claudeProjectsFolderInput(benchDir, folderSessions, folderMb, folderCallKb)), name: `claude-projects-summary-${folderSessions}`, speed: 'summary' as const }]
        : []),
      ...(only.includes(ISSUE_FOLDER) ? [{ ...(await claudeProjectsFolderInput(benchDir, 1000, 2000, 20)), name: ISSUE_FOLDER }] : []),
      // The summary of a folder of real Claude Code sessions (../shared/fixtures/real copied 40 times, ids rewritten;
      // scripts/bench/real-folder.ts), where the fixtures are present: the shape ccusage is compared on.
      ...(selected(REAL_SUMMARY) ? realSummary() : []),
    ].filter((input) => selected(input.name))
  : [];
const cases: CaseResult[] = [];
for (const input of inputs) {
  // Large inputs take seconds per run: three runs give a median without taking minutes.
  const count = input.bytes > 50e6 ? Math.min(runs, 3) : runs;
  console.error(`  ${input.name} (${mb(input.bytes)} MB): ${count} runs ...`);
  cases.push(measure(input, count));
}
const growth: { scale: number; bytes: number; medianMs: number; cpuMedianMs: number; floorMs: number }[] = [];
for (const [i, input] of (selected('growth') ? await growthInputs(benchDir, growthMb) : []).entries()) {
  console.error(`  growth ${2 ** i}× (${mb(input.bytes)} MB) ...`);
  // As many runs as a case gets: with 3, the median still included the JIT's warm-up on the small inputs.
  const run = runCase<PairedRun>('paired', input.path, runs);
  growth.push({ scale: 2 ** i, bytes: input.bytes, medianMs: round(median(run.analysis.timesMs)), cpuMedianMs: round(median(run.analysis.cpuMs)), floorMs: round(median(run.floor.timesMs)) });
}

const scaling: ScalingResult[] = selected('scaling') ? await measureScaling(root, benchDir, Math.min(runs, 3), (line) => console.error(line)) : [];

const coldStart: ColdStart | null = selected('cold-start') ? measureColdStart(root, runs * 4 + 1, (line) => console.error(line)) : null;

let versus: VersusCcusage | null = null;
if (selected('versus-ccusage')) {
  const folder = realFolderInput(root, benchDir);
  const skipped = ccusageBin === '' ? 'no ccusage binary given (--ccusage <path>)' : folder === null ? 'no real fixtures (../shared/fixtures/real)' : null;
  if (skipped === null) versus = measureVersusCcusage(root, ccusageBin, folder!.path, folder!.bytes, runs, (line) => console.error(line));
  else if (only.includes('versus-ccusage')) console.error(`  versus-ccusage skipped: ${skipped}`);
}

let browser: BrowserBench | null = null;
if (selected('browser')) {
  // The same short conversations, 20 or 2,800 of them: 200 or 28,000 requests (the large log is ~190 MB).
  const small = await gatewayConversationsInput(benchDir, 20, 10);
  const large = await gatewayConversationsInput(benchDir, 2800, 10);
  console.error(`  browser: ${small.name} and ${large.name} (${mb(large.bytes)} MB) in Chromium ...`);
  browser = await browserBench(root, small, large, Math.min(runs, 3));
}

const header = ['case', 'MB', 'requests', 'median ms', 'min', 'max', 'floor ms', 'ratio', 'CPU ms', 'floor CPU', 'CPU ratio', 'peak RSS MB'];
const rows = cases.map((c) => [c.name, mb(c.bytes), String(c.requests), String(c.medianMs), String(c.minMs), String(c.maxMs), String(c.floorMs), c.ratio.toFixed(2), String(c.cpuMedianMs), String(c.floorCpuMs), c.cpuRatio.toFixed(2), mb(c.peakRssBytes)]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
if (rows.length > 0) console.log(line(header));
for (const row of rows) console.log(line(row));
if (growth.length > 0) console.log(`\ngrowth (same log shape at 1×, 2×, 4×, 8×; wall and CPU median of ${runs}, floor wall median):`);
for (const g of growth) {
  const vs = (g.cpuMedianMs / growth[0]!.cpuMedianMs).toFixed(2);
  console.log(`  ${g.scale}×  ${mb(g.bytes).padStart(7)} MB  ${String(g.medianMs).padStart(9)} ms  ${String(g.cpuMedianMs).padStart(9)} ms CPU (${vs}× the 1× CPU)  floor ${g.floorMs} ms`);
}
if (scaling.length > 0) printScaling(scaling, Math.min(runs, 3));
if (coldStart) {
  console.log(
    `\ncold start (installed tarball, median of ${coldStart.runs} alternating runs): node <bin> --version ${coldStart.binMedianMs} ms, ` +
      `node -e 0 ${coldStart.floorMedianMs} ms, ratio ${coldStart.ratio.toFixed(2)} (target ≤ 3)`,
  );
}
if (versus !== null) printVersusCcusage(versus);
if (browser !== null) {
  const b = browser;
  const row = (c: BrowserBench['small']) =>
    `  ${c.name.padEnd(16)} ${String(c.requests).padStart(6)} requests  first render ${String(c.firstRenderMs).padStart(6)} ms  request step median ${String(c.switching.medianStepMs).padStart(5)} ms  panel median ${String(c.switching.medianPanelMs).padStart(5)} ms`;
  console.log('\nbrowser (Chromium, 1440×900; from the input event to the first frame after the view settles):');
  console.log(row(b.small));
  console.log(row(b.large));
  console.log(`  steps (ms): ${b.small.switching.requestStepsMs.join(' ')} | ${b.large.switching.requestStepsMs.join(' ')}`);
  console.log(`  panels (ms, small | large): ${Object.keys(b.large.switching.panelVisitsMs).map((p) => `${p} ${b.small.switching.panelVisitsMs[p] ?? '–'}|${b.large.switching.panelVisitsMs[p]}`).join(', ')}`);
  console.log(`  switching at ${b.large.requests} vs ${b.small.requests} requests (medians floored at 50 ms): steps ${b.stepRatio}×, panels ${b.panelRatio}× (target ≤ 2×)`);
  console.log(`  first render of ${b.large.name} ${b.large.firstRenderMs} ms vs ctxray analyze --json ${b.cliMs} ms: ${b.firstRenderRatio}× (target ≤ 3×)`);
  const heap = (c: BrowserBench['small']) => `${mb(c.pageHeapBytes.firstRender)} MB after the first render, ${mb(c.pageHeapBytes.afterPanels)} MB after every panel`;
  console.log(`  page JS heap (after GC): ${b.small.requests} requests ${heap(b.small)}; ${b.large.requests} requests ${heap(b.large)}`);
  console.log(`  Duplicates panel, first visit: ${b.small.switching.panelVisitsMs['duplicates'] ?? '–'} ms | ${b.large.switching.panelVisitsMs['duplicates'] ?? '–'} ms`);
}
console.log('\nInputs are synthetic (scripts/bench/inputs.ts), except pi-session-real and claude-projects-real-summary (real sessions, ../shared/fixtures). Ratios compare with the floor measured in the same run.');
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ cases, growth, scaling, coldStart, versus, browser }, null, 2) + '\n');
