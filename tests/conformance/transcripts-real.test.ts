// Conformance on real agent transcripts (../shared/fixtures/real/transcripts, read in place): the number of
// requests rebuilt equals the number of API calls the transcript records, counted here independently of the
// importers, and recorded usage is neither lost nor double-counted.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRequests, type ReadResult } from '../../src/core/input/index.ts';

const root = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts');
const present = fs.existsSync(root);
const suite = present ? describe : describe.skip;
const title = present ? 'real transcripts (../shared/fixtures/real/transcripts)' : `real transcripts: SKIPPED, ${root} is absent`;

const filesIn = (dir: string) => (fs.existsSync(path.join(root, dir)) ? fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.jsonl')).sort() : []);
// Loosely typed on purpose: the test reads the raw lines independently of the importers' own parsing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RawLine = Record<string, any>;
const linesOf = (dir: string, name: string) =>
  fs.readFileSync(path.join(root, dir, name), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as RawLine);
const read = (dir: string, name: string): Promise<ReadResult> =>
  readRequests([{ name, bytes: new Uint8Array(fs.readFileSync(path.join(root, dir, name))) }]);

suite(title, () => {
  for (const name of filesIn('claude-code')) {
    it(`claude-code/${name}: one request per distinct API message id`, async () => {
      const ids = new Set(linesOf('claude-code', name).filter((l) => l.type === 'assistant' && l.message?.model !== '<synthetic>').map((l) => l.message.id));
      const result = await read('claude-code', name);
      expect(result.errors).toEqual([]);
      expect(result.requests).toHaveLength(ids.size);
      expect(result.requests.every((r) => r.recorded !== null)).toBe(true);
      // Recorded totals are the file's own: the usage of each message id's last line, summed.
      const last = new Map<string, RawLine>();
      for (const l of linesOf('claude-code', name)) if (l.type === 'assistant' && l.message?.model !== '<synthetic>') last.set(l.message.id, l.message.usage);
      const want = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      for (const u of last.values()) {
        want.input += u.input_tokens;
        want.output += u.output_tokens;
        want.cacheRead += u.cache_read_input_tokens ?? 0;
        want.cacheWrite += u.cache_creation_input_tokens ?? 0;
      }
      const got = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      for (const r of result.requests) {
        got.input += r.recorded!.input;
        got.output += r.recorded!.output;
        got.cacheRead += r.recorded!.cacheRead;
        got.cacheWrite += r.recorded!.cacheWrite5m + r.recorded!.cacheWrite1h;
      }
      expect(got).toEqual(want);
    });
  }

  for (const name of filesIn('codex')) {
    it(`codex/${name}: one request per changed running total; usage sums back to the final total`, async () => {
      const totals = linesOf('codex', name)
        .filter((l) => l.type === 'event_msg' && l.payload?.type === 'token_count' && l.payload.info)
        .map((l) => l.payload.info.total_token_usage as { input_tokens: number; cached_input_tokens: number; output_tokens: number });
      const distinct = totals.filter((t, i) => i === 0 || JSON.stringify(t) !== JSON.stringify(totals[i - 1]));
      const result = await read('codex', name);
      expect(result.errors).toEqual([]);
      expect(result.requests).toHaveLength(distinct.length);
      const last = distinct[distinct.length - 1]!;
      const sum = (f: (r: NonNullable<(typeof result.requests)[number]['recorded']>) => number) => result.requests.reduce((acc, r) => acc + f(r.recorded!), 0);
      // Repeated snapshots counted twice would overshoot these sums.
      expect(sum((u) => u.input + u.cacheRead)).toBe(last.input_tokens);
      expect(sum((u) => u.cacheRead)).toBe(last.cached_input_tokens);
      expect(sum((u) => u.output)).toBe(last.output_tokens);
    });
  }

  for (const name of filesIn('pi')) {
    it(`pi/${name}: one request per assistant message on the session path`, async () => {
      // Both real sessions are linear (version 1): every assistant message is on the path.
      const assistants = linesOf('pi', name).filter((l) => l.type === 'message' && l.message?.role === 'assistant');
      const result = await read('pi', name);
      expect(result.errors).toEqual([]);
      expect(result.requests).toHaveLength(assistants.length);
      expect(result.requests.reduce((acc, r) => acc + (r.recorded?.output ?? 0), 0)).toBe(assistants.reduce((acc, l) => acc + (l.message.usage?.output ?? 0), 0));
    });
  }
});
