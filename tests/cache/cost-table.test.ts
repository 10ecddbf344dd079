// The per-request cache table (synthetic requests; figures from the hand-computed sequences in anthropic.test.ts).
import { describe, expect, it } from 'vitest';
import { costScenarios } from '../../src/core/cache/cost.ts';
import { analyzeCache } from '../../src/core/cache/index.ts';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
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
    expect(table.totals).toMatchObject({ promptTokens: 2850, read: 1200, write5m: 1200, unpriced: 1, outputRecorded: 1, promptCacheKeys: 0 });
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
  const analysis = { ...built, tokens: [], files: [], models: built.requests.map((_, i) => ({ pricing: pricingOf(i) })) };

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

describe('cache-table query calibrated on recorded usage', () => {
  // Recorded prompt 4,000 against an estimate of 2,000: factor 2.
  const usage = { input: 0, cacheRead: 0, cacheWrite5m: 4000, cacheWrite1h: 0, output: 0 };
  const built = buildRequests([{ blocks: [{ id: 'sys', tokens: 2000, category: 'system', marker: '5m' }], recorded: usage }]);
  const pricingOf = pricingByModel(built.requests);
  const analysis = { ...built, tokens: [], files: [], models: built.requests.map((_, i) => ({ pricing: pricingOf(i) })) };
  const session = () => ({ requests: built.requests, sections: {}, analysis, inputs: [] });

  it('offers the factor, and applies it only when asked', () => {
    const plain = cacheTableQuery(session());
    expect(plain.availableCalibration).toEqual({ factor: 2, source: 'recorded-usage', requests: 1 });
    expect(plain.appliedCalibration).toBeNull();
    expect(plain.rows[0]!.write5m).toBe(2000);
    expect(() => cacheTableQuery(session(), { calibrate: 'yes' })).toThrow(/must be a boolean/);
  });
});

describe('cache-table query on an analyzed gateway log with recorded usage', () => {
  const system = 'Synthetic system prompt for the calibration toggle test. '.repeat(120);
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 8,
    system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: 'Synthetic question.' }],
  };

  it('redoes the simulation on calibrated counts when asked', async () => {
    const probe = await analyzeInput([{ name: 'probe.jsonl', bytes: new TextEncoder().encode(JSON.stringify(body) + '\n') }]);
    const estimate = probe.tokens[0]!.total;
    // A recorded prompt of twice the estimate, all of it written to the cache.
    const usage = { input_tokens: 0, cache_creation_input_tokens: 2 * estimate, cache_read_input_tokens: 0, output_tokens: 3 };
    const line = JSON.stringify({ request: body, response: { usage } }) + '\n';
    const analysis = await analyzeInput([{ name: 'gateway.jsonl', bytes: new TextEncoder().encode(line) }]);
    expect(analysis.requests[0]!.recorded).not.toBeNull();
    const session = { requests: analysis.requests, sections: {}, analysis, inputs: [] };
    const plain = cacheTableQuery(session);
    const calibrated = cacheTableQuery(session, { calibrate: true });
    expect(calibrated.appliedCalibration?.factor).toBeCloseTo(2, 12);
    expect(Math.abs(calibrated.rows[0]!.promptTokens - 2 * plain.rows[0]!.promptTokens)).toBeLessThanOrEqual(4);
    expect(calibrated.rows[0]!.readAgrees).toBe(true);
  });
});

describe('cache table: a costlier optimized scenario', () => {
  it('says the requests as sent stand, and what the optimized scenario would have cost', () => {
    // One lone request with no breakpoint: the optimized tail breakpoint writes 2,000 tokens at $3.75 nobody reads.
    const built = buildRequests([{ blocks: [{ id: 'lone', tokens: 2000, category: 'system' }] }]);
    const table = cacheTable(built.requests, costScenarios({ ...built, pricingOf: pricingByModel(built.requests) }));
    expect(table.optimizedRejected).toBe(true);
    expect(table.optimizedScenarioCost).toBeCloseTo(0.0075, 12);
    expect(table.totals.optimizedCost).toBeCloseTo(0.006, 12);
    expect(table.potentialSavings).toBe(0);
  });
});
