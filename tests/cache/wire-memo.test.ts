// The per-wire memo trusts a wire id only when its slot holds the segment's own wire.
import { describe, expect, it } from 'vitest';
import { WireMemo } from '../../src/core/text/wire-memo.ts';
import { segment } from '../tokens/build.ts';
import type { Segment } from '../../src/core/model.ts';

/** A segment whose id comes from some other read's numbering. */
const withId = (wire: string, wireId: number): Segment => ({ ...segment({ category: 'user', text: wire, wire }), wireId });

describe('WireMemo', () => {
  it('computes each wire once while its slot holds it', () => {
    const computed: string[] = [];
    const memo = new WireMemo((s) => {
      computed.push(s.wire);
      return s.wire.length;
    });
    expect([memo.get(withId('"ab"', 0)), memo.get(withId('"abc"', 1)), memo.get(withId('"ab"', 0))]).toEqual([4, 5, 4]);
    expect(computed).toEqual(['"ab"', '"abc"']);
  });

  it('never returns the value of another wire that had the same id in another read', () => {
    const memo = new WireMemo((s) => s.wire.length);
    expect(memo.get(withId('"first read"', 0))).toBe(12);
    // Id 0 of a second read names a different wire: computed afresh, not the 12 stored in slot 0.
    expect(memo.get(withId('"x"', 0))).toBe(3);
    expect(memo.get(withId('"first read"', 0))).toBe(12);
  });
});
