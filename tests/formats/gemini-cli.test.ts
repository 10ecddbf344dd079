// Gemini CLI chat recordings: the document form (real fixture, read in place from ../shared/fixtures/real) and the
// JSONL form gemini-cli's chatRecordingService writes (synthetic sessions, worked out by hand).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// The reader first: it loads the importer registry, which the importer module needs loaded before it.
import { readRequests } from '../../src/core/input/index.ts';
import { geminiRecorded } from '../../src/core/formats/gemini-cli.ts';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';

const enc = (text: string) => new TextEncoder().encode(text);
const jsonl = (lines: unknown[]) => enc(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
const read = (name: string, bytes: Uint8Array) => readRequests([{ name, bytes }]);

const dir = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/gemini-cli');
const present = fs.existsSync(dir);

describe.skipIf(!present)(present ? 'Gemini CLI sessions (real, ../shared/fixtures/real)' : `Gemini CLI sessions: SKIPPED, ${dir} is absent`, () => {
  const files = present ? fs.readdirSync(dir).filter((f) => f.endsWith('.json') || f.endsWith('.jsonl')) : [];
  for (const name of files) {
    it(`${name}: one request per gemini message with tokens, recorded totals equal the file's own sums`, async () => {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const messages = (JSON.parse(text) as { messages: any[] }).messages.filter((m) => m.type === 'gemini' && m.tokens);
      const result = await read(name, enc(text));
      expect(result.errors).toEqual([]);
      expect(result.files[0]).toMatchObject({ format: 'gemini-cli', envelope: 'transcript' });
      expect(result.requests).toHaveLength(messages.length);
      const sum = (pick: (t: Record<string, number>) => number) => messages.reduce((acc, m) => acc + pick(m.tokens), 0);
      const got = (pick: (r: NonNullable<(typeof result.requests)[number]['recorded']>) => number) => result.requests.reduce((acc, r) => acc + pick(r.recorded!), 0);
      expect(got((r) => r.cacheRead)).toBe(sum((t) => t.cached!));
      expect(got((r) => r.input + r.cacheRead)).toBe(sum((t) => t.input! + (t.tool ?? 0)));
      expect(got((r) => r.output)).toBe(sum((t) => t.output! + (t.thoughts ?? 0)));
      for (const r of result.requests) expect(r.notes.map((n) => n.code)).toContain('provider_not_modelled');
    });
  }

  it('the file-ops session: 9 calls on gemini-3-pro; the second call sees the first exchange', async () => {
    const name = 'session-2026-01-16T11-01-file-ops-37b7abef.json';
    const result = await read(name, new Uint8Array(fs.readFileSync(path.join(dir, name))));
    expect(result.requests.map((r) => r.model)).toEqual(Array(9).fill('gemini-3-pro'));
    expect(result.requests[0]!.messageCount).toBe(1);
    // user, gemini answer, user
    expect(result.requests[1]!.messageCount).toBe(3);
    expect(result.requests[0]!.recorded).toEqual({ input: 4749, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 532 });
  });

  it('the file-ops session is priced as Gemini 3 Pro, thinking billed as output', async () => {
    const name = 'session-2026-01-16T11-01-file-ops-37b7abef.json';
    const analysis = await analyzeInput([{ name, bytes: new Uint8Array(fs.readFileSync(path.join(dir, name))) }]);
    expect(analysis.modelUse).toMatchObject([{ id: 'gemini-3-pro', known: true, pricedAs: 'gemini-3-pro-preview', pricedOn: '2026-07-24' }]);
    // The file's sums (jq over messages[].tokens): input − cached + tool = 25,301, cached 62,117, output + thoughts
    // 4,355; at 2 / 0.20 / 12 per MTok: (25,301 × 2 + 62,117 × 0.2 + 4,355 × 12) / 1e6 = $0.1152854.
    expect(analysis.cache!.cost.billed.totals).toMatchObject({ priced: 9, unpriced: 0 });
    expect(analysis.cache!.cost.billed.totals.total).toBeCloseTo(0.1152854, 10);
  });
});

describe('Gemini CLI JSONL recordings (synthetic)', () => {
  const meta = { sessionId: 'syn', projectHash: 'h', startTime: '2026-01-01T00:00:00.000Z', kind: 'main' };
  const user = (id: string, text: string, t: string) => ({ id, timestamp: t, type: 'user', content: [{ text }] });
  const gemini = (id: string, t: string, extra: object) => ({ id, timestamp: t, type: 'gemini', content: '', model: 'gemini-2.5-pro', ...extra });
  const tokens = (input: number, cached: number, output: number, thoughts = 0, tool = 0) => ({ input, output, cached, thoughts, tool, total: input + output + thoughts + tool });

  it('reads tool calls and their results, replaces a message written again, and skips info lines', async () => {
    const call = { id: 'read_file-1', name: 'read_file', args: { path: 'a.txt' }, status: 'success', timestamp: '2026-01-01T00:00:02.000Z', result: [{ functionResponse: { id: 'read_file-1', name: 'read_file', response: { output: 'synthetic file text' } } }] };
    const result = await read('session-2026-01-01T00-00-syn.jsonl', jsonl([
      meta,
      user('u1', 'read a.txt', '2026-01-01T00:00:01.000Z'),
      gemini('g1', '2026-01-01T00:00:02.000Z', {}),
      // The same message again, now with its tool call and tokens (gemini-cli rewrites a message as it fills in).
      gemini('g1', '2026-01-01T00:00:02.000Z', { toolCalls: [call], tokens: tokens(1000, 0, 20, 5) }),
      { id: 'i1', timestamp: '2026-01-01T00:00:02.500Z', type: 'info', content: 'synthetic notice' },
      gemini('g2', '2026-01-01T00:00:03.000Z', { content: 'done', tokens: tokens(1100, 900, 3) }),
      { $set: { lastUpdated: '2026-01-01T00:00:04.000Z', summary: 'synthetic' } },
    ]));
    expect(result.errors).toEqual([]);
    expect(result.files[0]!.format).toBe('gemini-cli');
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 3]);
    expect(result.requests[1]!.segments.map((s) => s.category)).toEqual(['user', 'tool_call', 'tool_result']);
    expect(result.requests.map((r) => r.recorded)).toEqual([
      { input: 1000, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 25 },
      { input: 200, cacheRead: 900, cacheWrite5m: 0, cacheWrite1h: 0, output: 3 },
    ]);
    expect(result.files[0]!.session?.sessionId).toBe('syn');
  });

  it('a rewind drops messages from the history, yet the calls made before it stay requests; a $set checkpoint replaces the history', async () => {
    const result = await read('s.jsonl', jsonl([
      meta,
      user('u1', 'first', '2026-01-01T00:00:01.000Z'),
      gemini('g1', '2026-01-01T00:00:02.000Z', { content: 'a', tokens: tokens(10, 0, 1) }),
      user('u2', 'second', '2026-01-01T00:00:03.000Z'),
      gemini('g2', '2026-01-01T00:00:04.000Z', { content: 'b', tokens: tokens(20, 0, 1) }),
      { $rewindTo: 'u2' },
      user('u3', 'second, again', '2026-01-01T00:00:05.000Z'),
      gemini('g3', '2026-01-01T00:00:06.000Z', { content: 'c', tokens: tokens(21, 0, 1) }),
      { $set: { messages: [user('u9', 'checkpoint', '2026-01-01T00:00:07.000Z')] } },
      gemini('g4', '2026-01-01T00:00:08.000Z', { content: 'd', tokens: tokens(5, 0, 1) }),
      gemini('g5', '2026-01-01T00:00:09.000Z', { content: 'interrupted, no tokens' }),
    ]));
    expect(result.errors).toEqual([]);
    // g1: [u1]; g2: [u1 g1 u2]; g3 after the rewind: [u1 g1 u3]; g4 after the checkpoint: [u9]; g5 has no tokens.
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 3, 3, 1]);
    expect(result.requests.map((r) => r.recorded!.input)).toEqual([10, 20, 21, 5]);
  });

  it('a .json session resumed by a later gemini-cli, migrated whole into a .jsonl beside it, counts each call once', async () => {
    const first = [user('u1', 'hi', '2025-11-01T10:00:00.000Z'), gemini('g1', '2025-11-01T10:00:02.000Z', { content: 'a', tokens: tokens(1200, 0, 10, 30) })];
    const document = { ...meta, lastUpdated: '2025-11-01T10:00:02.000Z', messages: first };
    // chatRecordingService on resuming a .json: the metadata line, every message of the record, the session id set
    // again, then the new turn.
    const migrated = [
      { sessionId: meta.sessionId, projectHash: meta.projectHash, startTime: meta.startTime, lastUpdated: document.lastUpdated },
      ...first,
      { $set: { sessionId: meta.sessionId } },
      user('u2', 'more', '2026-01-05T09:00:00.000Z'),
      gemini('g2', '2026-01-05T09:00:04.000Z', { content: 'b', tokens: tokens(1300, 1024, 8) }),
    ];
    const result = await readRequests([
      { name: 'session-2025-11-01T10-00-syn.json', bytes: enc(JSON.stringify(document)) },
      { name: 'session-2025-11-01T10-00-syn.jsonl', bytes: jsonl(migrated) },
    ]);
    expect(result.errors).toEqual([]);
    // g1 once (from the .json), g2 from the .jsonl: 1200 + 276 uncached, 1024 cached, 40 + 8 out.
    expect(result.requests.map((r) => [r.file, r.recorded!.input, r.recorded!.cacheRead, r.recorded!.output])).toEqual([
      [0, 1200, 0, 40],
      [1, 276, 1024, 8],
    ]);
    expect(result.duplicateCalls).toEqual([{ file: 1, calls: 1 }]);
    // Read alone, the .jsonl holds both calls.
    expect((await read('session-2025-11-01T10-00-syn.jsonl', jsonl(migrated))).requests).toHaveLength(2);
  });

  it('reports a line that is no Gemini CLI record, and converts tokens as gemini-cli records them', async () => {
    const result = await read('s.jsonl', jsonl([meta, user('u1', 'x', '2026-01-01T00:00:01.000Z'), { $rewindTo: 'u1' }, gemini('g1', '2026-01-01T00:00:02.000Z', { tokens: tokens(3, 1, 1) })]));
    expect(result.requests).toHaveLength(1);
    const broken = await read('s.jsonl', enc(`${JSON.stringify({ ...meta, messages: [{ id: 'u', type: 'user', content: 'x' }, { nope: 1 }] })}\n`));
    expect(broken.errors.map((e) => e.message)).toEqual([expect.stringContaining('Gemini CLI messages[1] is not a message record')]);
    // 1,000 prompt tokens with 600 cached, 40 tool-use prompt tokens; 10 output + 30 thoughts.
    expect(geminiRecorded({ input: 1000, cached: 600, tool: 40, output: 10, thoughts: 30, total: 1080 })).toEqual({ input: 440, cacheRead: 600, cacheWrite5m: 0, cacheWrite1h: 0, output: 40 });
    expect(geminiRecorded(null)).toBeNull();
    expect(geminiRecorded({ output: 3 })).toBeNull();
  });
});
