// Where one analysis spends its time, stage by stage: `node --import tsx scripts/bench/stages.ts <file> [runs]`.
// Prints the median CPU time of each stage (read, tokens, conversations, prefixes, cost, near-duplicates,
// findings): on a machine shared with other jobs, CPU time moves far less than wall time.
import { readFileSync } from 'node:fs';
import { readRequests } from '../../src/core/input/index.ts';
import { resolveModel } from '../../src/core/analysis/models.ts';
import { TokenCounter } from '../../src/core/tokens/counter.ts';
import { findConversations } from '../../src/core/cache/conversations.ts';
import { comparePrefix } from '../../src/core/cache/prefix.ts';
import { costScenarios } from '../../src/core/cache/cost.ts';
import { findNearDuplicates } from '../../src/core/cache/near-duplicates.ts';
import { findFindings } from '../../src/core/cache/findings.ts';
import { median } from './median.ts';

const [file, runsText] = process.argv.slice(2);
if (!file) {
  console.error('usage: stages.ts <file> [runs]');
  process.exit(1);
}
const bytes = new Uint8Array(readFileSync(file));
const samples = new Map<string, number[]>();
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
function record(stage: string, ms: number): void {
  samples.set(stage, [...(samples.get(stage) ?? []), ms]);
}
function timed<T>(stage: string, run: () => T): T {
  const t0 = process.cpuUsage();
  const out = run();
  record(stage, cpuMs(t0));
  return out;
}

for (let i = 0; i < Number(runsText ?? '3'); i++) {
  const t0 = process.cpuUsage();
  const read = await readRequests([{ name: file, bytes }]);
  record('read', cpuMs(t0));
  const models = read.requests.map((request) => resolveModel(request, null));
  const counter = new TokenCounter();
  const t1 = process.cpuUsage();
  await counter.prepare(read.requests, (request) => models[request.index]?.id ?? request.model);
  const tokens = read.requests.map((request, r) => counter.count(request, models[r]?.id ?? null));
  record('tokens', cpuMs(t1));
  const input = {
    requests: read.requests,
    segmentTokens: tokens.map((t) => t.segments),
    overheadTokens: tokens.map((t) => t.overheadTotal),
    pricingOf: (r: number) => models[r]?.pricing ?? null,
  };
  const conversations = timed('conversations', () => findConversations(read.requests));
  timed('prefixes', () => conversations.continues.map((c, r) => (c === null ? null : comparePrefix(read.requests[c]!.segments, read.requests[r]!.segments))));
  const costs = timed('cost', () => costScenarios(input));
  const nearDuplicates = timed('nearDuplicates', () => findNearDuplicates(read.requests, conversations).groups);
  timed('findings', () => findFindings({ ...input, conversations, costs, nearDuplicates }));
}
for (const [stage, xs] of samples) console.log(`${stage.padEnd(15)} ${median(xs).toFixed(1).padStart(9)} ms CPU`);
