import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keptCount, myersDiff, type DiffHunk } from '../../src/core/cache/myers.ts';

/** Textbook O(N·M) dynamic program: the reference length of a longest common subsequence. */
function lcsLength<T>(a: readonly T[], b: readonly T[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** Replays the hunks: checks they tile both lists in order and that equal runs really are equal. */
function assertValidScript<T>(a: readonly T[], b: readonly T[], hunks: readonly DiffHunk[]): void {
  let ai = 0;
  let bi = 0;
  for (const hunk of hunks) {
    expect(hunk.aStart).toBe(ai);
    expect(hunk.bStart).toBe(bi);
    if (hunk.kind === 'insert') expect(hunk.aEnd).toBe(hunk.aStart);
    if (hunk.kind === 'delete') expect(hunk.bEnd).toBe(hunk.bStart);
    if (hunk.kind === 'equal') {
      expect(hunk.aEnd - hunk.aStart).toBe(hunk.bEnd - hunk.bStart);
      for (let k = 0; k < hunk.aEnd - hunk.aStart; k++) expect(a[hunk.aStart + k]).toBe(b[hunk.bStart + k]);
    }
    ai = hunk.aEnd;
    bi = hunk.bEnd;
  }
  expect(ai).toBe(a.length);
  expect(bi).toBe(b.length);
}

describe('myersDiff', () => {
  it('shows one moved tool as a delete and an insert around unchanged neighbours', () => {
    const before = ['tool:read', 'tool:grep', 'tool:bash', 'system', 'user1'];
    const after = ['tool:grep', 'tool:read', 'tool:bash', 'system', 'user1'];
    const hunks = myersDiff(before, after);
    expect(keptCount(hunks)).toBe(4);
    assertValidScript(before, after, hunks);
    expect(hunks.filter((h) => h.kind !== 'equal')).toHaveLength(2);
  });

  it('reports an appended turn as a single insert after the shared prefix', () => {
    expect(myersDiff(['s', 'u1'], ['s', 'u1', 'a1', 'u2'])).toEqual([
      { kind: 'equal', aStart: 0, aEnd: 2, bStart: 0, bEnd: 2 },
      { kind: 'insert', aStart: 2, aEnd: 2, bStart: 2, bEnd: 4 },
    ]);
  });

  it('reports one edited block in the middle as delete + insert at that index', () => {
    expect(myersDiff(['t', 'sys@1', 'u1'], ['t', 'sys@2', 'u1'])).toEqual([
      { kind: 'equal', aStart: 0, aEnd: 1, bStart: 0, bEnd: 1 },
      { kind: 'delete', aStart: 1, aEnd: 2, bStart: 1, bEnd: 1 },
      { kind: 'insert', aStart: 2, aEnd: 2, bStart: 1, bEnd: 2 },
      { kind: 'equal', aStart: 2, aEnd: 3, bStart: 2, bEnd: 3 },
    ]);
  });

  it('handles empty and disjoint lists', () => {
    expect(myersDiff([], [])).toEqual([]);
    expect(myersDiff(['a'], [])).toEqual([{ kind: 'delete', aStart: 0, aEnd: 1, bStart: 0, bEnd: 0 }]);
    expect(myersDiff(['a', 'b'], ['c'])).toEqual([
      { kind: 'delete', aStart: 0, aEnd: 2, bStart: 0, bEnd: 0 },
      { kind: 'insert', aStart: 2, aEnd: 2, bStart: 0, bEnd: 1 },
    ]);
  });

  it('keeps a longest common subsequence on random inputs (checked against the DP)', () => {
    const list = fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 40 });
    fc.assert(
      fc.property(list, list, (a, b) => {
        const hunks = myersDiff(a, b);
        assertValidScript(a, b, hunks);
        expect(keptCount(hunks)).toBe(lcsLength(a, b));
      }),
      { numRuns: 1500 },
    );
  });

  it('keeps a longest common subsequence when the new list is a few edits away from the old one', () => {
    const edit = fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 80 }), fc.array(edit, { maxLength: 4 }), (a, edits) => {
        const b = [...a];
        for (const { at, remove, insert } of edits) b.splice(at % (b.length + 1), remove, ...insert);
        const hunks = myersDiff(a, b);
        assertValidScript(a, b, hunks);
        expect(keptCount(hunks)).toBe(lcsLength(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('diffs long lists with few edits without quadratic work', () => {
    const a = Array.from({ length: 50_000 }, (_, i) => `seg${i}`);
    const b = [...a];
    b.splice(100, 1);
    b.splice(30_000, 0, 'new');
    const hunks = myersDiff(a, b);
    expect(keptCount(hunks)).toBe(49_999);
    expect(hunks.filter((h) => h.kind !== 'equal')).toHaveLength(2);
  });
});

describe('myersDiff work budget', () => {
  const n = 4000;
  const a = Array.from({ length: n }, (_, i) => i);
  // Rotated by half: D = n (every item moves), far past a small budget.
  const rotated = [...a.slice(n / 2), ...a.slice(0, n / 2)];

  it('falls back to a labelled coarse diff: shared head and tail kept, the middle one replacement', () => {
    const b = [-1, ...rotated, -2].map((x, i) => (i === 0 ? 0 : x));
    const older = [0, ...a, -2];
    const hunks = myersDiff(older, b, 10_000);
    assertValidScript(older, b, hunks);
    expect(hunks.map((h) => [h.kind, h.coarse === true])).toEqual([
      ['equal', false],
      ['delete', true],
      ['insert', true],
      ['equal', false],
    ]);
    expect([hunks[0]!.aEnd, hunks[3]!.aEnd - hunks[3]!.aStart]).toEqual([1, 1]);
  });

  it('keeps the shortest script when it fits the budget, with no coarse hunk', () => {
    const edited = [...a.slice(0, 100), -1, ...a.slice(103, 3000), -2, ...a.slice(3000)];
    const hunks = myersDiff(a, edited);
    assertValidScript(a, edited, hunks);
    expect(hunks.some((h) => h.coarse)).toBe(false);
    expect(keptCount(hunks)).toBe(lcsLength(a, edited));
  });

  it('the default budget makes a 20,000-block reordering coarse instead of quadratic', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => i);
    const reordered = [...big.slice(10_000), ...big.slice(0, 10_000)];
    const hunks = myersDiff(big, reordered);
    assertValidScript(big, reordered, hunks);
    expect(hunks.every((h) => h.kind === 'equal' || h.coarse === true)).toBe(true);
  });
});
