// The folder's figures over time (src/core/transcripts/daily.ts): per UTC day or ISO week, stacked by model, with
// hit rates and miss costs. The per-day, per-model rows are SYNTHETIC, built by hand here; the values expected are
// worked out by hand from them. The last test reads a SYNTHETIC Claude Code session (tests/transcripts/claude-code-session.ts).
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { folderSeries, weekOf } from '../../src/core/transcripts/daily.ts';
import { sessionPartsOf } from '../../src/core/transcripts/index.ts';
import type { DayModelRow, SessionPart } from '../../src/core/transcripts/sessions.ts';
import { syntheticClaudeCodeSession as session } from './claude-code-session.ts';

const sums = (input: number, cacheRead: number, cacheWrite5m: number, output: number) => ({ input, output, cacheRead, cacheWrite5m, cacheWrite1h: 0 });

function row(day: string | null, model: string | null, cost: number, recorded = sums(100, 0, 0, 0), lost: number | null = null): DayModelRow {
  return { day, model, requests: 1, recorded, cost, unpricedRequests: 0, misses: lost === null ? null : { count: 1, tokens: 10, cost: lost } };
}

/** A session part that carries only what the series reads (its per-day, per-model rows). */
const part = (dayModels: DayModelRow[]): SessionPart => ({ row: null as never, days: [], dayModels });

