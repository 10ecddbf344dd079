// Counted once: the same API call (message id + request id) in two files — a session copied into another project
// folder, or resumed into a new file that repeats its history — is counted in the first file read only, in the
// full read, the folder's usage pass and the folder run, and the drop is reported by file. The real 1.0.108
// session (../shared/fixtures/real, read in place) has 20 calls, each with both ids; copies are made in memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { emptyUsageFolder, foldSessionUsage } from '../../src/core/folder/usage-folder.ts';
import { readRequests } from '../../src/core/input/index.ts';
import { SeenCalls } from '../../src/core/input/seen-calls.ts';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { analysisValidator } from '../analysis/schema.ts';

const file = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/claude-code/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
const present = fs.existsSync(file);
const text = present ? fs.readFileSync(file, 'utf8') : '';
const enc = (t: string) => new TextEncoder().encode(t);

/** The session resumed into a new file: its lines again under a new session id, then one new call of its own. */
function resumed(): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
  const last = lines[lines.length - 1]!;
  const again = lines.map((l) => ({ ...l, sessionId: 'resumed-1' }));
  const user = { ...last, type: 'user', uuid: 'r-u', parentUuid: last['uuid'], sessionId: 'resumed-1', message: { role: 'user', content: 'one more thing' } };
  const call = { ...last, uuid: 'r-a', parentUuid: 'r-u', sessionId: 'resumed-1', requestId: 'req_synthetic_new', message: { ...(last['message'] as object), id: 'msg_synthetic_new' } };
  return [...again, user, call].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

describe.skipIf(!present)(present ? 'API calls counted once across files' : `duplicates: SKIPPED, ${file} is absent`, () => {
  it('drops a copied session whole and a resumed one down to its new call', async () => {
    const read = await readRequests([
      { name: 'a/5c0375b4.jsonl', bytes: enc(text) },
      { name: 'b/copy.jsonl', bytes: enc(text) },
      { name: 'c/resumed.jsonl', bytes: enc(resumed()) },
    ]);
    expect(read.files.map((f) => f.requests)).toEqual([20, 0, 1]);
    expect(read.duplicateCalls).toEqual([
      { file: 1, calls: 20 },
      { file: 2, calls: 20 },
    ]);
    // The resumed file's new call still carries the whole history it was sent with: the 20 calls' messages.
    expect(read.requests[20]!.messageCount).toBeGreaterThan(read.requests[19]!.messageCount);
  });

  it('keeps the cost of one copy and says where the copies were, by file index in the record', async () => {
    const one = await analyzeInput([{ name: 'a.jsonl', bytes: enc(text) }]);
    const two = await analyzeInput([
      { name: 'a.jsonl', bytes: enc(text) },
      { name: 'b.jsonl', bytes: enc(text) },
    ]);
    expect(two.cache!.cost.billed.totals.total).toBeCloseTo(one.cache!.cost.billed.totals.total, 12);
    const record = buildRecord(two);
    expect(record['duplicates']).toEqual({ calls: 20, byFile: [{ file: 1, calls: 20 }] });
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(JSON.stringify(record)).not.toContain('b.jsonl');
  });

  it('holds across sessions of a folder in the usage pass, as in the full read', async () => {
    const seenCalls = new SeenCalls();
    const folder = emptyUsageFolder();
    await foldSessionUsage(folder, () => [{ name: 'a.jsonl', bytes: enc(text) }], { seenCalls });
    await foldSessionUsage(folder, () => [{ name: 'b.jsonl', bytes: enc(resumed()) }], { seenCalls });
    expect(folder.requests).toBe(21);
    expect(folder.duplicateCalls).toEqual([{ file: 1, calls: 20 }]);
  });

  describe('ctxray analyze <folder>', () => {
    let dir: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-dup-'));
      for (const project of ['-home-u-one', '-home-u-two']) {
        fs.mkdirSync(path.join(dir, project));
        fs.writeFileSync(path.join(dir, project, '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'), text);
      }
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('counts a session copied into two projects once, and says so', async () => {
      const out: string[] = [];
      const err: string[] = [];
      const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), readStdin: () => Promise.resolve(new Uint8Array()), env: {}, cwd: dir };
      expect(await analyzeCommand(['.', '--json', '-'], io)).toBe(0);
      const record = JSON.parse(out.join('')) as { folder: { requests: number }; duplicates: unknown };
      expect(record.folder.requests).toBe(20);
      expect(record.duplicates).toEqual({ calls: 20, byFile: [{ file: 1, calls: 20 }] });
      expect(err.join('')).not.toContain('no request bodies found');
      out.length = 0;
      expect(await analyzeCommand(['.'], io)).toBe(0);
      expect(out.join('')).toContain('20 API calls counted once: copies in 1 later file');
      out.length = 0;
      expect(await analyzeCommand(['.', '-v'], io)).toBe(0);
      expect(out.join('')).toContain('20 API calls counted once');
      expect(out.join('')).toMatch(/-home-u-two.5c0375b4-57a5-4f26-b12d-d022ee4e51b7\.jsonl: 20/);
    }, 120_000);
  });
});

