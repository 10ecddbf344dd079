import { describe, expect, it } from 'vitest';
import { newAccumulator, viewWeights, type ResultEntry } from '../../src/core/clearing/accumulate.ts';
import { costRatio, rateModel, pressureInputs, allUncachedInformational } from '../../src/core/clearing/cost-model.ts';
import { criteriaFor, overallVerdict, verdictFor, type GateInputs } from '../../src/core/clearing/gate.ts';
import { parseRoutes, type Route } from '../../src/core/clearing/inputs.ts';
import { simulateConversation, type ConversationData, type SimBoundary } from '../../src/core/clearing/simulate.ts';
import { ROUTE } from './helpers.ts';

function route(overrides: Partial<typeof ROUTE> = {}): Route {
  const parsed = parseRoutes([{ ...ROUTE, ...overrides }]);
  if (!parsed.ok) throw new Error(parsed.error.reason);
  return parsed.value[0] as Route;
}

/** An accumulator with hand-chosen sums (list view only is checked by hand; quota mirrors it). */
function handAccumulator() {
  const a = newAccumulator(route());
  a.growthTokens = 1600; // G; T − P = 800 → C = 2
  a.admittedNetTokens = 400; // S → S/C = 200
  a.admittedEscapedTokens = 440; // R
  a.admittedSummaryTokens = 100;
  a.admittedCount = 2;
  a.roundTripPrefixTokens = 1500;
  Object.assign(a.views.list, {
    offRequests: 0.01,
    outputCost: 0.004,
    prefixCost: 0.006,
    prefixTokens: 10_000, // blend 6e-7 per token
    sumRate: 2e-6,
    removed: -0.0003,
    growthUnit: 0.0002,
  });
  return a;
}

describe('view weights', () => {
  it('divides list prices by a million and quota weights by the quota budget', () => {
    // A budget other than a million, so the two divisors cannot be swapped unnoticed.
    const r = route({ quotaBudget: 5_000 });
    expect(viewWeights(r, 'list')).toEqual({ input: 3e-6, cacheRead: 3e-7, cacheWrite: 3.75e-6, output: 1.5e-5 });
    expect(viewWeights(r, 'quotaShare')).toEqual({ input: 1 / 5_000, cacheRead: 0.1 / 5_000, cacheWrite: 1.25 / 5_000, output: 5 / 5_000 });
  });
});