describe('folderSeries', () => {
  it('sums days across sessions, orders the stacks by model cost, and counts the empty days skipped', () => {
    const a = part([row('2026-03-02', 'opus', 2, sums(100, 900, 0, 20), 0.5), row('2026-03-01', 'sonnet', 1, sums(1000, 0, 2000, 100))]);
    const b = part([row('2026-03-02', 'sonnet', 0.25, sums(10, 90, 0, 0)), row('2026-03-05', 'opus', 1), row(null, 'opus', 9)]);
    const series = folderSeries([a, b], 'day');
    expect(series.bucketing).toBe('day');
    // opus 3 (2 + 1; the untimed 9 is in no bucket) before sonnet 1.25.
    expect(series.models).toEqual([
      { model: 'opus', other: 0 },
      { model: 'sonnet', other: 0 },
    ]);
    expect(series.days).toBe(3);
    expect(series.untimedRequests).toBe(1);
    expect(series.buckets.map((b) => [b.key, b.last, b.skipped, b.requests, b.cost, b.tokens])).toEqual([
      ['2026-03-01', '2026-03-01', 0, 1, 1, 3100],
      ['2026-03-02', '2026-03-02', 0, 2, 2.25, 1120],
      // 03-03 and 03-04 have no request.
      ['2026-03-05', '2026-03-05', 2, 1, 1, 100],
    ]);
    expect(series.buckets[1]!.stacks).toEqual([
      { cost: 2, tokens: 1020 },
      { cost: 0.25, tokens: 100 },
    ]);
    // 03-02: read 990 of 100 + 900 + 10 + 90 = 1,100 prompt tokens.
    expect(series.buckets[1]!.hitRate).toBeCloseTo(990 / 1100, 12);
    expect(series.buckets[0]!.hitRate).toBe(0);
    // Lost: only the 03-02 opus row has a miss analysis.
    expect(series.buckets.map((b) => b.lost)).toEqual([null, 0.5, null]);
  });

  it('buckets by ISO week (Monday to Sunday, UTC) and counts the empty weeks between', () => {
    expect(weekOf('2026-03-01')).toBe('2026-02-23'); // a Sunday
    expect(weekOf('2026-03-02')).toBe('2026-03-02'); // a Monday
    expect(weekOf('2026-01-01')).toBe('2025-12-29'); // across a year
    const series = folderSeries([part([row('2026-03-01', 'm', 1), row('2026-03-02', 'm', 2), row('2026-03-08', 'm', 4), row('2026-03-24', 'm', 8)])], 'week');
    expect(series.buckets.map((b) => [b.key, b.last, b.skipped, b.cost])).toEqual([
      ['2026-02-23', '2026-03-01', 0, 1],
      ['2026-03-02', '2026-03-08', 0, 6],
      ['2026-03-23', '2026-03-29', 2, 8],
    ]);
    expect(series.days).toBe(4);
  });

  it("stacks every model past the fourth costliest as one 'other models' part", () => {
    const rows = ['a', 'b', 'c', 'd', 'e', 'f'].map((model, i) => row('2026-03-01', model, 6 - i));
    const series = folderSeries([part(rows)], 'day');
    expect(series.models).toEqual([
      { model: 'a', other: 0 },
      { model: 'b', other: 0 },
      { model: 'c', other: 0 },
      { model: 'd', other: 0 },
      { model: null, other: 2 },
    ]);
    // e 2 + f 1.
    expect(series.buckets[0]!.stacks.map((s) => s.cost)).toEqual([6, 5, 4, 3, 3]);
  });

  it("'auto' goes by week past 60 days with requests, by day up to it", () => {
    const days = (n: number) => Array.from({ length: n }, (_, i) => row(new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10), 'm', 1));
    expect(folderSeries([part(days(60))], 'auto').bucketing).toBe('day');
    expect(folderSeries([part(days(61))], 'auto')).toMatchObject({ bucketing: 'week', days: 61 });
  });

  it('counts the requests on a model without a price per bucket (in the tokens, not in the cost)', () => {
    const gemini = { ...row('2026-03-01', 'gemini-3-pro', 0, sums(500, 0, 0, 50)), requests: 3, unpricedRequests: 3 };
    const series = folderSeries([part([gemini, row('2026-03-01', 'opus', 1), row('2026-03-02', 'opus', 2)])], 'day');
    expect(series.buckets.map((b) => [b.key, b.requests, b.unpricedRequests, b.cost, b.tokens])).toEqual([
      ['2026-03-01', 4, 3, 1, 650],
      ['2026-03-02', 1, 0, 2, 100],
    ]);
  });

  it('gives no bucket for no parts or only untimed requests', () => {
    expect(folderSeries([], 'auto')).toEqual({ bucketing: 'day', models: [], buckets: [], days: 0, untimedRequests: 0 });
    expect(folderSeries([part([row(null, 'm', 1)])], 'day')).toMatchObject({ buckets: [], untimedRequests: 1 });
  });

  it('reads the per-day, per-model rows a session analysis gives (a session across midnight UTC)', async () => {
    const text = session('s1', '2026-03-01T23:59:00.000Z', [
      { input: 1000, read: 0, write5m: 2000, output: 100 },
      { input: 10, read: 3000, write5m: 200, output: 50 },
    ]);
    const analysis = await analyzeInput([{ name: 's1.jsonl', bytes: new TextEncoder().encode(text), folderPath: 'p/s1.jsonl' }]);
    const series = folderSeries(sessionPartsOf(analysis), 'day');
    expect(series.models).toEqual([{ model: 'claude-sonnet-4-5', other: 0 }]);
    // At $3 input, $0.30 cache read, $3.75 5-minute write, $15 output per million tokens:
    // 03-01: 1,000 × 3 + 2,000 × 3.75 + 100 × 15 = 12,000 µ$; 03-02: 10 × 3 + 3,000 × 0.3 + 200 × 3.75 + 50 × 15 = 2,430 µ$.
    expect(series.buckets.map((b) => [b.key, b.requests, b.tokens])).toEqual([
      ['2026-03-01', 1, 3100],
      ['2026-03-02', 1, 3260],
    ]);
    expect(series.buckets[0]!.cost).toBeCloseTo(0.012, 12);
    expect(series.buckets[1]!.cost).toBeCloseTo(0.00243, 12);
    expect(series.buckets[1]!.hitRate).toBeCloseTo(3000 / 3210, 12);
  });
});