// Bedrock responses carry no request id (Claude Code writes none for them, as up to 1.0.8 for any): a call is then
// named by its message id and the line's session id, as ccusage names it. The real 2.0.76 Bedrock session
// (session-624a4a58.jsonl, 55 calls): ccusage 20.0.24's session report gives 642 input, 69,127 output, 4,277,174
// cache-read and 1,629,516 cache-write tokens for it alone, and the same for it copied into two projects.
const bedrock = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/claude-code/session-624a4a58.jsonl');
const bedrockPresent = fs.existsSync(bedrock);
const bedrockText = bedrockPresent ? fs.readFileSync(bedrock, 'utf8') : '';

describe.skipIf(!bedrockPresent)(bedrockPresent ? 'calls without a request id counted once across files' : `duplicates: SKIPPED, ${bedrock} is absent`, () => {
  it('by message id and session id: a copy into another project is dropped, a copy under another session id is not', async () => {
    const copy = await readRequests([
      { name: 'p/session-624a4a58.jsonl', bytes: enc(bedrockText) },
      { name: 'q/session-624a4a58.jsonl', bytes: enc(bedrockText) },
    ]);
    expect(copy.files.map((f) => f.requests)).toEqual([55, 0]);
    const sum = (key: 'input' | 'output' | 'cacheRead' | 'cacheWrite5m' | 'cacheWrite1h') => copy.requests.reduce((total, r) => total + (r.recorded?.[key] ?? 0), 0);
    expect([sum('input'), sum('output'), sum('cacheRead'), sum('cacheWrite5m') + sum('cacheWrite1h')]).toEqual([642, 69_127, 4_277_174, 1_629_516]);

    const renamed = bedrockText.replace(/"sessionId":"[^"]*"/g, '"sessionId":"synthetic-other-session"');
    const other = await readRequests([
      { name: 'p/session-624a4a58.jsonl', bytes: enc(bedrockText) },
      { name: 'q/other.jsonl', bytes: enc(renamed) },
    ]);
    expect(other.files.map((f) => f.requests)).toEqual([55, 55]);

    const seenCalls = new SeenCalls();
    const folder = emptyUsageFolder();
    await foldSessionUsage(folder, () => [{ name: 'p/session-624a4a58.jsonl', bytes: enc(bedrockText) }], { seenCalls });
    await foldSessionUsage(folder, () => [{ name: 'q/session-624a4a58.jsonl', bytes: enc(bedrockText) }], { seenCalls });
    expect(folder.requests).toBe(55);
  });
});

// A Codex rollout records no id per call: the time of a call's token count and the running totals it reached
// name it, so a copy of the file (archived_sessions/, a backup) is counted once too. The real rollout has 81 calls.
const rollout = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/codex/rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl');
const rolloutPresent = fs.existsSync(rollout);
const rolloutText = rolloutPresent ? fs.readFileSync(rollout, 'utf8') : '';

describe.skipIf(!rolloutPresent)(rolloutPresent ? 'Codex calls counted once across files' : `duplicates: SKIPPED, ${rollout} is absent`, () => {
  it('drops a copied rollout whole, in the full read and in the folder usage pass', async () => {
    const name = path.basename(rollout);
    const read = await readRequests([
      { name: `sessions/${name}`, bytes: enc(rolloutText) },
      { name: `archived_sessions/${name}`, bytes: enc(rolloutText) },
    ]);
    expect(read.files.map((f) => f.requests)).toEqual([81, 0]);
    expect(read.duplicateCalls).toEqual([{ file: 1, calls: 81 }]);

    const seenCalls = new SeenCalls();
    const folder = emptyUsageFolder();
    await foldSessionUsage(folder, () => [{ name: `sessions/${name}`, bytes: enc(rolloutText) }], { seenCalls });
    await foldSessionUsage(folder, () => [{ name: `archived_sessions/${name}`, bytes: enc(rolloutText) }], { seenCalls });
    expect(folder.requests).toBe(81);
  });

  it('keeps every call of one rollout read alone, and a second session of other calls whole', async () => {
    const other = rolloutText
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const record = JSON.parse(l) as { timestamp?: string };
        // The same calls an hour later: other calls (a session that happened to reach the same totals).
        if (typeof record.timestamp === 'string') record.timestamp = new Date(Date.parse(record.timestamp) + 3_600_000).toISOString();
        return JSON.stringify(record);
      })
      .join('\n');
    const read = await readRequests([
      { name: 'a.jsonl', bytes: enc(rolloutText) },
      { name: 'b.jsonl', bytes: enc(other) },
    ]);
    expect(read.files.map((f) => f.requests)).toEqual([81, 81]);
    expect(read.duplicateCalls).toEqual([]);
  });
});
