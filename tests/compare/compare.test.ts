// src/core/compare on the synthetic cache-bust example and its synthetic fixed twin, and on bad records.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { change, compareRecords, CompareInputError, metricOf, worseMetrics, type Comparison } from '../../src/core/compare/index.ts';

const root = path.resolve(__dirname, '../..');
const read = async (file: string) => {
  const analysis = await analyzeInput([{ name: file, bytes: new Uint8Array(readFileSync(path.join(root, 'examples', file))) }]);
  return JSON.parse(JSON.stringify(buildRecord(analysis))) as AnalysisJson;
};

interface AnalysisJson {
  totals: { tokens: number; byCategory: Record<string, number>; cost: { actual: number; optimized: number } };
  [key: string]: unknown;
}

let bust: AnalysisJson;
let fixed: AnalysisJson;
let comparison: Comparison;
beforeAll(async () => {
  bust = await read('synthetic-anthropic-agent-cache-bust.jsonl.gz');
  fixed = await read('synthetic-anthropic-agent-cache-fixed.jsonl.gz');
  comparison = compareRecords(bust, fixed).comparison;
}, 120_000);

const metric = (id: string) => comparison.metrics.find((row) => row.metric === id)!;

describe('compare: the cache-bust example against its fixed twin', () => {
  it('gives the difference of the two records\' totals', () => {
    expect(metric('requests')).toMatchObject({ before: 24, after: 24, change: 0, verdict: 'same' });
    expect(metric('tokens').change).toBe(fixed.totals.tokens - bust.totals.tokens);
    expect(metric('cost').change).toBeCloseTo(fixed.totals.cost.actual - bust.totals.cost.actual, 12);
    expect(metric('optimized').change).toBeCloseTo(fixed.totals.cost.optimized - bust.totals.cost.optimized, 12);
    for (const row of comparison.tokensByCategory) {
      expect(row.change, row.category).toBe((fixed.totals.byCategory[row.category] ?? 0) - (bust.totals.byCategory[row.category] ?? 0));
    }
  });

  it('matches the figures worked out by hand', () => {
    // The twin drops the timestamp from the system prompt: 21 tokens fewer on each of the 24 requests.
    expect(comparison.tokensByCategory.find((row) => row.category === 'system')).toMatchObject({ before: 70_512, after: 70_008, change: -504 });
    expect(comparison.tokensByCategory.find((row) => row.category === 'tool_result')).toMatchObject({ change: 0, relative: 0 });
    // $4.356612 as sent (framing past the breakpoint billed as input, not written) → $0.82456845 fixed; the bust's own optimized figure ($0.8248) is within 0.03 % of it.
    expect(metric('cost')).toMatchObject({ before: 4.356612, after: 0.82456845, verdict: 'better' });
    expect(metric('cost').change).toBeCloseTo(-3.53204355, 10);
    expect(metric('cost').relative).toBeCloseTo(-3.53204355 / 4.356612, 10);
    // Hit rate: nothing read from cache before; 1,311,649 of 1,426,602 prompt tokens after.
    expect(metric('hitRate')).toMatchObject({ before: 0, verdict: 'better' });
    expect(metric('hitRate').after).toBeCloseTo(1_311_649 / 1_426_602, 12);
    // Both findings of the bust are gone; only the cold start miss is left.
    expect(comparison.findings.map((row) => [row.code, row.findings.before, row.findings.after])).toEqual([
      ['volatile_value_in_prefix', 1, 0],
      ['missing_tail_breakpoint', 1, 0],
    ]);
    expect(metric('findings')).toMatchObject({ before: 2, after: 0, change: -2, verdict: 'better' });
    expect(comparison.misses.find((row) => row.cause === 'setup_changed')?.count).toMatchObject({ before: 23, after: 0, change: -23 });
  });

  it('--fail-if-worse names only the metrics that went the worse way', () => {
    const reverse = compareRecords(fixed, bust).comparison;
    expect(worseMetrics(comparison, ['cost', 'hitRate', 'findings'])).toEqual([]);
    expect(worseMetrics(reverse, ['cost', 'hitRate', 'requests']).map((row) => row.metric)).toEqual(['cost', 'hitRate']);
    expect(metricOf('hit-rate')).toBe('hitRate');
    expect(metricOf('lost_to_misses')).toBe('lostToMisses');
    expect(metricOf('speed')).toBeUndefined();
  });
});

describe('compare: changes and bad records', () => {
  it('says no change within float noise, and nothing relative to zero', () => {
    expect(change(0.1 + 0.2, 0.3)).toEqual({ before: 0.1 + 0.2, after: 0.3, change: 0, relative: 0 });
    expect(change(0, 5)).toEqual({ before: 0, after: 5, change: 5, relative: null });
    expect(change(null, 5)).toEqual({ before: null, after: 5, change: null, relative: null });
  });

  it('refuses what is not an analysis record, naming the side and the key', () => {
    expect(() => compareRecords([], fixed)).toThrow(new CompareInputError('before', 'record', 'expected a JSON object, got an array'));
    expect(() => compareRecords(bust, { schema: 'ctxray.dupes/1' })).toThrow('after: schema: expected "ctxray.analysis/2", got the string "ctxray.dupes/1"');
    const broken = { ...fixed, totals: { ...fixed.totals, tokens: '12' } };
    expect(() => compareRecords(bust, broken)).toThrow('after: totals.tokens: expected a number, got the string "12"');
    expect(() => compareRecords(bust, { ...fixed, misses: {} })).toThrow('after: misses: expected an array, got object');
  });

  it('a record without a cache analysis has no cost figures: unknown, never a zero', () => {
    const { cost: _cost, ...uncosted } = fixed.totals;
    const result = compareRecords(bust, { ...fixed, totals: uncosted, misses: undefined }).comparison;
    expect(result.metrics.find((row) => row.metric === 'cost')).toMatchObject({ before: 4.356612, after: null, change: null, verdict: 'unknown' });
    expect(result.metrics.find((row) => row.metric === 'lostToMisses')?.verdict).toBe('unknown');
  });
});
