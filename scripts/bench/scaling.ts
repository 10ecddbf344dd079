// The scaling case of `npm run bench` (`--only scaling`): each shape at N and at 4N requests, the analysis timed
// in its own process per size; the ratio of the CPU medians must stay within 4.5 (time linear in the requests,
// with room for fixed costs being a smaller share at 4N). All inputs are SYNTHETIC (scripts/bench/inputs.ts).
import { mkdirSync } from 'node:fs';
import { prng, rng, sentence, systemPrompt } from '../examples/synthetic-text.ts';
import { anthropicRequests, type Json } from '../examples/sessions.ts';
import { runCase, type CaseTiming } from './run-case.ts';
import { claudeProjectsFolderInput, compactSession, conversations, ensure, gatewayRecords, interleaved, SONNET, writeLines, type BenchInput } from './inputs.ts';
import { median } from './median.ts';

export const SCALING_LIMIT = 4.5;

export interface ScalingShape {
  name: string;
  what: string;
  /** The input at `n` requests (about `n`: a folder or a gateway log is sized by sessions or megabytes). */
  make: (dir: string, scale: 1 | 4) => Promise<BenchInput>;
}

/**
 * Five fixed texts of ~600 characters, each request one of them after a header stamped with the request's time: the
 * shape whose messages shared one element-cache bucket (same length, equal at every sampled character).
 */
function* repeatedMessages(requests: number): Generator<Json> {
  const r = rng(24);
  const texts = Array.from({ length: 5 }, (_, i) => `synthetic message ${i}: ${sentence(r, 120)}`.slice(0, 600));
  const start = Date.parse('2026-11-01T00:00:00Z');
  for (let i = 0; i < requests; i++) {
    const content = `[${new Date(start + i * 1000).toISOString()}] ${texts[i % 5]!}`;
    yield { model: SONNET, max_tokens: 1024, messages: [{ role: 'user', content }] };
  }
}

/** Each request one text of 600 random letters and digits: no piece repeats, so tokenizer caches never hit. */
function* randomTexts(requests: number): Generator<Json> {
  const next = prng(24);
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  for (let i = 0; i < requests; i++) {
    let text = '';
    for (let c = 0; c < 600; c++) text += alphabet[Math.floor(next() * alphabet.length)];
    yield { model: SONNET, max_tokens: 1024, messages: [{ role: 'user', content: `synthetic ${text}` }] };
  }
}

/** `count` 300-turn agent loops one after another (the session-300 shape, more sessions). */
function* sessions(count: number): Generator<Json> {
  for (let s = 0; s < count; s++) yield* anthropicRequests(compactSession(300 + s, 300, 12, 30), { model: SONNET, system: systemPrompt(rng(30 + s), 6), tailBreakpoint: true });
}

const sized = (dir: string, name: string, lines: () => Iterable<Json>) => ensure(dir, name, (path) => writeLines(path, lines()));

export const SCALING_SHAPES: ScalingShape[] = [
  { name: 'repeated-messages', what: '5 stamped ~600-char messages, 5,000 / 20,000 requests', make: (dir, k) => sized(dir, `scaling-repeated-${k}x`, () => repeatedMessages(5000 * k)) },
  { name: 'random-texts', what: '600 random characters a request, 5,000 / 20,000 requests', make: (dir, k) => sized(dir, `scaling-random-${k}x`, () => randomTexts(5000 * k)) },
  { name: 'session', what: '300-turn agent loops, 1 / 4 of them (300 / 1,200 requests)', make: (dir, k) => sized(dir, `scaling-session-${k}x`, () => sessions(k)) },
  {
    name: 'interleaved',
    what: '20-turn conversations round-robin, 800 / 3,200 requests',
    make: (dir, k) => sized(dir, `scaling-interleaved-${k}x`, () => interleaved(conversations(40 * k, 20, 'compact', 7), false, Date.parse('2026-11-01T00:00:00Z'))),
  },
  { name: 'gateway', what: 'gateway records of 24-turn conversations, 6 / 24 MB', make: (dir, k) => sized(dir, `scaling-gateway-${k}x`, () => gatewayRecords(6 * k)) },
  { name: 'claude-projects', what: 'Claude Code folder, 25 / 100 sessions (6.4 / 25.6 MB)', make: (dir, k) => claudeProjectsFolderInput(dir, 25 * k, 6.4 * k) },
];

export interface ScalingResult {
  name: string;
  what: string;
  requests: [number, number];
  cpuMedianMs: [number, number];
  wallMedianMs: [number, number];
  /** CPU median at 4N over CPU median at N. */
  cpuRatio: number;
  wallRatio: number;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** Every shape at N and 4N, `runs` analyses of each in a process of its own (`case.ts analysis`). */
export async function measureScaling(root: string, benchDir: string, runs: number, log: (line: string) => void): Promise<ScalingResult[]> {
  const dir = `${benchDir}/scaling`;
  mkdirSync(dir, { recursive: true });
  const out: ScalingResult[] = [];
  for (const shape of SCALING_SHAPES) {
    const small = await shape.make(dir, 1);
    const large = await shape.make(dir, 4);
    log(`  scaling ${shape.name}: ${small.requests} and ${large.requests} requests, ${runs} runs each ...`);
    const a = runCase<CaseTiming>(root, 'analysis', small.path, runs);
    const b = runCase<CaseTiming>(root, 'analysis', large.path, runs);
    const cpu: [number, number] = [median(a.cpuMs), median(b.cpuMs)];
    const wall: [number, number] = [median(a.timesMs), median(b.timesMs)];
    out.push({ name: shape.name, what: shape.what, requests: [a.requests, b.requests], cpuMedianMs: [round(cpu[0]), round(cpu[1])], wallMedianMs: [round(wall[0]), round(wall[1])], cpuRatio: round(cpu[1] / cpu[0]), wallRatio: round(wall[1] / wall[0]) });
  }
  return out;
}

export function printScaling(results: readonly ScalingResult[], runs: number): void {
  console.log(`\nscaling (each shape at N and 4N requests; median of ${runs} analyses, CPU and wall; target: 4N within ${SCALING_LIMIT}x of N):`);
  for (const r of results) {
    const verdict = r.cpuRatio <= SCALING_LIMIT ? 'ok' : 'OVER';
    console.log(`  ${r.name.padEnd(18)} ${String(r.requests[0]).padStart(6)} -> ${String(r.requests[1]).padStart(6)} requests  CPU ${r.cpuMedianMs[0]} -> ${r.cpuMedianMs[1]} ms (${r.cpuRatio}x ${verdict})  wall ${r.wallMedianMs[0]} -> ${r.wallMedianMs[1]} ms (${r.wallRatio}x)  ${r.what}`);
  }
}
