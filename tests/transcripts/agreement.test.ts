// Observed vs simulated on a hand-made (synthetic) four-request transcript: every expected number below is worked
// out by hand in the comments next to it.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConversationLink } from '../../src/core/cache/conversations.ts';
import { findCompactions, predecessors, type CompactionInput } from '../../src/core/cache/predecessors.ts';
import { transcriptAgreement, type AgreementInput } from '../../src/core/transcripts/agreement.ts';
import { percentile } from '../../src/core/transcripts/stats.ts';
import type { ParsedRequest } from '../../src/core/model.ts';
import { chatMessage } from '../tokens/build.ts';
import { MISSING_SYSTEM, SYNTHETIC_PRICING, oneConversation, report, transcriptRequest, usage } from './build.ts';

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
const MIN = 60_000;

/**
 * Four calls of one synthetic session. Setup from request 0: 1100 recorded − 100 reconstructed = 1000.
 * Predicted = reconstructed + 1000: 1200, 1150, 1400 against recorded 1230, 1150, 1500.
 */
function input(): AgreementInput & { requests: ParsedRequest[] } {
  const requests = [
    transcriptRequest(0, { timestamp: T0, recorded: usage(1000, 0, 100, 0, 10) }), // prompt 1100
    transcriptRequest(1, { timestamp: T0 + MIN, recorded: usage(30, 1100, 100, 0, 10) }), // prompt 1230
    transcriptRequest(2, { timestamp: T0 + 7 * MIN, recorded: usage(1150, 0, 0, 0, 10) }), // 6 min later: prompt 1150, nothing read
    transcriptRequest(3, { timestamp: T0 + 8 * MIN, recorded: usage(50, 1150, 300, 0, 10) }), // prompt 1500
  ];
  return {
    requests,
    reconstructed: [100, 200, 150, 400],
    segmentTokens: requests.map(() => [5]),
    conversations: oneConversation(4),
    compactions: [],
    pricingOf: () => SYNTHETIC_PRICING,
    actual: report([{ read: 0, cost: 0.001 }, { read: 0, cost: 0.002 }, { read: 0, cost: 0.003 }, { read: 0, cost: 0.004 }]),
    optimized: report([{ read: 0, cost: 0.0005 }, { read: 150, cost: 0.0005 }, { read: 0, cost: 0.0005, events: ['entry_expired'] }, { read: 100, cost: 0.0005 }]),
  };
}

