// Time-range summary on hand-made (synthetic) requests across two files, two days and two models.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/cache/findings.ts';
import { timeRangeSummary, type SummaryInput } from '../../src/core/transcripts/summary.ts';
import { isoTime, utcDay } from '../../src/core/transcripts/time.ts';
import { SYNTHETIC_PRICING, report, transcriptRequest, usage } from './build.ts';

const finding = (code: Finding['code'], severity: Finding['severity'], requests: number[]): Finding => ({
  code,
  severity,
  requests,
  segmentPath: null,
  message: 'synthetic',
  fix: 'synthetic',
  detail: null,
});

function input(): SummaryInput {
  return {
    requests: [
      // Recorded: prompt 1100, read 0, write 100, output 10; cost (1000×3 + 100×3.75 + 10×15) / 1e6 = 0.003525.
      transcriptRequest(0, { timestamp: Date.UTC(2026, 0, 1, 23, 0), recorded: usage(1000, 0, 100, 0, 10) }),
      // Recorded: prompt 1230, read 1100, write 100, output 10; cost (90 + 330 + 375 + 150) / 1e6 = 0.000945.
      transcriptRequest(1, { timestamp: Date.UTC(2026, 0, 2, 0, 30), recorded: usage(30, 1100, 100, 0, 10) }),
      // Not recorded, no time, model without a price: simulated prompt 500, read 200, write 300, unpriced.
      transcriptRequest(2, { file: 1, model: 'synthetic-unpriced', timestamp: null }),
      // Not recorded: simulated prompt 2000, write 2000, simulated cost 0.05.
      transcriptRequest(3, { file: 1, timestamp: Date.UTC(2026, 0, 2, 10, 0) }),
    ],
    reconstructed: [100, 200, 500, 2000],
    conversations: { conversationOf: [0, 0, 1, 2], continues: [null, 0, null, null], kind: ['new', 'continues', 'new', 'new'], count: 3 },
    pricingOf: (r) => (r === 2 ? null : SYNTHETIC_PRICING),
    actual: report([
      { read: 0, cost: 0.9 },
      { read: 0, cost: 0.9 },
      { read: 200, write5m: 300, prompt: 500, cost: null },
      { read: 0, write5m: 2000, prompt: 2000, cost: 0.05 },
    ]),
    findings: [finding('no_breakpoint', 'warning', [0, 1, 3]), finding('near_duplicate_content', 'info', [2]), finding('no_breakpoint', 'warning', [3])],
  };
}

