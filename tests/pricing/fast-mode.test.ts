// Fast mode: a call whose usage says `speed: "fast"` is billed at the model's fast-mode rates, every rate times its
// factor (docs/pricing.md). The real Claude Code 2.1.38 session short.jsonl (../shared/fixtures/real, read in
// place; one Opus 4.6 call: 3 input, 13 output, 11,515 cache-read, 13,835 1h cache-write tokens) is given the
// field as Claude Code 2.1.36+ writes it in fast mode (an edit, labelled so). By hand, per MTok, Opus 4.6
// standard 5 in / 25 out / 0.50 read / 10 1h write: $0.1444475; fast (×6) 30 / 150 / 3 / 60: $0.866685 (ccusage
// 20.0.24 gives $0.866685 for the same lines).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { basisText, costHeadline } from '../../src/core/cache/headline.ts';
import { emptyUsageFolder, foldSessionUsage } from '../../src/core/folder/usage-folder.ts';
import { NODE_FAST_LINES } from '../../src/cli/fs/usage-inputs.ts';
import { analysisValidator } from '../analysis/schema.ts';

const file = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/claude-code/short.jsonl');
const present = fs.existsSync(file);
const text = present ? fs.readFileSync(file, 'utf8') : '';
const enc = (t: string) => new TextEncoder().encode(t);
/** EDITED: the session as fast mode writes it (usage.speed "fast"), optionally on another model. */
const fast = (model = 'claude-opus-4-6') => text.replaceAll('"service_tier":"standard"', '"service_tier":"standard","speed":"fast"').replaceAll('"model":"claude-opus-4-6"', `"model":"${model}"`);

async function recordedCost(t: string): Promise<{ cost: number; record: Record<string, unknown> }> {
  const analysis = await analyzeInput([{ name: 'short.jsonl', bytes: enc(t) }]);
  return { cost: analysis.cache!.cost.billed.totals.total, record: buildRecord(analysis) };
}

describe.skipIf(!present)(present ? 'fast mode prices (real 2.1.38 session, edited)' : `fast mode: SKIPPED, ${file} is absent`, () => {
  it('Opus 4.6: six times the standard rates, cache rates included; the record says which calls', async () => {
    const standard = await recordedCost(text);
    expect(standard.cost).toBeCloseTo(0.1444475, 10);
    const { cost, record } = await recordedCost(fast());
    expect(cost).toBeCloseTo(0.866685, 10);
    expect(basisText(costHeadline((await analyzeInput([{ name: 'short.jsonl', bytes: enc(fast()) }])).cache!.cost.billed.totals, []))).toBe('recorded usage of its one request, all in fast mode (at its rates)');
    expect((record['models'] as { fastRequests?: number }[])[0]!.fastRequests).toBe(1);
    expect((record['requests'] as { recorded: { speed?: string } }[])[0]!.recorded.speed).toBe('fast');
    expect((standard.record['requests'] as { recorded: { speed?: string } }[])[0]!.recorded).not.toHaveProperty('speed');
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it('Opus 4.8 twice the rates; a model the table has no fast price for keeps its standard rates', async () => {
    // Opus 4.8 standard is Opus 4.6's: fast 10 / 50 / 1 / 20 per MTok → $0.288895.
    expect((await recordedCost(fast('claude-opus-4-8'))).cost).toBeCloseTo(0.288895, 10);
    // Sonnet 4.6, standard 3 / 15 / 0.30 / 6 → $0.0866685, as without the field.
    expect((await recordedCost(fast('claude-sonnet-4-6'))).cost).toBeCloseTo(0.0866685, 10);
  });

  it('the folder usage pass prices the same, its lines parsed or scanned', async () => {
    for (const options of [{}, { fastLines: NODE_FAST_LINES }]) {
      const folder = emptyUsageFolder();
      await foldSessionUsage(folder, () => [{ name: 'short.jsonl', bytes: enc(fast()) }], options);
      expect(folder.parts[0]!.row.cost).toBeCloseTo(0.866685, 10);
      expect(folder.models[0]!.fastRequests).toBe(1);
    }
  });
});
