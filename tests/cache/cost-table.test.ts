// The per-request cache table (synthetic requests; figures from the hand-computed sequences in anthropic.test.ts).
import { describe, expect, it } from 'vitest';
import { costScenarios } from '../../src/core/cache/cost.ts';
import { analyzeCache } from '../../src/core/cache/index.ts';
import { cacheTable } from '../../src/core/cache/table.ts';
import { cacheTableQuery } from '../../src/worker/handlers/cache-table.ts';
import { buildRequests, pricingByModel } from './anthropic-builders.ts';

describe('cache table', () => {
  const built = buildRequests([
    { blocks: [{ id: 'tools', tokens: 1200, category: 'tools', marker: '5m' }, { id: 'u1', tokens: 300 }] },
    {
      blocks: [{ id: 'tools', tokens: 1200, category: 'tools', marker: '5m' }, { id: 'u2', tokens: 100 }],
      recorded: { input: 100, cacheRead: 1200, cacheWrite5m: 0, cacheWrite1h: 0, output: 10 },
    },
    { blocks: [{ id: 'x', tokens: 50 }], model: 'claude-unknown-1' },
  ]);
  const table = cacheTable(built.requests, costScenarios({ ...built, pricingOf: pricingByModel(built.requests) }));

  it('lists simulated figures, cost and recorded usage per request', () => {
    expect(table.rows.map((r) => [r.read, r.write5m, r.uncached, r.hit])).toEqual([
      [0, 1200, 300, false],
      [1200, 0, 100, true],
      [0, 0, 50, false],
    ]);
    // 1,200 × 3.75 + 300 × 3 = 5,400 µ$; 1,200 × 0.30 + 100 × 3 + 10 × 15 = 810 µ$.
    expect(table.rows[0]!.cost).toBeCloseTo(0.0054, 12);
    expect(table.rows[1]!.cost).toBeCloseTo(0.00081, 12);
    expect(table.rows[2]).toMatchObject({ pricedAs: null, cost: null, events: ['no_breakpoint'] });
    expect(table.rows[1]).toMatchObject({ recorded: { read: 1200, write: 0, uncached: 100, prompt: 1300 }, readAgrees: true });
    expect(table.rows[0]!.recorded).toBeNull();
    expect(table.rows[0]!.readAgrees).toBeNull();
  });

  it('carries the totals, savings, projection and agreement summary', () => {
    expect(table.totals).toMatchObject({ promptTokens: 2850, read: 1200, write5m: 1200, unpriced: 1, outputRecorded: 1 });
    expect(table.totals.actualCost).toBeCloseTo(0.0054 + 0.00081, 12);
    expect(table.projection.sessions).toBe(1000);
    expect(table.observed).toEqual({ compared: 1, readAgreements: 1, readAgreementRate: 1, writeAgreements: 1 });
    expect(table.assumedWithinTtl).toBe(true);
  });
});

describe('cache-table worker query', () => {
  const built = buildRequests([
    { blocks: [{ id: 'sys', tokens: 2000, category: 'system', marker: '5m' }] },
    { blocks: [{ id: 'sys', tokens: 2000, category: 'system', marker: '5m' }] },
  ]);
  const pricingOf = pricingByModel(built.requests);
  const analysis = { ...built, models: built.requests.map((_, i) => ({ pricing: pricingOf(i) })) };

  it('simulates from the analysis when it has no cache section, and reuses the section when it has one', () => {
    const fresh = cacheTableQuery({ requests: built.requests, sections: {}, analysis, inputs: [] });
    expect(fresh.rows.map((r) => [r.read, r.write5m])).toEqual([
      [0, 2000],
      [2000, 0],
    ]);
    const section = analyzeCache({ ...built, pricingOf: () => null });
    const reused = cacheTableQuery({ requests: built.requests, sections: { cache: section }, analysis, inputs: [] });
    expect(reused.totals.unpriced).toBe(2);
  });

  it('needs an analyzed input', () => {
    expect(() => cacheTableQuery(null)).toThrow(/No input has been analyzed/);
  });
});
