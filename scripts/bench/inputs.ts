// Synthetic benchmark inputs, generated on demand into .bench/ (git-ignored). Deterministic by seed.
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { rng, sentence, sourceFile, systemPrompt, type Rng } from '../examples/synthetic-text.ts';
import { agentSession, anthropicRequests, type Json, type Session } from '../examples/sessions.ts';

export const SONNET = 'claude-sonnet-4-5-20250929';

export interface BenchInput {
  name: string;
  path: string;
  bytes: number;
  requests: number;
  /** `summary`: a folder's summary from recorded usage, against the read floor (scripts/bench/case.ts). */
  speed?: 'full' | 'summary';
}

export async function writeLines(path: string, lines: Iterable<Json>): Promise<number> {
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
export function* interleaved(conversations: Json[][], gateway: boolean, startMs: number): Generator<Json> {
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
export function compactSession(seed: number, turns: number, textChars = 40, resultChars = 80): Session {
  const session = agentSession(seed, turns, [1, 3]);
  return { ...session, turns: session.turns.map((t) => ({ ...t, text: t.text.slice(0, textChars), results: t.results.map((r) => ({ ...r, text: r.text.slice(0, resultChars) })) })) };
}

export function conversations(count: number, turns: number, fileLines: [number, number] | 'compact', seed: number): Json[][] {
  const system = systemPrompt(rng(seed), fileLines === 'compact' ? 3 : 10);
  const out: Json[][] = [];
  for (let c = 0; c < count; c++) {
    const session = fileLines === 'compact' ? compactSession(seed * 1000 + c, turns) : agentSession(seed * 1000 + c, turns, fileLines);
    out.push(anthropicRequests(session, { model: SONNET, system, tailBreakpoint: true }));
  }
  return out;
}

export async function ensure(dir: string, name: string, make: (path: string) => Promise<number>): Promise<BenchInput> {
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

/**
 * A folder laid out like ~/.claude/projects, of SYNTHETIC Claude Code sessions (every text says so): `sessions`
 * sessions over 20 projects, about `megabytes` in all, each a run of calls whose tool results grow the history, with
 * recorded usage on every call and a subagent transcript beside every tenth session. Written once per size.
 */
/**
 * `callKb`: the size of one call asked for (its tool result, the call and the user turn); 6 by default, 20 for
 * sessions as dense as a real 2.6 MB Claude Code session of 132 calls.
 */
export async function claudeProjectsFolderInput(dir: string, sessions: number, megabytes: number, callKb = 6): Promise<BenchInput> {
  const root = join(dir, `claude-projects-${sessions}-${megabytes}mb${callKb === 6 ? '' : `-${callKb}kb`}`);
  const done = join(root, '.complete');
  const perSession = (megabytes * 1e6) / sessions;
  // A tool result of 120 source lines is ~5 KB of a ~6 KB call: the calls a session needs for its share.
  const calls = Math.max(2, Math.round(perSession / (callKb * 1000)));
  const resultLines = Math.round((120 * callKb) / 6);
  let requests = 0;
  if (!existsSync(done)) {
    mkdirSync(root, { recursive: true });
    for (let s = 0; s < sessions; s++) {
      const project = join(root, `-synthetic-project-${s % 20}`);
      const id = `synthetic-${String(s).padStart(5, '0')}`;
      mkdirSync(project, { recursive: true });
      await writeLines(join(project, `${id}.jsonl`), claudeCodeSessionLines(rng(1000 + s), id, calls, s, false, resultLines));
      requests += calls;
      if (s % 10 === 0) {
        mkdirSync(join(project, id, 'subagents'), { recursive: true });
        await writeLines(join(project, id, 'subagents', `agent-${id}.jsonl`), claudeCodeSessionLines(rng(5000 + s), id, Math.max(2, calls >> 2), s, true, resultLines));
        requests += Math.max(2, calls >> 2);
      }
    }
    writeFileSync(done, JSON.stringify({ requests }));
  }
  requests = (JSON.parse(readFileSync(done, 'utf8')) as { requests: number }).requests;
  return { name: `claude-projects-${sessions}`, path: root, bytes: folderBytes(root), requests };
}

function folderBytes(root: string): number {
  let total = 0;
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const full = join(root, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : statSync(full).size;
  }
  return total;
}

/** One synthetic session's lines: a summary, a user turn, then per call a tool_use line with recorded usage and its tool_result line. */
function* claudeCodeSessionLines(r: Rng, id: string, calls: number, index: number, sidechain: boolean, resultLines: number): Generator<Json> {
  const start = Date.UTC(2026, 2, 1) + index * 3_600_000;
  const base = { sessionId: id, isSidechain: sidechain, version: '2.1.0', ...(sidechain && { agentId: id }) };
  let parent: string | null = null;
  let history = 6000;
  yield { ...base, type: 'summary', summary: `synthetic session ${id}`, leafUuid: `${id}-leaf` };
  yield { ...base, type: 'user', uuid: `${id}-u`, parentUuid: null, timestamp: new Date(start).toISOString(), message: { role: 'user', content: `synthetic task: ${sentence(r, 30)}` } };
  parent = `${id}-u`;
  for (let c = 0; c < calls; c++) {
    const at = new Date(start + c * 20_000).toISOString();
    const tool = `toolu_${id}_${c}`;
    const written = c === 0 ? history : 1500;
    yield {
      ...base,
      type: 'assistant',
      uuid: `${id}-a${c}`,
      parentUuid: parent,
      timestamp: at,
      message: {
        id: `msg_${id}_${c}`,
        model: SONNET,
        role: 'assistant',
        content: [{ type: 'tool_use', id: tool, name: 'Read', input: { file_path: `/synthetic/${id}/file-${c}.ts` } }],
        usage: { input_tokens: 3, cache_read_input_tokens: c === 0 ? 0 : history - 1500, cache_creation_input_tokens: written, output_tokens: 40 },
      },
    };
    yield {
      ...base,
      type: 'user',
      uuid: `${id}-r${c}`,
      parentUuid: `${id}-a${c}`,
      timestamp: at,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: tool, content: sourceFile(r, `synthetic/${id}/file-${c}.ts`, resultLines) }] },
    };
    parent = `${id}-r${c}`;
    history += 1500;
  }
}