describe('pressure and cost model (hand-computed)', () => {
  it('computes off/on pressure and the reduction', () => {
    const model = rateModel(handAccumulator(), 0.05);
    expect(pressureInputs(handAccumulator(), 0.05)).toMatchObject({ offPressure: 2, savingsPerCycle: 200, summaryFits: true });
    // on = (1600 + 0.05 × 440) / (800 + 200) = 1.622
    expect(model.onPressure).toBeCloseTo(1.622, 12);
    expect(model.pressureReduction).toBeCloseTo(1 - 1.622 / 2, 12);
  });

  it('prices the list view with signed components that sum to on − off', () => {
    const { list } = rateModel(handAccumulator(), 0.05);
    // Cycle cost: 300 × 3e-6 + 50 × 15e-6 + 800 × 3.75e-6 = 0.00465; off = 0.01 + 2 × 0.00465.
    expect(list.off).toBeCloseTo(0.0193, 12);
    expect(list.delta.retained).toBeCloseTo(100 * 2e-6, 12); // S/(2C) × Σ rate
    expect(list.delta.removed).toBeCloseTo(-0.0003, 12);
    expect(list.delta.summaryCycles).toBeCloseTo((1.622 - 2) * 0.00465, 12);
    expect(list.delta.summaryEnlarged).toBeCloseTo((1.622 * 200 + 100) * 3e-6, 12);
    // 0.05 × (1500 × 6e-7 + 2 × 60 × 15e-6 + 0.0002)
    expect(list.delta.retrieval).toBeCloseTo(0.05 * 0.0029, 12);
    const { retained, removed, summary, retrieval } = list.delta;
    expect(retained + removed + summary + retrieval).toBeCloseTo(list.on - list.off, 12);
    expect(list.on).toBeCloseTo(0.0188605, 10);
    expect(list.ratio).toBeCloseTo(0.0188605 / 0.0193, 10);
  });

  it('re-caches a summary cycle at the cache-write price, and at no less than input only in the all-uncached "on" arm', () => {
    const a = handAccumulator();
    a.route = route({ prices: { ...ROUTE.prices, cacheWrite: 1 } }); // writes cheaper than input
    // Cycle as observed: 300 × 3e-6 + 50 × 15e-6 + 800 × 1e-6 = 0.00245; off = 0.01 + 2 × 0.00245 in both models.
    expect(rateModel(a, 0.05).list.off).toBeCloseTo(0.0149, 12);
    const uncached = allUncachedInformational(a, 0.05).list;
    expect(uncached.off).toBeCloseTo(0.0149, 12);
    // On, all uncached: output 0.004; round trips 0.05 × (1500 × 3e-6 + 2 × 60 × 15e-6) = 0.000315; summaries
    // 1.622 × (0.0009 + 0.00075 + 800 × 3e-6) + (1.622 × 200 + 100) × 3e-6 = 0.0065691 + 0.0012732.
    expect(uncached.on).toBeCloseTo(0.004 + 0.000315 + 0.0065691 + 0.0012732, 12);
  });

  it('credits no pressure reduction when the enlarged summary cannot fit under the trigger', () => {
    const a = handAccumulator();
    a.route = route({ summaryInputTokens: 900 }); // 900 + 200 + … > 1000
    const model = rateModel(a, 0);
    expect(pressureInputs(a, 0).summaryFits).toBe(false);
    expect(model.onPressure).toBeCloseTo(2, 12); // (1600 + 0) / 800
    expect(model.pressureReduction).toBeCloseTo(0, 12);
    expect(model.list.delta.retained).toBe(0);
  });

  it('treats 0/0 as neutral and a positive cost over a zero baseline as unbounded', () => {
    expect(costRatio(0, 0)).toBe(1);
    expect(costRatio(0, 1)).toBeNull();
    expect(costRatio(2, 3)).toBe(1.5);
  });

  it('keeps the all-uncached scenario informational and never below the observed cost basis', () => {
    const info = allUncachedInformational(handAccumulator(), 0.05);
    expect(info.gating).toBe(false);
    expect(info.list.off).toBeCloseTo(0.0193, 12);
  });
});

