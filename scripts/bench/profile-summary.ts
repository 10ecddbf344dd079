// Summarize a V8 .cpuprofile by self time: `node --import tsx scripts/bench/profile-summary.ts <file> [top] [fn]`.
// With a function name, also the sampled lines inside it (lines of the code V8 ran: under tsx, the transformed
// module, found in tsx's cache directory).
// Used to find where the analysis spends its time (docs/performance.md) instead of guessing.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  positionTicks?: { line: number; ticks: number }[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topText, lineFunction] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
  process.exit(1);
}
const top = Number(topText ?? '30');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

/** Self time per node: each sample's delta belongs to the node that was on top of the stack. */
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

// Aggregate per function (name + file + line) since one function appears under many call paths.
const byFunction = new Map<string, number>();
let totalUs = 0;
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  totalUs += us;
  const where = node.callFrame.url.replace(/^.*\/(src|scripts|node_modules)\//, '$1/');
  const key = `${node.callFrame.functionName || '(anonymous)'}  ${where}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const rows = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top);
console.log(`total sampled ${(totalUs / 1000).toFixed(0)} ms`);
for (const [key, us] of rows) console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${key}`);

if (lineFunction !== undefined) {
  const ticksByLine = new Map<string, number>();
  for (const node of profile.nodes) {
    if (node.callFrame.functionName !== lineFunction) continue;
    for (const { line, ticks } of node.positionTicks ?? []) {
      const key = `${node.callFrame.url.replace(/^.*\//, '')}:${line}`;
      ticksByLine.set(key, (ticksByLine.get(key) ?? 0) + ticks);
    }
  }
  console.log(`\nsampled lines of ${lineFunction}:`);
  for (const [key, ticks] of [...ticksByLine].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${String(ticks).padStart(7)} ticks  ${key}`);
}
