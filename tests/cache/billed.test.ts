// Observed first: the actual cost is the recorded usage wherever a request carries it, the simulation elsewhere;
// the breakpoints and setup a transcript does not record are inferred from its recorded usage; the headline says
// which basis it shows and names unpriced models. Figures worked out by hand at Sonnet 4.5's rates
// (input 3, 5m write 3.75, 1h write 6, read 0.30, output 15 $/MTok).
import { describe, expect, it } from 'vitest';
import { costScenarios } from '../../src/core/cache/cost.ts';
import { actualText, basisText, costHeadline, unpricedText } from '../../src/core/cache/headline.ts';
import { analyzeCache } from '../../src/core/cache/index.ts';
import { buildRequests, pricingByModel } from './anthropic-builders.ts';

describe('billed cost: recorded where recorded, simulated elsewhere', () => {
  const built = buildRequests([
    // No recorded usage: simulated (writes the 5m entry on the system block: 1,200 × 3.75 + 300 × 3 = 5,400 µ$).
    { blocks: [{ id: 'sys', tokens: 1200, category: 'system', marker: '5m' }, { id: 'u1', tokens: 300 }] },
    // Recorded: the provider re-wrote instead of reading. 50 × 3 + 1,250 × 3.75 + 20 × 15 = 5,137.5 µ$.
    {
      blocks: [{ id: 'sys', tokens: 1200, category: 'system', marker: '5m' }, { id: 'u2', tokens: 100 }],
      recorded: { input: 50, cacheRead: 0, cacheWrite5m: 1250, cacheWrite1h: 0, output: 20 },
    },
    // An aborted call recorded as all zeros: recorded, and it billed nothing.
    { blocks: [{ id: 'sys', tokens: 1200, category: 'system', marker: '5m' }, { id: 'u3', tokens: 100 }], recorded: { input: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 0 } },
    // Recorded on a model with no price: counted, never priced.
    { blocks: [{ id: 'x', tokens: 50 }], model: 'claude-unknown-1', recorded: { input: 50, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 5 } },
  ]);
  const cost = costScenarios({ ...built, pricingOf: pricingByModel(built.requests) });

  it('takes each request with recorded usage from the record, the rest from the simulation', () => {
    expect(cost.billed.requests.map((r) => r.basis)).toEqual(['simulated', 'recorded', 'recorded', 'recorded']);
    expect(cost.billed.requests[0]!.cost.total).toBeCloseTo(0.0054, 12);
    expect(cost.billed.requests[1]).toMatchObject({ read: 0, write5m: 1250, write1h: 0, uncached: 50 });
    expect(cost.billed.requests[1]!.cost.total).toBeCloseTo(0.0051375, 12);
    // The simulation of the same request read the 1,200-token entry: 1,200 × 0.30 + 100 × 3 + 20 × 15 = 960 µ$.
    expect(cost.actual.costs[1]!.total).toBeCloseTo(0.00096, 12);
    expect(cost.billed.requests[2]!.cost.total).toBe(0);
    expect(cost.billed.requests[3]!.cost.total).toBeNull();
    expect(cost.billed.totals).toMatchObject({ recordedRequests: 3, simulatedRequests: 1, priced: 3, unpriced: 1 });
    expect(cost.billed.totals.total).toBeCloseTo(0.0054 + 0.0051375, 12);
    expect(cost.projection.actual).toBeCloseTo((0.0054 + 0.0051375) * 1000, 9);
  });

  it('prices the fixes off what was paid, never below zero', () => {
    for (const row of cost.billed.requests) {
      if (row.optimizedCost === null) continue;
      const avoided = cost.actual.costs[row.requestIndex]!.total! - cost.optimized.costs[row.requestIndex]!.total!;
      expect(row.optimizedCost).toBeCloseTo(Math.max(0, row.cost.total! - avoided), 12);
    }
    expect(cost.potentialSavings).toBeGreaterThanOrEqual(0);
    expect(cost.potentialSavings).toBeCloseTo(cost.billed.totals.total - cost.optimizedCost, 12);
  });

  it('says the basis and names the unpriced model in the headline', () => {
    const headline = costHeadline(cost.billed.totals, [
      { id: 'claude-sonnet-4-5', known: true },
      { id: 'claude-unknown-1', known: false },
    ]);
    expect(headline.basis).toBe('mixed');
    expect(basisText(headline)).toBe('recorded usage of 3 requests, simulated for 1');
    expect(unpricedText(headline)).toBe('not priced: claude-unknown-1');
    expect(actualText(headline)).toBe('$0.0105');
    const none = costHeadline({ total: 0, priced: 0, unpriced: 2, outputRecorded: 2, recordedRequests: 2, simulatedRequests: 0, batchRequests: 0, fastRequests: 0 }, [{ id: 'gpt-x', known: false }]);
    expect(actualText(none)).toBe('not priced');
    expect(basisText(none)).toBe('recorded usage of all 2 requests');
    expect(basisText({ recordedRequests: 0, simulatedRequests: 4, batchRequests: 0, fastRequests: 0 })).toBe('simulated: the log records no usage');
    expect(basisText({ recordedRequests: 3, simulatedRequests: 0, batchRequests: 3, fastRequests: 0 })).toBe('recorded usage of all 3 requests, all at Batch API prices (half the list price)');
    expect(basisText({ recordedRequests: 2, simulatedRequests: 2, batchRequests: 1, fastRequests: 0 })).toBe('recorded usage of 2 requests, simulated for 2, 1 at Batch API prices (half the list price)');
    expect(basisText({ recordedRequests: 1, simulatedRequests: 0, batchRequests: 0, fastRequests: 1 })).toBe('recorded usage of its one request, all in fast mode (at its rates)');
    expect(basisText({ recordedRequests: 3, simulatedRequests: 0, batchRequests: 0, fastRequests: 2 })).toBe('recorded usage of all 3 requests, 2 in fast mode (at its rates)');
  });
});