describe('step-by-step simulation (hand-built conversation)', () => {
  const MiB = 1024 * 1024;
  const entry = (pathIndex: number, startOrdinal: number, netTokens: number, originalBytes: number, extra: Partial<ResultEntry> = {}): ResultEntry => ({
    pathIndex,
    runOrdinal: 1,
    startOrdinal,
    category: 'file_read',
    staticExclusion: null,
    lowerExclusion: null,
    netTokens,
    originalBytes,
    escapedTokens: netTokens + 10,
    escapedBytes: originalBytes + 20,
    summaryTokens: 500,
    ...extra,
  });
  const boundary = (pathIndex: number, runOrdinal: number, estimate: number): SimBoundary => ({
    key: `b${pathIndex}`,
    pathIndex,
    runOrdinal,
    runId: `u${pathIndex}`,
    api: 'anthropic-messages',
    estimate,
    gapMs: 400_000,
    previousRunCompleted: true,
    startsBefore: 20,
    skip: null,
  });

  it('admits within the 8 MiB budget, counts each result once and spaces batches by five runs', () => {
    const accumulator = newAccumulator(route({ triggerTokens: 100_000, drainTokens: 20_000 }));
    const conversation: ConversationData = {
      ordinal: 0,
      duplicateRuns: new Set(),
      results: [
        entry(1, 1, 30_000, 5 * MiB),
        entry(2, 2, 10_000, 4 * MiB),
        entry(3, 3, 7_000, 1000, { staticExclusion: 'excluded_name', category: 'effectful' }),
        entry(4, 4, 5_000, 1000, { lowerExclusion: 'identity_unproven' }),
      ],
      boundaries: [boundary(10, 5, 80_000), boundary(11, 6, 90_000)],
      requests: [
        { pathIndex: 0, runOrdinal: 1, api: 'anthropic-messages', usage: { input: 1000, cacheRead: 0, cacheWrite: 0, output: 100 }, fallbackPrefixTokens: 0, fallbackOutputTokens: 0 },
        { pathIndex: 12, runOrdinal: 6, api: 'anthropic-messages', usage: { input: 0, cacheRead: 50_000, cacheWrite: 10_000, output: 200 }, fallbackPrefixTokens: 0, fallbackOutputTokens: 0 },
      ],
      contextStart: new Int32Array(13),
    };
    simulateConversation(conversation, new Map([['anthropic-messages', accumulator]]));
    expect(accumulator.pressured).toBe(2);
    expect(accumulator.coldPressured).toBe(2);
    expect(accumulator.batches).toBe(1);
    expect(accumulator.admittingBoundaries).toBe(1);
    expect(accumulator.admittedNetTokens).toBe(30_000);
    expect(accumulator.roundTripPrefixTokens).toBe(80_000 - 30_000);
    // Independent per-boundary upper bounds ignore budget and counting: A+B+D at both boundaries.
    expect(accumulator.upperBoundNetTokens).toBe(2 * (30_000 + 10_000 + 5_000));
    expect(accumulator.exclusions).toMatchObject({
      budget_exhausted: 1,
      excluded_name: 2,
      identity_unproven: 2,
      already_counted: 1,
      batch_spacing: 1,
    });
    expect(accumulator.growthTokens).toBe(60_000);
    // The later request no longer carries the 30 000 cleared tokens, priced at its own blended rate.
    const rate = (50_000 * 0.3e-6 + 10_000 * 3.75e-6) / 60_000;
    expect(accumulator.views.list.removed).toBeCloseTo(-30_000 * rate, 12);

    // The same conversation where run 6 was first seen in another journal: its request keeps the prefix
    // sequence but is neither priced nor counted as growth here.
    const again = newAccumulator(accumulator.route);
    simulateConversation({ ...conversation, duplicateRuns: new Set([6]) }, new Map([['anthropic-messages', again]]));
    expect(again.requests).toBe(1);
    expect(again.growthTokens).toBe(1000);
    expect(again.views.list.removed).toBe(0);
  });

  it('releases pins at compaction but never recounts a result', () => {
    const accumulator = newAccumulator(route({ triggerTokens: 100_000, drainTokens: 20_000 }));
    const contextStart = new Int32Array(40);
    contextStart.fill(5, 20); // a compaction keeps entries from path index 5 on, from index 20
    const conversation: ConversationData = {
      ordinal: 0,
      duplicateRuns: new Set(),
      results: [entry(1, 1, 25_000, 7 * MiB), entry(6, 2, 22_000, 3 * MiB)],
      boundaries: [
        boundary(10, 5, 80_000),
        // Runs 6–10 complete below the pressure band (every run starts at a boundary in a real replay).
        ...[6, 7, 8, 9, 10].map((run) => boundary(15 + run, run, 10_000)),
        { ...boundary(30, 11, 85_000), startsBefore: 40 },
      ],
      requests: [],
      contextStart,
    };
    simulateConversation(conversation, new Map([['anthropic-messages', accumulator]]));
    // b1 admits the 7 MiB result; the 3 MiB one would exceed 8 MiB. After the compaction the first is gone
    // (pin released), so b2, six completed runs later, can admit the second.
    expect(accumulator.batches).toBe(2);
    expect(accumulator.admittedNetTokens).toBe(47_000);
    expect(accumulator.exclusions.budget_exhausted).toBe(1);
  });
});