describe('timeRangeSummary (synthetic)', () => {
  // Built in each test, not when the suite is collected: a mutation run only sees code a test runs.
  let summary: ReturnType<typeof timeRangeSummary>;
  beforeEach(() => {
    summary = timeRangeSummary(input());
  });

  it('totals recorded requests from their usage and the rest from the simulation', () => {
    expect(summary.start).toBe('2026-01-01T23:00:00.000Z');
    expect(summary.end).toBe('2026-01-02T10:00:00.000Z');
    expect(summary.totals).toMatchObject({ requests: 4, recordedRequests: 2, promptTokens: 4830, cacheRead: 1300, cacheWrite: 2500, output: 20, unpricedRequests: 1 });
    expect(summary.totals.cost).toBeCloseTo(0.003525 + 0.000945 + 0.05, 12);
  });

  it("takes an unrecorded request's prompt from the simulation, as its read and write are (an inferred setup included)", () => {
    const inferredSetup = input();
    // The blocks of request 3 are 1,600 tokens; its simulated prompt of 2,000 adds a 400-token setup the log lacks.
    inferredSetup.reconstructed = [100, 200, 500, 1600];
    const totals = timeRangeSummary(inferredSetup).totals;
    expect(totals.promptTokens).toBe(4830);
    expect(totals.promptTokens).toBeGreaterThanOrEqual(totals.cacheRead + totals.cacheWrite);
  });

  it('takes the range from the earliest and latest times whatever the order of the requests', () => {
    const shuffled = input();
    // The latest request first: the end is still the latest time, not the last one read.
    shuffled.requests = [shuffled.requests[3]!, shuffled.requests[0]!, shuffled.requests[1]!, shuffled.requests[2]!].map((request, index) => ({ ...request, index }));
    const range = timeRangeSummary(shuffled);
    expect([range.start, range.end]).toEqual(['2026-01-01T23:00:00.000Z', '2026-01-02T10:00:00.000Z']);
  });

  it('groups by UTC day, untimed requests last', () => {
    expect(summary.days.map((d) => [d.day, d.requests, d.promptTokens])).toEqual([
      ['2026-01-01', 1, 1100],
      ['2026-01-02', 2, 3230],
      [null, 1, 500],
    ]);
    expect(summary.days[1]?.cost).toBeCloseTo(0.050945, 12);
  });

  it('sorts the days by date whatever the order of the requests, untimed last', () => {
    const shuffled = input();
    // Read day 2, the untimed request, day 1, day 2: the list is still in date order.
    shuffled.requests = [3, 2, 0, 1].map((r, index) => ({ ...shuffled.requests[r]!, index }));
    expect(timeRangeSummary(shuffled).days.map((d) => [d.day, d.requests])).toEqual([
      ['2026-01-01', 1],
      ['2026-01-02', 2],
      [null, 1],
    ]);
  });

  it('lists each model of a conversation once', () => {
    expect(summary.topConversations.map((c) => [c.conversation, c.models])).toEqual([
      [2, ['synthetic-claude']],
      [0, ['synthetic-claude']],
      [1, ['synthetic-unpriced']],
    ]);
  });

  it('counts one-hour cache writes with the five-minute ones', () => {
    const withHour = input();
    // Request 0 recorded 100 five-minute and 50 one-hour written tokens: write 150, prompt 1,150.
    withHour.requests = withHour.requests.map((request, r) => (r === 0 ? { ...request, recorded: usage(1000, 0, 100, 50, 10) } : request));
    const totals = timeRangeSummary(withHour).days[0]!;
    expect([totals.promptTokens, totals.cacheWrite]).toEqual([1150, 150]);
  });

  it('groups by model, most expensive first', () => {
    expect(summary.models.map((m) => [m.model, m.requests, m.unpricedRequests])).toEqual([
      ['synthetic-claude', 3, 0],
      ['synthetic-unpriced', 1, 1],
    ]);
  });

  it('ranks conversations by cost with their span', () => {
    expect(summary.topConversations.map((c) => [c.conversation, c.file, c.requests, c.start, c.end])).toEqual([
      [2, 1, 1, '2026-01-02T10:00:00.000Z', '2026-01-02T10:00:00.000Z'],
      [0, 0, 2, '2026-01-01T23:00:00.000Z', '2026-01-02T00:30:00.000Z'],
      [1, 1, 1, null, null],
    ]);
    expect(timeRangeSummary(input(), 2).topConversations).toHaveLength(2);
  });

  it('ranks finding codes by the cost of the distinct requests they fired on', () => {
    expect(summary.topFindings.map((f) => [f.code, f.findings, f.requests])).toEqual([
      ['no_breakpoint', 2, 3],
      ['near_duplicate_content', 1, 1],
    ]);
    expect(summary.topFindings[0]?.cost).toBeCloseTo(0.003525 + 0.000945 + 0.05, 12);
    expect(summary.topFindings[1]?.cost).toBe(0);
  });

  it('is empty but well-formed for no requests', () => {
    const empty = timeRangeSummary({ ...input(), requests: [], reconstructed: [], findings: [] });
    expect(empty).toMatchObject({ start: null, end: null, days: [], models: [], topConversations: [], topFindings: [] });
    expect(empty.totals.requests).toBe(0);
  });
});

describe('time helpers', () => {
  it('reports times outside the Date range as unknown instead of throwing', () => {
    expect(isoTime(Date.UTC(2026, 1, 3, 4, 5, 6, 7))).toBe('2026-02-03T04:05:06.007Z');
    expect(isoTime(1e300)).toBeNull();
    expect(isoTime(Number.NaN)).toBeNull();
    expect(utcDay(8.64e15)).toBe('+275760-09-13');
    expect(utcDay(null)).toBeNull();
  });

  it('names the UTC day of a time on either side of midnight, before 1970 and near the end of the range', () => {
    const midnight = Date.UTC(2026, 1, 3);
    expect(utcDay(midnight - 1)).toBe('2026-02-02');
    expect(utcDay(midnight)).toBe('2026-02-03');
    expect(utcDay(midnight + 86_399_999)).toBe('2026-02-03');
    // Asked again (the names are remembered by day): the same answers.
    expect(utcDay(midnight - 1)).toBe('2026-02-02');
    expect(utcDay(midnight + 0.5)).toBe('2026-02-03');
    expect(utcDay(-1)).toBe('1969-12-31');
    expect(utcDay(-8.64e15)).toBe('-271821-04-20');
    expect(utcDay(8.64e15 + 1)).toBeNull();
    expect(utcDay(Number.POSITIVE_INFINITY)).toBeNull();
  });
});
