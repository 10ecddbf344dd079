// npm run bench [-- --json <file>] [--runs N] [--gateway-mb M] [--growth-mb M]
// Times the full analysis on synthetic inputs against a floor measured in the same run (decode + JSON.parse of
// every record + tokenizing each distinct text once), each in a fresh process so peak RSS is per case.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchInputs, growthInputs, type BenchInput } from './bench/inputs.ts';

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
const benchDir = join(root, '.bench');

interface CaseRun {
  timesMs: number[];
  peakRssBytes: number;
  requests: number;
}

function runCase(mode: 'floor' | 'analysis', file: string, count: number): CaseRun {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--max-old-space-size=8192', join(root, 'scripts/bench/case.ts'), mode, file, String(count)], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as CaseRun;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

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
}

function measure(input: BenchInput, count: number): CaseResult {
  const floorRun = runCase('floor', input.path, count);
  const analysisRun = runCase('analysis', input.path, count);
  const medianMs = median(analysisRun.timesMs);
  const floorMs = median(floorRun.timesMs);
  return {
    name: input.name,
    bytes: input.bytes,
    requests: analysisRun.requests,
    medianMs: round(medianMs),
    minMs: round(Math.min(...analysisRun.timesMs)),
    maxMs: round(Math.max(...analysisRun.timesMs)),
    floorMs: round(floorMs),
    ratio: Math.round((medianMs / floorMs) * 100) / 100,
    peakRssBytes: analysisRun.peakRssBytes,
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

const flagship: BenchInput = { name: 'flagship-24', path: join(root, 'examples/synthetic-anthropic-agent-cache-bust.jsonl.gz'), bytes: 0, requests: 24 };
const { statSync } = await import('node:fs');
flagship.bytes = statSync(flagship.path).size;

console.error(`generating inputs in ${benchDir} (first run only) ...`);
const inputs = [flagship, ...(await benchInputs(benchDir, gatewayMb))];
const cases: CaseResult[] = [];
for (const input of inputs) {
  const count = input.bytes > 50e6 ? Math.max(3, Math.min(runs, 3)) : runs;
  console.error(`  ${input.name} (${mb(input.bytes)} MB): ${count} runs ...`);
  cases.push(measure(input, count));
}
const growth: { scale: number; bytes: number; medianMs: number }[] = [];
for (const [i, input] of (await growthInputs(benchDir, growthMb)).entries()) {
  console.error(`  growth ${2 ** i}× (${mb(input.bytes)} MB) ...`);
  const run = runCase('analysis', input.path, 3);
  growth.push({ scale: 2 ** i, bytes: input.bytes, medianMs: round(median(run.timesMs)) });
}

const header = ['case', 'MB', 'requests', 'median ms', 'min', 'max', 'floor ms', 'ratio', 'peak RSS MB'];
const rows = cases.map((c) => [c.name, mb(c.bytes), String(c.requests), String(c.medianMs), String(c.minMs), String(c.maxMs), String(c.floorMs), c.ratio.toFixed(2), mb(c.peakRssBytes)]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log('\ngrowth (same log shape at 1×, 2×, 4×, 8×):');
for (const g of growth) console.log(`  ${g.scale}×  ${mb(g.bytes).padStart(7)} MB  ${String(g.medianMs).padStart(9)} ms  ${(g.medianMs / growth[0]!.medianMs).toFixed(2)}× time`);
console.log('\nInputs are synthetic (scripts/bench/inputs.ts). Ratios compare with the floor measured in the same run.');
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ cases, growth }, null, 2) + '\n');
