// Every miss gets a cause from the fixed vocabulary, the tokens a hit would have read and its price over that hit.
// Synthetic transcript-like sessions (no cache_control, system prompt and tools not recorded, recorded usage);
// figures by hand at Sonnet 4.5's rates (input 3, 5m write 3.75, 1h write 6, read 0.30 $/MTok).
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedUsage } from '../../src/core/model.ts';
import { analyzeCache } from '../../src/core/cache/index.ts';
import { MISS_CAUSES, OPENAI_MISS_SHARE, UNRECORDED_SETUP } from '../../src/core/cache/misses.ts';
import { buildRequests, pricingByModel, type RequestSpec } from './anthropic-builders.ts';

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-20T10:00:00Z');
const SETUP = 5000;

/** Turn i carries i + 1 message blocks of 1,000 tokens; the provider counted SETUP more (the unrecorded setup). */
function turn(i: number, usage: Omit<RecordedUsage, 'input' | 'output'>, at: number, extra: Partial<RequestSpec> = {}): RequestSpec {
  const prompt = SETUP + 1000 * (i + 1);
  return {
    blocks: Array.from({ length: i + 1 }, (_, b) => ({ id: `m${b}`, tokens: 1000 })),
    timestamp: at,
    recorded: { input: prompt - usage.cacheRead - usage.cacheWrite5m - usage.cacheWrite1h, output: 0, ...usage },
    ...extra,
  };
}

function analyze(specs: RequestSpec[]) {
  const built = buildRequests(specs);
  for (const request of built.requests) request.notes.push({ code: 'transcript_missing_system', message: 'not recorded' });
  return analyzeCache({ ...built, pricingOf: pricingByModel(built.requests), breakpointsUnknown: () => true });
}

describe('miss causes', () => {
  // Analyzed in each test, not when the suite is collected: a mutation run only sees code a test runs.
  let cache: ReturnType<typeof analyze>;
  let misses: ReturnType<typeof analyze>['misses']['requests'];
  beforeEach(() => {
    cache = analyze([
      // 0: first call, writes everything: cold start.
      turn(0, { cacheRead: 0, cacheWrite5m: 6000, cacheWrite1h: 0 }, T0),
      // 1: reads all of 0 one minute later: no miss.
      turn(1, { cacheRead: 6000, cacheWrite5m: 1000, cacheWrite1h: 0 }, T0 + MINUTE),
      // 2: seven minutes later, re-writes all 7,000 tokens it could have read: the 5-minute entries expired.
      turn(2, { cacheRead: 0, cacheWrite5m: 8000, cacheWrite1h: 0 }, T0 + 8 * MINUTE),
      // 3: thirty seconds later, reads nothing at all: the unrecorded setup must have changed.
      turn(3, { cacheRead: 0, cacheWrite5m: 9000, cacheWrite1h: 0 }, T0 + 8.5 * MINUTE),
      // 4: reads all of 3.
      turn(4, { cacheRead: 9000, cacheWrite5m: 1000, cacheWrite1h: 0 }, T0 + 9 * MINUTE),
    ]);
    misses = cache.misses.requests;
  });

  it('names each cause from the vocabulary and prices it over a hit', () => {
    expect(misses.map((m) => m?.cause ?? null)).toEqual(['cold_start', null, 'ttl_expired', 'setup_changed', null]);
    // Request 3 (index 2) re-wrote the 7,000 tokens request 2 had: 7,000 × (3.75 − 0.30) = 24,150 µ$.
    expect(misses[2]).toMatchObject({ tokens: 7000, ttl: '5m', gapMs: 7 * MINUTE });
    expect(misses[2]!.cost).toBeCloseTo(0.02415, 12);
    expect(misses[3]).toMatchObject({ tokens: 8000, block: UNRECORDED_SETUP });
    expect(misses[3]!.cost).toBeCloseTo((8000 * 3.45) / 1e6, 12);
    // The cold start re-sent all 6,000 tokens (written at 5m) that a warm cache would have given it.
    expect(misses[0]).toMatchObject({ tokens: 6000 });
    expect(misses[0]!.cost).toBeCloseTo((6000 * 3.45) / 1e6, 12);
  });

  it('summarizes per cause, the costliest first', () => {
    expect(cache.misses.summary.map((row) => [row.cause, row.count, row.tokens])).toEqual([
      ['setup_changed', 1, 8000],
      ['ttl_expired', 1, 7000],
      ['cold_start', 1, 6000],
    ]);
    for (const row of cache.misses.summary) expect(MISS_CAUSES).toContain(row.cause);
  });

  it('simulates the inferred setup change, so the simulation misses where the provider did', () => {
    expect(cache.inferred.setupVersions).toEqual([0, 0, 0, 1, 1]);
    const simulatedReads = cache.cost.actual.simulation.requests.map((r) => r.read > 0);
    const recordedReads = [false, true, false, false, true];
    expect(simulatedReads).toEqual(recordedReads);
  });

  it('prices the 1-hour TTL trade-off of the idle gap and says it in a finding', () => {
    const finding = cache.findings.find((f) => f.code === 'idle_gap_ttl');
    // Saved: the 7-minute gap's $0.02415 (toFixed(4) of the binary value prints $0.0241). Extra: every 5m write of the session (25,000 tokens) at 6 − 3.75 = $0.05625.
    expect(finding?.message).toBe(
      '1 idle gap over 5 minutes (request 3) re-wrote 7,000 tokens: $0.0241; a 1-hour TTL would have cost $0.0563 more in writes and saved $0.0241.',
    );
    expect(finding?.fix).toMatch(/Keep the 5-minute TTL/);
  });
});

