// Cost of simulated cache figures, priced per request with its own model (synthetic sequences, hand-computed).
import { describe, expect, it } from 'vitest';
import { costScenarios, scenarioReport } from '../../src/core/cache/cost.ts';
import { lookupModel } from '../../src/core/pricing/lookup.ts';
import type { ModelPricing } from '../../src/core/pricing/types.ts';
import type { ParsedRequest } from '../../src/core/model.ts';
import { buildRequests, pricingByModel, type BlockSpec, type RequestSpec } from './anthropic-builders.ts';

const tools: BlockSpec = { id: 'tools', tokens: 1200, category: 'tools', marker: '5m' };
const u1: BlockSpec = { id: 'u1', tokens: 300 };
const a1: BlockSpec = { id: 'a1', tokens: 200, category: 'assistant' };
const u2: BlockSpec = { id: 'u2', tokens: 100 };
const a2: BlockSpec = { id: 'a2', tokens: 100, category: 'assistant' };
const u3: BlockSpec = { id: 'u3', tokens: 50 };

function tableLookup(requests: readonly ParsedRequest[]): (i: number) => ModelPricing | null {
  return (i) => lookupModel(requests[i]?.model ?? '')?.pricing ?? null;
}

function report(specs: RequestSpec[], lookup: 'table' | 'hand' = 'hand') {
  const built = buildRequests(specs);
  const pricingOf = lookup === 'table' ? tableLookup(built.requests) : pricingByModel(built.requests);
  return scenarioReport({ ...built, pricingOf }, 'actual');
}

describe('cost of the three-request Anthropic sequence (Sonnet 4.5: $3 in, $3.75 write, $0.30 read)', () => {
  const r = report([
    { blocks: [tools, { ...u1, marker: '5m' }] },
    { blocks: [tools, u1, a1, { ...u2, marker: '5m' }] },
    { blocks: [tools, u1, a1, u2, a2, { ...u3, marker: '5m' }] },
  ]);

  it('prices reads and writes exactly', () => {
    // 1,500 × 3.75 = 5,625 µ$; 1,500 × 0.30 + 300 × 3.75 = 1,575 µ$; 1,800 × 0.30 + 150 × 3.75 = 1,102.5 µ$.
    expect(r.costs.map((c) => c.total)).toEqual([0.005625, 0.001575, 0.0011025].map((v) => expect.closeTo(v, 12)));
    expect(r.costs[1]).toMatchObject({ cacheRead: expect.closeTo(0.00045, 12), cacheWrite: expect.closeTo(0.001125, 12) });
    expect(r.totals.total).toBeCloseTo(0.0083025, 12);
    expect(r.totals).toMatchObject({ priced: 3, unpriced: 0, outputRecorded: 0 });
  });

  it('bills recorded output tokens and states when output was not recorded', () => {
    const withOutput = report([
      { blocks: [u1], recorded: { input: 300, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 1000 } },
      { blocks: [u1] },
    ]);
    // 300 × $3 + 1,000 × $15 = 0.0009 + 0.015.
    expect(withOutput.costs[0]).toMatchObject({ outputTokens: 1000, outputRecorded: true });
    expect(withOutput.costs[0]!.total).toBeCloseTo(0.0159, 12);
    expect(withOutput.costs[1]).toMatchObject({ outputTokens: 0, outputRecorded: false, output: 0 });
    expect(withOutput.totals.outputRecorded).toBe(1);
  });
});

describe('pricing with each request’s own model', () => {
  it('never prices an unknown model as another one', () => {
    const r = report([{ blocks: [u1] }, { blocks: [u1], model: 'claude-imaginary-9' }], 'table');
    expect(r.costs[1]).toMatchObject({ pricedAs: null, total: null });
    expect(r.totals).toMatchObject({ priced: 1, unpriced: 1 });
    expect(r.totals.total).toBeCloseTo(0.0009, 12);
  });

  it('applies the Haiku 5.5 tier above 100K prompt tokens to the whole request', () => {
    const at = report([{ blocks: [{ id: 'p', tokens: 100_000 }], model: 'claude-haiku-5-5' }], 'table');
    expect(at.costs[0]).toMatchObject({ longContextTier: false });
    expect(at.costs[0]!.total).toBeCloseTo(0.01, 12); // 100,000 × $0.10
    const above = report([{ blocks: [{ id: 'p', tokens: 100_001 }], model: 'claude-haiku-5-5' }], 'table');
    expect(above.costs[0]).toMatchObject({ longContextTier: true });
    expect(above.costs[0]!.total).toBeCloseTo(0.0500005, 12); // 100,001 × $0.50
  });

  it('applies the OpenAI 272K modifier (2× input, 1.5× output) to gpt-5.6-sol', () => {
    const usage = { input: 272_001, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 1000 };
    const r = report(
      [{ blocks: [{ id: 'p', tokens: 272_001 }], model: 'gpt-5.6-sol', format: 'openai-responses', recorded: usage }],
      'table',
    );
    // GPT-5.6 implicit mode writes the whole prompt at the doubled write price ($5 × 2), output at $20 × 1.5:
    // 272,001 × $10 + 1,000 × $30.
    expect(r.costs[0]!.cacheWrite).toBeCloseTo(2.72001, 9);
    expect(r.costs[0]!.total).toBeCloseTo(2.72001 + 0.03, 9);
    expect(r.costs[0]!.longContextTier).toBe(true);
  });
});

