// The overview strip's bucketing: one bar per request up to the limit, then runs drawn at their largest request.
import { describe, expect, it } from 'vitest';
import { stripBars } from '../../src/ui/request-strip.ts';

describe('request strip', () => {
  it('draws one bar per request when they fit', () => {
    expect(stripBars([5, 9, 2], 400)).toEqual([
      { first: 0, last: 0, peak: 0 },
      { first: 1, last: 1, peak: 1 },
      { first: 2, last: 2, peak: 2 },
    ]);
  });
  it('buckets long inputs into runs that point at their largest request', () => {
    // 7 requests, at most 3 bars: runs of 3, 3 and 1.
    expect(stripBars([1, 8, 3, 4, 4, 2, 6], 3)).toEqual([
      { first: 0, last: 2, peak: 1 },
      { first: 3, last: 5, peak: 3 },
      { first: 6, last: 6, peak: 6 },
    ]);
  });
  it('never draws more than the limit and covers every request once', () => {
    const totals = Array.from({ length: 10_001 }, (_, i) => (i * 37) % 101);
    const bars = stripBars(totals, 400);
    expect(bars.length).toBeLessThanOrEqual(400);
    expect(bars[0]?.first).toBe(0);
    expect(bars.at(-1)?.last).toBe(10_000);
    for (let i = 1; i < bars.length; i++) expect(bars[i]?.first).toBe((bars[i - 1]?.last ?? -2) + 1);
  });
  it('has no bars for no requests', () => {
    expect(stripBars([])).toEqual([]);
  });
});