describe('partial misses', () => {
  it('a read short of what the earlier request cached is a miss for the part not read, framing noise aside', () => {
    const cache = analyze([
      turn(0, { cacheRead: 0, cacheWrite5m: 6000, cacheWrite1h: 0 }, T0),
      // Reads 40 tokens short of the 6,000 cached: within MISS_TOLERANCE (64), no miss.
      turn(1, { cacheRead: 5960, cacheWrite5m: 1040, cacheWrite1h: 0 }, T0 + MINUTE),
      // Request 1 cached 7,000 (5,960 read + 1,040 written); this one reads 6,000 and writes 2,000 again.
      turn(2, { cacheRead: 6000, cacheWrite5m: 2000, cacheWrite1h: 0 }, T0 + 2 * MINUTE),
    ]);
    expect(cache.misses.requests.map((m) => m?.cause ?? null)).toEqual(['cold_start', null, 'history_edited']);
    // 1,000 tokens re-written at 3.75 instead of read at 0.30 $/MTok: 3,450 µ$.
    expect(cache.misses.requests[2]).toMatchObject({ tokens: 1000 });
    expect(cache.misses.requests[2]!.cost).toBeCloseTo(0.00345, 12);
  });

  it('the uncached tail after the earlier request\'s last breakpoint was never readable', () => {
    const cache = analyze([
      // 6,000 prompt tokens: 5,900 written, 100 sent after the breakpoint (uncached).
      turn(0, { cacheRead: 0, cacheWrite5m: 5900, cacheWrite1h: 0 }, T0),
      turn(1, { cacheRead: 5900, cacheWrite5m: 1100, cacheWrite1h: 0 }, T0 + MINUTE),
    ]);
    expect(cache.misses.requests[1]).toBeNull();
  });

  /** A gpt-4o Chat request of `blocks` blocks of 2,000 tokens that recorded `cached` of them read. */
  const chat = (cached: number, at: number, blocks: number) => ({
    blocks: Array.from({ length: blocks }, (_, b) => ({ id: `c${b}`, tokens: 2000 })),
    format: 'openai-chat' as const,
    model: 'gpt-4o',
    timestamp: at,
    recorded: { input: 2000 * blocks - cached, cacheRead: cached, cacheWrite5m: 0, cacheWrite1h: 0, output: 0 },
  });

  it('OpenAI: a shortfall within one minimum prefix (1,024) is its best-effort noise; beyond it, a priced miss', () => {
    // Prompts 4,000, 6,000, 8,000.
    const built = buildRequests([chat(0, T0, 2), chat(3200, T0 + 5000, 3), chat(3968, T0 + 10_000, 4)]);
    const cache = analyzeCache({ ...built, pricingOf: pricingByModel(built.requests) });
    // 800 short of request 0's 4,000: noise. 2,032 short of request 1's 6,000: a miss, 2,032 × (2.50 − 1.25).
    expect(cache.misses.requests.map((m) => m?.cause ?? null)).toEqual(['cold_start', null, 'unexplained']);
    expect(cache.misses.requests[2]).toMatchObject({ tokens: 2032 });
    expect(cache.misses.requests[2]!.cost).toBeCloseTo((2032 * 1.25) / 1e6, 12);
  });

  it('OpenAI: on a long prompt a shortfall within 10% of what was readable is noise too', () => {
    // Prompts 20,000, 22,000, 24,000. Request 1 reads 1,500 short of 20,000 (7.5%: over 1,024 but under 10%);
    // request 2 reads 3,000 short of 22,000 (13.6%): a miss of 3,000 × (2.50 − 1.25).
    const built = buildRequests([chat(0, T0, 10), chat(18_500, T0 + 5000, 11), chat(19_000, T0 + 10_000, 12)]);
    const cache = analyzeCache({ ...built, pricingOf: pricingByModel(built.requests) });
    expect(OPENAI_MISS_SHARE).toBe(0.1);
    expect(cache.misses.requests.map((m) => m?.cause ?? null)).toEqual(['cold_start', null, 'unexplained']);
    expect(cache.misses.requests[2]).toMatchObject({ tokens: 3000 });
    expect(cache.misses.requests[2]!.cost).toBeCloseTo((3000 * 1.25) / 1e6, 12);
  });
});

