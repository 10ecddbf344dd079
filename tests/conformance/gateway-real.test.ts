// Conformance on real gateway captures (../shared/fixtures/real/gateway, read in place): one request per captured
// pair, and the recorded usage summed over the file equals the sums worked out here from the raw responses
// (response.body.usage, or message_start + message_delta in the SSE text of response.body_raw), independently of
// the reader's own SSE parsing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRequests } from '../../src/core/input/index.ts';

const root = path.resolve(__dirname, '../../../shared/fixtures/real/gateway');
const present = fs.existsSync(root);
const suite = present ? describe : describe.skip;
const title = present ? 'real gateway captures (../shared/fixtures/real/gateway)' : `real gateway captures: SKIPPED, ${root} is absent`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Usage = Record<string, any>;

function usageOfPair(response: Usage | null): Usage | null {
  if (response === null) return null;
  if (response.body?.usage) return response.body.usage as Usage;
  if (typeof response.body_raw !== 'string') return null;
  let usage: Usage | null = null;
  for (const line of response.body_raw.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const event = JSON.parse(line.slice(6)) as Usage;
    if (event.type === 'message_start') usage = { ...event.message.usage };
    if (event.type === 'message_delta' && usage) usage.output_tokens = event.usage.output_tokens;
  }
  return usage;
}

suite(title, () => {
  const dir = path.join(root, 'claude-trace');
  const files = present && fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
  for (const name of files) {
    it(`claude-trace/${name}: usage attaches to every pair that records it, summing to the file's own totals`, async () => {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      const pairs = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Usage);
      const usages = pairs.map((p) => usageOfPair(p.response as Usage | null));
      const want = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      for (const u of usages) {
        if (u === null) continue;
        want.input += u.input_tokens ?? 0;
        want.output += u.output_tokens ?? 0;
        want.cacheRead += u.cache_read_input_tokens ?? 0;
        want.cacheWrite += u.cache_creation_input_tokens ?? 0;
      }
      const result = await readRequests([{ name, bytes: new TextEncoder().encode(text) }]);
      expect(result.errors).toEqual([]);
      expect(result.requests).toHaveLength(pairs.length);
      expect(result.requests.map((r) => r.recorded !== null)).toEqual(usages.map((u) => u !== null));
      const got = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      for (const r of result.requests) {
        if (r.recorded === null) continue;
        got.input += r.recorded.input;
        got.output += r.recorded.output;
        got.cacheRead += r.recorded.cacheRead;
        got.cacheWrite += r.recorded.cacheWrite5m + r.recorded.cacheWrite1h;
      }
      expect(got).toEqual(want);
    });
  }

  it('the claude-trace capture from Claude Code 1.0.6 records usage on all 64 pairs (was 18 before SSE bodies were read)', async () => {
    const name = 'claude-trace_cc-1.0.6_test-traffic.jsonl';
    const result = await readRequests([{ name, bytes: new Uint8Array(fs.readFileSync(path.join(dir, name))) }]);
    expect(result.requests.filter((r) => r.recorded !== null)).toHaveLength(64);
    const total = result.requests.reduce((sum, r) => sum + r.recorded!.cacheRead, 0);
    expect(total).toBe(279790);
  });
});