describe('dated prices', () => {
  it('prices Sonnet 5.5 cache reads at $0.20 before 2026-10-07 and $0.10 from then', () => {
    const sys: BlockSpec = { id: 'sys', tokens: 2000, category: 'system', marker: '5m' };
    const at = (iso: string): RequestSpec[] => {
      const t = Date.parse(iso);
      return [
        { blocks: [sys], model: 'claude-sonnet-5-5', timestamp: t },
        { blocks: [sys], model: 'claude-sonnet-5-5', timestamp: t + 60_000 },
      ];
    };
    // The second request reads 2,000 tokens.
    expect(report(at('2026-10-06T12:00:00Z'), 'table').costs[1]!.cacheRead).toBeCloseTo(0.0004, 12);
    expect(report(at('2026-10-08T12:00:00Z'), 'table').costs[1]!.cacheRead).toBeCloseTo(0.0002, 12);
    // Without a timestamp: the current price.
    const undated = report([{ blocks: [sys], model: 'claude-sonnet-5-5' }, { blocks: [sys], model: 'claude-sonnet-5-5' }], 'table');
    expect(undated.costs[1]!.cacheRead).toBeCloseTo(0.0002, 12);
  });
});

describe('actual vs optimized, savings and the 1,000-session projection', () => {
  const sys = (t: string): BlockSpec => ({ id: `"Now: ${t}"`, tokens: 2000, category: 'system', marker: '5m' });
  const specs: RequestSpec[] = [
    { blocks: [sys('2026-11-30T05:00:00Z'), u1] },
    { blocks: [sys('2026-11-30T05:01:00Z'), u1, a1, u2] },
  ];
  const built = buildRequests(specs);
  const comparison = costScenarios({ ...built, pricingOf: pricingByModel(built.requests) });

  it('reports the difference and multiplies it by 1,000 sessions', () => {
    // Actual: each request writes 2,000 (7,500 µ$) and sends the rest uncached: 300 × 3 and 600 × 3.
    expect(comparison.actual.totals.total).toBeCloseTo(0.0075 + 0.0009 + 0.0075 + 0.0018, 12);
    // Optimized: request 0 writes 2,300; request 1 reads 2,300 and writes 300.
    expect(comparison.optimized.totals.total).toBeCloseTo(0.008625 + 0.00069 + 0.001125, 12);
    expect(comparison.potentialSavings).toBeCloseTo(0.0177 - 0.01044, 12);
    expect(comparison.savingsFraction).toBeCloseTo(0.00726 / 0.0177, 12);
    expect(comparison.projection.sessions).toBe(1000);
    expect(comparison.projection.savings).toBeCloseTo(7.26, 9);
    expect(comparison.projection.actual).toBeCloseTo(17.7, 9);
  });
});

describe('edges of the comparison', () => {
  it('does not call an optimization that costs exactly as much "rejected"', () => {
    // Two requests that already carry the tail breakpoint the optimized scenario would add: the same figures.
    const marked: BlockSpec = { ...u1, tokens: 1500, marker: '5m' };
    const built = buildRequests([{ blocks: [marked] }, { blocks: [marked] }]);
    const comparison = costScenarios({ ...built, pricingOf: pricingByModel(built.requests) });
    expect(comparison.optimizedScenarioCost).toBeCloseTo(comparison.actual.totals.total, 12);
    expect(comparison.optimizedRejected).toBe(false);
    expect(comparison.potentialSavings).toBeCloseTo(0, 12);
  });

  it('gives a saving fraction of 0, not NaN, when nothing could be priced', () => {
    const built = buildRequests([{ blocks: [u1], model: 'claude-imaginary-9' }]);
    const comparison = costScenarios({ ...built, pricingOf: () => null });
    expect(comparison.actual.totals.total).toBe(0);
    expect(comparison.savingsFraction).toBe(0);
    expect(comparison.actual.costs[0]).toMatchObject({ pricedAs: null, total: null, longContextTier: false });
  });
});

describe('an optimization that costs more is rejected', () => {
  it('keeps the requests as sent when the tail breakpoint would only add a write nothing reads', () => {
    // One request of 1,500 tokens with no breakpoint: as sent 1,500 × $3 = 4,500 µ$; the optimized scenario writes
    // it at the tail (1,500 × $3.75 = 5,625 µ$) and no later request reads it.
    const built = buildRequests([{ blocks: [{ id: 'tools', tokens: 1200, category: 'tools' }, u1] }]);
    const comparison = costScenarios({ ...built, pricingOf: pricingByModel(built.requests) });
    expect(comparison.actual.totals.total).toBeCloseTo(0.0045, 12);
    expect(comparison.optimizedScenarioCost).toBeCloseTo(0.005625, 12);
    expect(comparison.optimizedRejected).toBe(true);
    expect(comparison.optimized.totals.total).toBeCloseTo(0.0045, 12);
    expect(comparison.potentialSavings).toBe(0);
  });
});