describe('warm start on OpenAI', () => {
  it('a first call that read the cache read what an earlier session left of the unrecorded setup', () => {
    // One 3,000-token block; the provider counted 5,000 (2,000 of tools the transcript left out) and read 2,048.
    const built = buildRequests([
      { blocks: [{ id: 'task', tokens: 3000 }], format: 'openai-responses', model: 'gpt-4o', timestamp: T0, recorded: { input: 2952, cacheRead: 2048, cacheWrite5m: 0, cacheWrite1h: 0, output: 0 } },
    ]);
    built.requests[0]!.notes.push({ code: 'transcript_missing_tools', message: 'not recorded' });
    const cache = analyzeCache({ ...built, pricingOf: pricingByModel(built.requests), breakpointsUnknown: () => true });
    expect(cache.inferred.warmTokens).toEqual([2000]);
    // At most the 2,000 setup tokens, rounded down to 128: 1,920 read, no block of the log among them.
    expect(cache.cost.actual.simulation.requests[0]).toMatchObject({ read: 1920, hit: true, hitSegment: null });
  });
});

describe('the breakpoint inside an unrecorded setup', () => {
  // Request 3 read only the first 2,000 of the 5,000 setup tokens: the agent's system-prompt breakpoint sits there
  // and what follows it changed. Request 4 reads all of 3; request 5 reads nothing at all (the whole setup changed).
  const cache = analyze([
    turn(0, { cacheRead: 0, cacheWrite5m: 6000, cacheWrite1h: 0 }, T0),
    turn(1, { cacheRead: 6000, cacheWrite5m: 1000, cacheWrite1h: 0 }, T0 + MINUTE),
    turn(2, { cacheRead: 2000, cacheWrite5m: 6000, cacheWrite1h: 0 }, T0 + 2 * MINUTE),
    turn(3, { cacheRead: 8000, cacheWrite5m: 1000, cacheWrite1h: 0 }, T0 + 3 * MINUTE),
    turn(4, { cacheRead: 0, cacheWrite5m: 10000, cacheWrite1h: 0 }, T0 + 4 * MINUTE),
  ]);

  it('keys the part before the breakpoint apart from the rest of the setup', () => {
    expect(cache.inferred.setupVersions).toEqual([0, 0, 1, 1, 2]);
    expect(cache.inferred.setupBreakpointVersions).toEqual([0, 0, 0, 0, 1]);
    // Every request of the first version sent that part (the first two wrote it); the second version showed none.
    expect(cache.inferred.setupBreakpointTokens).toEqual([2000, 2000, 2000, 2000, 0]);
  });

  it('reads the part before the breakpoint where the provider did, and nothing where it read nothing', () => {
    const simulated = cache.cost.actual.simulation.requests.map((r) => [r.read, r.write5m]);
    expect(simulated).toEqual([
      [0, 6000],
      [6000, 1000],
      [2000, 6000],
      [8000, 1000],
      [0, 10000],
    ]);
    // The miss is the 5,000 tokens of request 2 that were readable but re-written (7,000 − 2,000 read).
    expect(cache.misses.requests[2]).toMatchObject({ cause: 'setup_changed', tokens: 5000, block: UNRECORDED_SETUP });
  });

  it('a read that stops inside the setup after an idle gap past the TTL shows no breakpoint', () => {
    const gap = analyze([
      turn(0, { cacheRead: 0, cacheWrite5m: 6000, cacheWrite1h: 0 }, T0),
      turn(1, { cacheRead: 2000, cacheWrite5m: 5000, cacheWrite1h: 0 }, T0 + 10 * MINUTE),
    ]);
    expect(gap.inferred.setupBreakpointTokens).toEqual([0, 0]);
    expect(gap.misses.requests[1]?.cause).toBe('ttl_expired');
  });
});