describe('gate', () => {
  function gate(api: GateInputs['api'], setup: (a: ReturnType<typeof newAccumulator>) => void, differences: number | null = 0) {
    const a = newAccumulator(route());
    a.pressured = 10;
    a.coldPressured = 10;
    for (const ordinal of [1, 2, 3]) {
      a.pressuredConversations.add(ordinal);
      a.coldConversations.add(ordinal);
    }
    a.admittingBoundaries = 3; // 30%
    a.growthTokens = 1600;
    a.admittedNetTokens = 400;
    a.candidates = 5;
    a.provenCandidates = 5;
    a.retention.proven = 4;
    a.retention.matched = 2;
    a.requests = 20;
    a.fallbackRequests = 1;
    Object.assign(a.views.list, { offRequests: 1, prefixTokens: 1, prefixCost: 1 });
    Object.assign(a.views.quotaShare, { offRequests: 1, prefixTokens: 1, prefixCost: 1 });
    setup(a);
    const models = [0, 0.05, 0.2].map((rate) => rateModel(a, rate));
    const inputs: GateInputs = {
      api,
      accumulator: a,
      atSuppliedRate: models[1]!,
      sensitivities: models,
      qualification: { unintendedDifferences: differences, qualified: differences === 0 },
      snapshotIncomplete: false,
    };
    const criteria = criteriaFor(inputs);
    return { criteria, ...verdictFor(inputs, criteria) };
  }

  it('builds at the thresholds and reports every measured value next to its threshold', () => {
    const result = gate('anthropic-messages', () => {});
    expect(result.verdict).toBe('BUILD');
    expect(result.criteria.map((c) => [c.name, c.threshold, c.met])).toEqual([
      ['pressured_boundaries', 10, true],
      ['cold_pressured_boundaries', 10, true],
      ['admitting_share', 0.25, true],
      ['pressure_reduction', 0.15, true],
      ['max_cost_increase', 0.05, true],
      ['unintended_payload_differences', 0, true],
    ]);
    expect(result.criteria[2]?.value).toBeCloseTo(0.3, 12);
  });

  it('defers on thin evidence, unproven identity, retention, fallback share, qualification and Codex', () => {
    expect(gate('anthropic-messages', (a) => (a.pressured = 9)).codes).toEqual(['REPRESENTATIVENESS_INSUFFICIENT']);
    expect(gate('anthropic-messages', (a) => a.coldConversations.delete(3)).codes).toEqual(['COLD_EVIDENCE_INSUFFICIENT']);
    expect(gate('anthropic-messages', (a) => (a.provenCandidates = 0)).codes).toEqual(['IDENTITY_UNPROVEN']);
    // Unproven candidates beside proven ones: BUILD stands on the proven lower bound, but STOP is blocked.
    expect(gate('anthropic-messages', (a) => (a.provenCandidates = 4)).verdict).toBe('BUILD');
    expect(gate('anthropic-messages', (a) => ((a.provenCandidates = 4), (a.admittingBoundaries = 2)))).toMatchObject({
      verdict: 'DEFER',
      codes: ['IDENTITY_UNPROVEN', 'ADMISSION_LOW'],
    });
    expect(gate('anthropic-messages', (a) => (a.retention.matched = 0)).codes).toEqual(['RETENTION_UNMATCHED']);
    expect(gate('anthropic-messages', (a) => (a.retention.matched = 1)).codes).toEqual(['RETENTION_COVERAGE_LOW']);
    expect(gate('anthropic-messages', (a) => (a.fallbackRequests = 2)).codes).toEqual(['USAGE_FALLBACK_EXCESSIVE']);
    expect(gate('anthropic-messages', () => {}, null).codes).toEqual(['PAYLOAD_UNQUALIFIED']);
    expect(gate('openai-codex-responses', () => {})).toMatchObject({ verdict: 'DEFER', codes: ['WIRE_UNPROVEN'] });
    // An empty proven set is not missing retention.
    expect(gate('anthropic-messages', (a) => Object.assign(a.retention, { proven: 0, matched: 0 })).verdict).toBe('BUILD');
  });

  it('stops when evidence suffices but a criterion fails', () => {
    expect(gate('anthropic-messages', (a) => (a.admittingBoundaries = 2)).codes).toEqual(['ADMISSION_LOW']);
    expect(gate('anthropic-messages', () => {}, 1)).toMatchObject({ verdict: 'STOP', codes: ['PAYLOAD_DIFFERENCES'] });
    const unbounded = gate('anthropic-messages', (a) => {
      a.views.list.offRequests = 0;
      a.growthTokens = 0;
      a.admittedCount = 1;
      a.roundTripPrefixTokens = 1000;
    });
    expect(unbounded.criteria[4]).toMatchObject({ name: 'max_cost_increase', value: null, met: false });
    expect(unbounded.verdict).toBe('STOP');
  });

  it('combines APIs: BUILD only if all build, STOP over DEFER', () => {
    expect(overallVerdict(['BUILD', 'BUILD'])).toBe('BUILD');
    expect(overallVerdict(['BUILD', 'DEFER'])).toBe('DEFER');
    expect(overallVerdict(['DEFER', 'STOP', 'BUILD'])).toBe('STOP');
    expect(overallVerdict([])).toBe('DEFER');
  });
});
