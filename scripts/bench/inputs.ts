// Synthetic benchmark inputs, generated on demand into .bench/ (git-ignored). Deterministic by seed.
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { rng, systemPrompt } from '../examples/synthetic-text.ts';
import { agentSession, anthropicRequests, type Json, type Session } from '../examples/sessions.ts';

const SONNET = 'claude-sonnet-4-5-20250929';

export interface BenchInput {
  name: string;
  path: string;
  bytes: number;
  requests: number;
}

async function writeLines(path: string, lines: Iterable<Json>): Promise<number> {
  const out = createWriteStream(path);
  let count = 0;
  for (const line of lines) {
    if (!out.write(JSON.stringify(line) + '\n')) await once(out, 'drain');
    count++;
  }
  out.end();
  await once(out, 'finish');
  return count;
}

/** Round-robin interleaving of several conversations, each request wrapped as a gateway record would be. */
function* interleaved(conversations: Json[][], gateway: boolean, startMs: number): Generator<Json> {
  const longest = Math.max(...conversations.map((c) => c.length));
  let t = startMs;
  for (let k = 0; k < longest; k++) {
    for (const conv of conversations) {
      const body = conv[k];
      if (!body) continue;
      t += 1500;
      yield gateway ? { timestamp: new Date(t).toISOString(), request: body } : body;
    }
  }
}

/** A session whose turns are cut short, for long conversations of small steps (a chatty tool loop). */
function compactSession(seed: number, turns: number, textChars = 40, resultChars = 80): Session {
  const session = agentSession(seed, turns, [1, 3]);
  return { ...session, turns: session.turns.map((t) => ({ ...t, text: t.text.slice(0, textChars), results: t.results.map((r) => ({ ...r, text: r.text.slice(0, resultChars) })) })) };
}

function conversations(count: number, turns: number, fileLines: [number, number] | 'compact', seed: number): Json[][] {
  const system = systemPrompt(rng(seed), fileLines === 'compact' ? 3 : 10);
  const out: Json[][] = [];
  for (let c = 0; c < count; c++) {
    const session = fileLines === 'compact' ? compactSession(seed * 1000 + c, turns) : agentSession(seed * 1000 + c, turns, fileLines);
    out.push(anthropicRequests(session, { model: SONNET, system, tailBreakpoint: true }));
  }
  return out;
}

async function ensure(dir: string, name: string, make: (path: string) => Promise<number>): Promise<BenchInput> {
  const path = join(dir, `${name}.jsonl`);
  const meta = join(dir, `${name}.count`);
  let requests: number;
  if (existsSync(path) && existsSync(meta)) requests = Number(readFileSync(meta, 'utf8'));
  else {
    requests = await make(path);
    writeFileSync(meta, String(requests));
  }
  return { name, path, bytes: statSync(path).size, requests };
}

export async function benchInputs(dir: string, gatewayMegabytes: number): Promise<BenchInput[]> {
  mkdirSync(dir, { recursive: true });
  return [
    await ensure(dir, 'session-300', (p) => writeLines(p, anthropicRequests(compactSession(300, 300, 12, 30), { model: SONNET, system: systemPrompt(rng(30), 6), tailBreakpoint: true }))),
    await ensure(dir, 'interleaved-3000x150', (p) => writeLines(p, interleaved(conversations(150, 20, 'compact', 7), false, Date.parse('2026-11-01T00:00:00Z')))),
    await ensure(dir, `gateway-${gatewayMegabytes}mb`, (p) => writeLines(p, gatewayRecords(gatewayMegabytes))),
  ];
}

/** Gateway records until about `megabytes` of JSONL: batches of 40 interleaved 24-turn conversations. */
export function* gatewayRecords(megabytes: number): Generator<Json> {
  let bytes = 0;
  let batch = 0;
  while (bytes < megabytes * 1e6) {
    for (const record of interleaved(conversations(40, 24, [30, 90], 100 + batch), true, Date.parse('2026-11-01T00:00:00Z') + batch * 3_600_000)) {
      bytes += JSON.stringify(record).length + 1;
      yield record;
      if (bytes >= megabytes * 1e6) return;
    }
    batch++;
  }
}

/**
 * A gateway log of `count` short agent conversations of `turns` requests each, interleaved: the browser bench's
 * switching case, where only the number of conversations differs between its small and its large log.
 */
export async function gatewayConversationsInput(dir: string, count: number, turns: number): Promise<BenchInput> {
  mkdirSync(dir, { recursive: true });
  return ensure(dir, `gateway-${count}x${turns}`, (p) => writeLines(p, interleaved(conversations(count, turns, 'compact', 11), true, Date.parse('2026-11-01T00:00:00Z'))));
}

/** The growth series: the same shape of log at 1×, 2×, 4× and 8× a base size. */
export async function growthInputs(dir: string, baseMegabytes: number): Promise<BenchInput[]> {
  mkdirSync(dir, { recursive: true });
  const out: BenchInput[] = [];
  for (const scale of [1, 2, 4, 8]) out.push(await ensure(dir, `growth-${baseMegabytes}mb-${scale}x`, (p) => writeLines(p, gatewayRecords(baseMegabytes * scale))));
  return out;
}

/**
 * The streaming case: a gzipped gateway log of about `megabytes` uncompressed, written through gzip as it is
 * generated (never held whole). Written under a temporary name first so an interrupted run is not reused.
 */
export async function gzipGatewayInput(dir: string, megabytes: number): Promise<BenchInput & { uncompressedBytes: number }> {
  mkdirSync(dir, { recursive: true });
  const name = `gateway-${megabytes}mb.jsonl.gz`;
  const path = join(dir, name);
  const meta = join(dir, `gateway-${megabytes}mb.gz.count`);
  if (!existsSync(path) || !existsSync(meta)) {
    const partial = `${path}.partial`;
    const gzip = createGzip({ level: 1 });
    const done = once(gzip.pipe(createWriteStream(partial)), 'finish');
    let requests = 0;
    let uncompressedBytes = 0;
    for (const record of gatewayRecords(megabytes)) {
      const line = JSON.stringify(record) + '\n';
      uncompressedBytes += Buffer.byteLength(line);
      requests++;
      if (!gzip.write(line)) await once(gzip, 'drain');
    }
    gzip.end();
    await done;
    renameSync(partial, path);
    writeFileSync(meta, JSON.stringify({ requests, uncompressedBytes }));
  }
  const { requests, uncompressedBytes } = JSON.parse(readFileSync(meta, 'utf8')) as { requests: number; uncompressedBytes: number };
  return { name: `gateway-${megabytes}mb-gz`, path, bytes: statSync(path).size, requests, uncompressedBytes };
}