describe('breakpoints and setup inferred from recorded usage', () => {
  // A transcript-like conversation: no cache_control anywhere, the system prompt and tools not recorded.
  const transcript = (recorded: { cacheRead: number; cacheWrite5m: number; cacheWrite1h: number }[]) => {
    const built = buildRequests(
      recorded.map((usage, i) => ({
        blocks: Array.from({ length: i + 1 }, (_, b) => ({ id: `m${b}`, tokens: 1000 })),
        model: 'claude-sonnet-4-5',
        // The provider counted 5,000 tokens of setup the transcript left out on top of the messages.
        recorded: { input: 5000 + 1000 * (i + 1) - usage.cacheRead - usage.cacheWrite5m - usage.cacheWrite1h, output: 0, ...usage },
      })),
    );
    for (const request of built.requests) request.notes.push({ code: 'transcript_missing_system', message: 'not recorded' });
    return analyzeCache({ ...built, pricingOf: pricingByModel(built.requests), breakpointsUnknown: () => true });
  };

  it('infers a 1h tail breakpoint where the session wrote 1-hour entries, and sizes the setup', () => {
    const cache = transcript([
      { cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 6000 },
      { cacheRead: 6000, cacheWrite5m: 0, cacheWrite1h: 1000 },
    ]);
    expect(cache.inferred.markers).toEqual([{ ttl: '1h' }, { ttl: '1h' }]);
    // Recorded 6,000 and 7,000 against 1,000 and 2,000 rebuilt (plus framing overhead the test builder sets to 0).
    expect(cache.inferred.setupTokens).toEqual([5000, 5000]);
    const simulated = cache.cost.actual.simulation.requests;
    expect(simulated.map((r) => [r.read, r.write1h, r.uncached])).toEqual([
      [0, 6000, 0],
      [6000, 1000, 0],
    ]);
    expect(simulated[0]!.breakpoints[0]).toMatchObject({ source: 'inferred', ttl: '1h' });
    expect(cache.inferred.uninferred).toBe(0);
  });

  it('infers 5m where only 5-minute entries were written, and nothing where no cache activity was recorded', () => {
    expect(transcript([{ cacheRead: 0, cacheWrite5m: 6000, cacheWrite1h: 0 }]).inferred.markers).toEqual([{ ttl: '5m' }]);
    const none = transcript([
      { cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 },
      { cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 },
    ]);
    expect(none.inferred.markers).toEqual([null, null]);
    expect(none.inferred.uninferred).toBe(2);
    expect(none.cost.actual.simulation.totals.read).toBe(0);
  });

  it('leaves requests whose log records cache_control as written', () => {
    const built = buildRequests([{ blocks: [{ id: 'a', tokens: 2000, marker: '5m' }], recorded: { input: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 2000, output: 0 } }]);
    const cache = analyzeCache({ ...built, pricingOf: pricingByModel(built.requests), breakpointsUnknown: () => true });
    expect(cache.inferred.markers).toEqual([null]);
    expect(cache.cost.actual.simulation.requests[0]!.breakpoints.map((b) => b.source)).toEqual(['explicit']);
  });
});
