// Misses from recorded usage alone (src/core/cache/usage-misses.ts), worked by hand at Claude Fable 5.2's prices
// per million tokens: input $8, 5-minute write $10, read $0.20.
import { describe, expect, it } from 'vitest';
import { usageMisses } from '../../src/core/cache/usage-misses.ts';
import type { PricedRequest } from '../../src/core/cache/cost.ts';
import type { RecordedUsage } from '../../src/core/model.ts';
import { lookupModel } from '../../src/core/pricing/lookup.ts';

const pricing = lookupModel('claude-fable-5-2')!.pricing;
const call = (index: number, recorded: Partial<RecordedUsage> | null): PricedRequest => ({
  index,
  format: 'anthropic-messages',
  model: 'claude-fable-5-2',
  timestamp: null,
  recorded: recorded === null ? null : { input: 0, output: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, ...recorded },
  options: { promptCacheKey: null },
});

describe('usage misses', () => {
  const requests = [
    call(0, { input: 10, cacheWrite5m: 1000 }), // conversation 0, cold start: 1,010 not read
    call(1, { input: 5, cacheRead: 1000, cacheWrite5m: 200 }), // read all 1,000 r0 cached
    call(2, { input: 5, cacheRead: 300, cacheWrite5m: 1000 }), // r1 cached 1,200: 900 short
    call(3, null), // conversation 1, nothing recorded
    call(4, { input: 100 }), // conversation 1's cold start: 100 uncached, nothing cached
    call(5, {}), // an aborted call: no prompt billed
    call(6, { input: 50, cacheRead: 60 }), // 40 short of r4's 100: within the 64-token tolerance
  ];
  const conversation = [0, 0, 0, 1, 1, 1, 1];
  const misses = usageMisses({ requests, conversationOf: (r) => conversation[r]!, pricingOf: () => pricing });

  it('prices a cold start as what it wrote and sent uncached over reading it', () => {
    // Paid 10 × $8 + 1,000 × $10; a hit would have read 1,010 × $0.20: (80 + 10,000 − 202) / 1e6.
    expect(misses[0]!.tokens).toBe(1010);
    expect(misses[0]!.cost).toBeCloseTo(0.009878, 12);
    // Uncached only: 100 × ($8 − $0.20) / 1e6.
    expect(misses[4]!.tokens).toBe(100);
    expect(misses[4]!.cost).toBeCloseTo(0.00078, 12);
  });

  it('counts the shortfall below what the request before had cached, taken from its writes', () => {
    expect(misses[1]).toBeNull();
    // min(prompt 1,305, cached before 1,200) − read 300 = 900 tokens, written at $10 instead of read at $0.20.
    expect(misses[2]!.tokens).toBe(900);
    expect(misses[2]!.cost).toBeCloseTo(0.00882, 12);
  });

  it('skips requests without usage or prompt, and shortfalls within the tolerance', () => {
    expect(misses[3]).toBeNull();
    expect(misses[5]).toBeNull();
    expect(misses[6]).toBeNull();
  });

  it('has no cost for a model without a price', () => {
    const unpriced = usageMisses({ requests: [call(0, { input: 10, cacheWrite5m: 1000 })], conversationOf: () => 0, pricingOf: () => null });
    expect(unpriced[0]).toEqual({ tokens: 1010, cost: null });
  });
});