describe('miss causes: model switch, compaction, below minimum, OpenAI', () => {
  it('a switch to another model misses its whole prompt', () => {
    const cache = analyze([
      turn(0, { cacheRead: 0, cacheWrite5m: 6000, cacheWrite1h: 0 }, T0),
      turn(1, { cacheRead: 0, cacheWrite5m: 7000, cacheWrite1h: 0 }, T0 + MINUTE, { model: 'claude-opus-4-5' }),
    ]);
    expect(cache.misses.requests[1]?.cause).toBe('model_switch');
  });

  it('the first billed call after a compaction record misses as `compaction`; a shrink alone there is none', () => {
    const built = buildRequests([
      turn(0, { cacheRead: 0, cacheWrite5m: 6000, cacheWrite1h: 0 }, T0),
      turn(4, { cacheRead: 6000, cacheWrite5m: 4000, cacheWrite1h: 0 }, T0 + MINUTE),
      // The history shrank to one summary block: only the setup could be read.
      { blocks: [{ id: 'summary', tokens: 1000 }], timestamp: T0 + 2 * MINUTE, recorded: { input: 0, cacheRead: SETUP, cacheWrite5m: 1000, cacheWrite1h: 0, output: 0 } },
    ]);
    for (const request of built.requests) request.notes.push({ code: 'transcript_missing_system', message: 'not recorded' });
    const run = (recordsCompactions: boolean) =>
      analyzeCache({ ...built, pricingOf: pricingByModel(built.requests), breakpointsUnknown: () => true, compactionsRecorded: () => recordsCompactions });
    // No record, and the summary shares no message with the history before it: a new start, not a compaction.
    // It read the 5,000 setup tokens, all it shared with request 1: no miss.
    expect(run(true).misses.requests.map((m) => m?.cause ?? null)).toEqual(['cold_start', null, null]);
    expect(run(false).compactions).toEqual([]);
    built.requests[2]!.notes.push({ code: 'transcript_compacted', message: 'synthetic' });
    const recorded = run(true);
    expect(recorded.compactions).toEqual([2]);
    // Always reported after a record: at most its own 6,000-token prompt could have been read, 5,000 were.
    expect(recorded.misses.requests.map((m) => m?.cause ?? null)).toEqual(['cold_start', null, 'compaction']);
    expect(recorded.misses.requests[2]).toMatchObject({ tokens: 1000 });
  });

  it('a prefix below the model minimum cannot be cached', () => {
    const built = buildRequests([
      { blocks: [{ id: 'a', tokens: 300, marker: '5m' }], recorded: { input: 300, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 0 } },
      { blocks: [{ id: 'a', tokens: 300, marker: '5m' }, { id: 'b', tokens: 100 }], recorded: { input: 400, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 0 } },
    ]);
    const cache = analyzeCache({ ...built, pricingOf: pricingByModel(built.requests) });
    expect(cache.misses.requests[1]?.cause).toBe('below_minimum');
  });

  it('an OpenAI request that loses its cached prefix seconds later is unexplained (best-effort routing)', () => {
    const built = buildRequests([
      { blocks: [{ id: 'a', tokens: 2000 }], format: 'openai-chat', model: 'gpt-4o', timestamp: T0, recorded: { input: 2000, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 0 } },
      { blocks: [{ id: 'a', tokens: 2000 }, { id: 'b', tokens: 100 }], format: 'openai-chat', model: 'gpt-4o', timestamp: T0 + 5000, recorded: { input: 2100, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 0 } },
    ]);
    const cache = analyzeCache({ ...built, pricingOf: pricingByModel(built.requests) });
    expect(cache.misses.requests[1]).toMatchObject({ cause: 'unexplained', tokens: 2000 });
    // 2,000 uncached at 2.50 instead of read at 1.25: 2,500 µ$.
    expect(cache.misses.requests[1]!.cost).toBeCloseTo(0.0025, 12);
  });
});