describe('transcriptAgreement (synthetic session)', () => {
  // Built in each test, not when the suite is collected: a mutation run only sees code a test runs.
  let agreement: ReturnType<typeof transcriptAgreement>;
  beforeEach(() => {
    agreement = transcriptAgreement(input());
  });

  it('infers the unrecorded setup on the first recorded request and predicts the later ones with it', () => {
    expect(agreement.requests.map((row) => [row.setup, row.setupSource, row.predicted])).toEqual([
      [1000, true, 1100],
      [1000, false, 1200],
      [1000, false, 1150],
      [1000, false, 1400],
    ]);
    // |1200 − 1230| / 1230, 0, |1400 − 1500| / 1500; the setup source itself is not an error sample.
    expect(agreement.requests.map((row) => row.absError)).toEqual([null, 30 / 1230, 0, 100 / 1500]);
    // Sorted 0, 0.0244, 0.0667: nearest-rank median = 2nd, p90 = 3rd.
    expect(agreement.promptErrors).toEqual({ count: 3, median: 30 / 1230, p90: 100 / 1500 });
    // Without the setup: 1000/1100, 1030/1230, 1000/1150, 1100/1500 → sorted 0.733, 0.837, 0.870, 0.909.
    expect(agreement.reconstructedOnlyErrors).toEqual({ count: 4, median: 1030 / 1230, p90: 1000 / 1100 });
    expect(agreement.setupUnrecordedRequests).toBe(4);
  });

  it('compares did-it-read-the-cache with both simulations', () => {
    // Recorded reads 0, 1100, 0, 1150. Actual simulation reads nothing: agrees on requests 0 and 2.
    expect(agreement.cacheActual).toEqual({ compared: 4, readAgreements: 2, readAgreementRate: 0.5, writeAgreements: 1 });
    // Optimized reads 0, 150, 0, 100: agrees on all four; writes only where recorded wrote nothing (request 2).
    expect(agreement.cacheOptimized).toEqual({ compared: 4, readAgreements: 4, readAgreementRate: 1, writeAgreements: 1 });
  });

  it('prices the recorded usage like the simulation', () => {
    // (1000×3 + 100×3.75 + 10×15) + (30×3 + 1100×0.3 + 100×3.75 + 150) + (1150×3 + 150) + (50×3 + 1150×0.3 + 300×3.75 + 150)
    // = 3525 + 945 + 3600 + 1770 = 9840 per million.
    expect(agreement.cost.priced).toBe(4);
    expect(agreement.cost.recorded).toBeCloseTo(0.00984, 12);
    expect(agreement.cost.simulated).toBeCloseTo(0.01, 12);
    expect(agreement.cost.optimized).toBeCloseTo(0.002, 12);
  });

  it('checks the 5-minute TTL against the recorded reads', () => {
    // 0→1: 1 min, read 1100 ≥ 550 kept. 1→2: 6 min > 5m, read 0 missed. 2→3: 1 min, read 1150 ≥ 575 kept.
    expect(agreement.ttl).toEqual({
      pairs: 3,
      beyondTtl: 1,
      beyondTtlMissed: 1,
      withinTtl: 2,
      withinTtlKept: 2,
      agreementRate: 1,
      simulatedExpiries: { actual: 0, optimized: 1 },
    });
  });

  it('reports the compactions the cache analysis found', () => {
    expect(agreement.compactions).toEqual([]);
    expect(transcriptAgreement({ ...input(), compactions: [2] }).compactions).toEqual([2]);
  });

  it('sums each conversation', () => {
    const [conversation] = agreement.conversations;
    expect(conversation).toMatchObject({
      conversation: 0,
      requests: 4,
      recordedRequests: 4,
      setup: 1000,
      setupSource: 0,
      recorded: { prompt: 1100 + 1230 + 1150 + 1500, read: 2250, write5m: 500, write1h: 0, output: 40 },
      simulated: { read: 0, write5m: 0, write1h: 0 },
      optimized: { read: 250, write5m: 0, write1h: 0 },
    });
    expect(conversation?.errors.count).toBe(3);
    expect(conversation?.recordedCost).toBeCloseTo(0.00984, 12);
  });

  it('uses the 1-hour TTL after a request that wrote 1-hour entries', () => {
    const data = input();
    data.requests[1] = transcriptRequest(1, { timestamp: T0 + MIN, recorded: usage(30, 1100, 0, 100, 10) });
    const ttl = transcriptAgreement(data).ttl;
    // 1→2 is now within the hour, yet nothing was read: counted as a disagreement.
    expect([ttl.beyondTtl, ttl.withinTtl, ttl.withinTtlKept, ttl.agreementRate]).toEqual([0, 3, 2, 2 / 3]);
  });
});

describe('setup inference edge cases', () => {
  it('waits for a request with a non-empty recorded prompt, per model', () => {
    const data = input();
    data.requests[0] = transcriptRequest(0, { timestamp: T0, recorded: usage(0, 0, 0, 0, 0) }); // aborted call
    data.requests[3] = transcriptRequest(3, { model: 'other-model', timestamp: T0 + 8 * MIN, recorded: usage(50, 1150, 300, 0, 10) });
    const rows = transcriptAgreement(data).requests;
    // Setup from request 1: 1230 − 200 = 1030. Request 3 names another model: its own setup, 1500 − 400 = 1100.
    expect(rows.map((row) => [row.setup, row.setupSource])).toEqual([
      [null, false],
      [1030, true],
      [1030, false],
      [1100, true],
    ]);
    expect(rows.map((row) => row.absError)).toEqual([null, null, 30 / 1150, null]);
    // The aborted call is left out of the hit rates: requests 1 and 2 for the first model, 3 for the other.
    expect(transcriptAgreement(data).models.map((m) => [m.model, m.requests, m.recordedHits])).toEqual([
      ['synthetic-claude', 2, 1],
      ['other-model', 1, 1],
    ]);
  });

  it('adds nothing for requests whose body is complete (no transcript note)', () => {
    const data = input();
    data.requests = data.requests.map((r) => ({ ...r, notes: [] }));
    const agreement = transcriptAgreement(data);
    expect(agreement.requests.map((row) => row.setup)).toEqual([0, 0, 0, 0]);
    // |100 − 1100| / 1100 on the first request too: there is no setup source.
    expect(agreement.requests[0]?.absError).toBe(1000 / 1100);
    expect(agreement.setupUnrecordedRequests).toBe(0);
  });

  it('skips requests without recorded usage and reports nothing for an empty input', () => {
    const data = input();
    data.requests[1] = transcriptRequest(1, { timestamp: null, recorded: null, notes: [MISSING_SYSTEM] });
    expect(transcriptAgreement(data).requests.map((row) => row.request)).toEqual([0, 2, 3]);
    const empty = transcriptAgreement({ ...data, requests: [], reconstructed: [], segmentTokens: [], conversations: oneConversation(0), actual: report([]), optimized: report([]) });
    expect(empty.promptErrors).toEqual({ count: 0, median: null, p90: null });
    expect(empty.cacheActual.readAgreementRate).toBeNull();
    expect(empty.ttl.agreementRate).toBeNull();
  });

  it('leaves conversation cost null when a model has no price', () => {
    const agreement = transcriptAgreement({ ...input(), pricingOf: () => null });
    expect(agreement.cost).toEqual({ priced: 0, unpriced: 4, recorded: 0, simulated: 0, optimized: 0 });
    expect(agreement.conversations[0]?.recordedCost).toBeNull();
  });
});

