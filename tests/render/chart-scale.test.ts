// The charts' scales (src/render/chart-scale.ts): round axis maxima, and the time axis that draws idle gaps narrow.
// Times are SYNTHETIC, chosen so the positions can be worked out by hand.
import { describe, expect, it } from 'vitest';
import { compressedTimeAxis, durationText, niceMax } from '../../src/render/chart-scale.ts';

const MIN = 60_000;

describe('niceMax', () => {
  it('rounds up to 1, 2 or 5 × 10^k', () => {
    expect([0.7, 1, 1.01, 2, 3, 7, 12, 0.031, 48_000, 50_001].map(niceMax)).toEqual([1, 1, 2, 2, 5, 10, 20, 0.05, 50_000, 100_000]);
  });
  it('gives 1 for nothing, a negative or a non-finite value', () => {
    expect([0, -3, NaN, Infinity].map(niceMax)).toEqual([1, 1, 1, 1]);
  });
});

describe('compressedTimeAxis', () => {
  it('is linear without an idle gap', () => {
    const axis = compressedTimeAxis([0, 4 * MIN, 10 * MIN], { idleMs: 15 * MIN, gapShare: 0.06 });
    expect(axis.gaps).toEqual([]);
    expect([0, 4 * MIN, 10 * MIN].map(axis.at)).toEqual([0, 0.4, 1]);
  });

  it('draws a 5-hour gap at its share and spreads the active 20 minutes over the rest', () => {
    // Active 0–10 min, idle 5 h, active 10 more minutes: 20 active minutes share 0.94 of the axis.
    const t = [0, 10 * MIN, 310 * MIN, 320 * MIN];
    const axis = compressedTimeAxis([t[2]!, t[0]!, t[3]!, t[1]!], { idleMs: 15 * MIN, gapShare: 0.06 });
    expect(axis.gaps).toHaveLength(1);
    expect(axis.gaps[0]!).toMatchObject({ from: 10 * MIN, to: 310 * MIN });
    const x = t.map(axis.at);
    expect(x[0]).toBe(0);
    expect(x[1]).toBeCloseTo(0.47, 12);
    expect(x[2]).toBeCloseTo(0.53, 12);
    expect(x[3]).toBeCloseTo(1, 12);
    // The marker sits in the middle of the gap; a time inside it falls inside it.
    expect(axis.gaps[0]!.x).toBeCloseTo(0.5, 12);
    expect(axis.at(160 * MIN)).toBeCloseTo(0.5, 12);
  });

  it('spreads times evenly when every gap is idle', () => {
    // Ten requests an hour apart: every gap is idle and nothing is active.
    const hourly = Array.from({ length: 10 }, (_, i) => i * 60 * MIN);
    const axis = compressedTimeAxis(hourly, { idleMs: 15 * MIN, gapShare: 0.06 });
    expect(axis.gaps).toHaveLength(9);
    hourly.forEach((time, i) => expect(axis.at(time)).toBeCloseTo(i / 9, 12));
  });

  it('places one time in the middle, and no time without failing', () => {
    expect(compressedTimeAxis([5], { idleMs: 1, gapShare: 0.1 }).at(5)).toBe(0.5);
    expect(compressedTimeAxis([], { idleMs: 1, gapShare: 0.1 }).gaps).toEqual([]);
  });
});

describe('durationText', () => {
  it('says minutes, hours and minutes, or days and hours', () => {
    expect([16 * MIN, 60 * MIN, 302 * MIN, 47 * 60 * MIN + 59 * MIN, 76 * 60 * MIN, 48 * 60 * MIN].map(durationText)).toEqual(['16 min', '1 h', '5 h 2 min', '47 h 59 min', '3 d 4 h', '2 d']);
  });
});
