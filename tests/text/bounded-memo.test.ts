// boundedMemo: each key computed once, a null result remembered like any other, and the memo emptied at its
// bound so endless distinct keys cost time, never memory.
import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../src/core/text/bounded-memo.ts';

describe('boundedMemo', () => {
  it('computes each key once, null results included', () => {
    const asked: string[] = [];
    const lengthOrNull = boundedMemo((key: string) => {
      asked.push(key);
      return key === '' ? null : key.length;
    }, 10);
    expect([lengthOrNull('abc'), lengthOrNull(''), lengthOrNull('abc'), lengthOrNull(''), lengthOrNull('de')]).toEqual([3, null, 3, null, 2]);
    expect(asked).toEqual(['abc', '', 'de']);
  });

  it('holds at most `max` keys: past it the memo starts afresh, with the same answers', () => {
    const asked: number[] = [];
    const double = boundedMemo((key: number) => {
      asked.push(key);
      return key * 2;
    }, 3);
    expect([1, 2, 3].map(double)).toEqual([2, 4, 6]);
    expect([1, 2, 3].map(double)).toEqual([2, 4, 6]);
    expect(asked).toEqual([1, 2, 3]);
    // A fourth key empties the memo before it is kept: the first three are computed again.
    expect(double(4)).toBe(8);
    expect([4, 1].map(double)).toEqual([8, 2]);
    expect(asked).toEqual([1, 2, 3, 4, 1]);
  });
});