describe('predecessors and compactions', () => {
  it('follows the previous request of a transcript file across a new conversation (a compaction)', () => {
    const requests = [0, 1, 2].map((i) => transcriptRequest(i, {}));
    const conversations = { conversationOf: [0, 0, 1], continues: [null, 0, null], kind: ['new', 'continues', 'new'] as const, count: 2 };
    expect(predecessors(requests, { ...conversations, kind: [...conversations.kind] })).toEqual([null, 0, 1]);
    // A raw log (no transcript note) does not chain unrelated conversations.
    const raw = requests.map((r) => ({ ...r, notes: [] }));
    expect(predecessors(raw, { ...conversations, kind: [...conversations.kind] })).toEqual([null, 0, null]);
  });

  // Four requests of one file: 1 edits 0 keeping its first message, 2 continues 1 whole, 3 edits 2 keeping only
  // the system block (a new start, not one conversation continued). Reconstructed 1000, 800, 700, 100.
  const system = { ...chatMessage(0, 'system', 'synthetic system'), messageIndex: -1 };
  const m = (i: number) => chatMessage(i, 'user', `synthetic message ${i}`);
  const requests = [
    transcriptRequest(0, { segments: [system, m(0), m(1), m(2)], notes: [] }),
    transcriptRequest(1, { segments: [system, m(0), m(3)], notes: [] }),
    transcriptRequest(2, { segments: [system, m(0), m(3), m(4)], notes: [] }),
    transcriptRequest(3, { segments: [system, m(5)], notes: [] }),
  ];
  const conversations = { conversationOf: [0, 0, 0, 0], continues: [null, 0, 1, 2], kind: ['new', 'edited', 'continues', 'edited'] as ConversationLink[], count: 1 };
  const base: CompactionInput = {
    requests,
    reconstructed: [1000, 800, 700, 100],
    predecessorOf: [null, 0, 1, 2],
    conversations,
    prefixes: [null, { commonSegments: 2, firstChange: 2, prefixBroken: true }, { commonSegments: 3, firstChange: null, prefixBroken: false }, { commonSegments: 1, firstChange: 1, prefixBroken: true }],
    compactionsRecorded: () => false,
  };

  it('without records: a shrink below 90% of a conversation continued past its setup, on the same model', () => {
    // 800 < 0.9 × 1000 with a message in common: a compaction. 2 continues 1 whole: nothing was removed, though
    // 700 < 0.9 × 800. 3 shares only the system block (100 < 0.9 × 700): a new start, not a compaction.
    expect(findCompactions(base)).toEqual([1]);
    expect(findCompactions({ ...base, reconstructed: [1000, 901, 700, 100] })).toEqual([]);
    const otherModel = requests.map((r, i) => (i === 1 ? { ...r, model: 'synthetic-other' } : r));
    expect(findCompactions({ ...base, requests: otherModel })).toEqual([]);
  });

  it('where the format records compactions, only its records count', () => {
    const recorded = requests.map((r, i) => (i === 3 ? { ...r, notes: [{ code: 'transcript_compacted' as const, message: 'synthetic' }] } : r));
    expect(findCompactions({ ...base, requests: recorded, compactionsRecorded: () => true })).toEqual([3]);
    // A record counts in any file; the shrink at 1 only where the format writes no records.
    expect(findCompactions({ ...base, requests: recorded })).toEqual([1, 3]);
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 90)).toBe(5);
    expect(percentile([7], 90)).toBe(7);
    expect(percentile([], 50)).toBeNull();
    expect(() => percentile([1], 0)).toThrow(RangeError);
  });
});
