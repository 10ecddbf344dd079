// Sonnet 4 / 4.5 with the 1M-context beta: a prompt above 200K tokens (input + cache reads + writes) is billed whole
// at the long-context rates, 6 in / 7.50 5m write / 12 1h write / 0.60 read / 22.50 out per MTok (docs/pricing.md).
// The real Claude Code 2.1.38 session short.jsonl (../shared/fixtures/real, read in place; one call: 3 input,
// 13 output, 11,515 cache-read, 13,835 1h-write tokens) is EDITED to Sonnet 4.5 and, for the long case, to a cache
// read of 250,000. By hand: standard 3×3 + 13×15 + 11,515×0.30 + 13,835×6 = $0.0866685; long (263,838 prompt
// tokens) 3×6 + 13×22.50 + 250,000×0.60 + 13,835×12 = $0.3163305.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { emptyUsageFolder, foldSessionUsage } from '../../src/core/folder/usage-folder.ts';

const file = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/claude-code/short.jsonl');
const present = fs.existsSync(file);
const text = present ? fs.readFileSync(file, 'utf8') : '';
const enc = (t: string) => new TextEncoder().encode(t);
const sonnet = (t: string) => t.replaceAll('"model":"claude-opus-4-6"', '"model":"claude-sonnet-4-5-20250929"');
const long = (t: string) => t.replaceAll('"cache_read_input_tokens":11515', '"cache_read_input_tokens":250000');

const cost = async (t: string) => (await analyzeInput([{ name: 'short.jsonl', bytes: enc(t) }])).cache!.cost.billed.totals.total;

describe.skipIf(!present)(present ? 'Sonnet 4.5 long-context prices (real 2.1.38 session, edited)' : `long context: SKIPPED, ${file} is absent`, () => {
  it('below 200K the standard rates, above it the long-context rates on every token', async () => {
    expect(await cost(sonnet(text))).toBeCloseTo(0.0866685, 10);
    expect(await cost(long(sonnet(text)))).toBeCloseTo(0.3163305, 10);
  });

  it('the folder usage pass prices the same', async () => {
    const folder = emptyUsageFolder();
    await foldSessionUsage(folder, () => [{ name: 'short.jsonl', bytes: enc(long(sonnet(text))) }], {});
    expect(folder.parts[0]!.row.cost).toBeCloseTo(0.3163305, 10);
  });
});
