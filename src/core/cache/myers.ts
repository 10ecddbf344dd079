// Myers' O((N+M)·D) difference algorithm in linear space (E. W. Myers, "An O(ND) Difference Algorithm and Its
// Variations", Algorithmica 1, 1986, §4b: recursive "middle snake" bisection). Consecutive agent requests differ by
// a few edits, so D stays small even when the lists hold thousands of segments.

export type HunkKind = 'equal' | 'insert' | 'delete';

/**
 * A run of one kind of edit. Ranges are half-open indices into the old list `a` and the new list `b`:
 * an insert has aStart === aEnd, a delete has bStart === bEnd, an equal run has the same length on both sides.
 */
export interface DiffHunk {
  kind: HunkKind;
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/**
 * Shortest edit script from `a` to `b`, as hunks in order. Items compare with `===`; pass interned strings (segment
 * wire identities) or small integers. The equal hunks always form a longest common subsequence.
 */
export function myersDiff<T>(a: readonly T[], b: readonly T[]): DiffHunk[] {
  // Map items to small integers once, so the inner loops compare numbers.
  const ids = new Map<T, number>();
  const toIds = (items: readonly T[]): Int32Array => {
    const out = new Int32Array(items.length);
    items.forEach((item, index) => {
      let id = ids.get(item);
      if (id === undefined) {
        id = ids.size;
        ids.set(item, id);
      }
      out[index] = id;
    });
    return out;
  };
  const builder = new HunkBuilder();
  diffRange(toIds(a), 0, a.length, toIds(b), 0, b.length, builder);
  return builder.hunks;
}

/** Collects single-kind runs, merging adjacent runs of the same kind. */
class HunkBuilder {
  readonly hunks: DiffHunk[] = [];

  push(kind: HunkKind, aStart: number, aEnd: number, bStart: number, bEnd: number): void {
    if (aStart === aEnd && bStart === bEnd) return;
    const last = this.hunks[this.hunks.length - 1];
    if (last && last.kind === kind && last.aEnd === aStart && last.bEnd === bStart) {
      last.aEnd = aEnd;
      last.bEnd = bEnd;
      return;
    }
    this.hunks.push({ kind, aStart, aEnd, bStart, bEnd });
  }
}

function diffRange(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
  out: HunkBuilder,
): void {
  // A shared head and tail are always part of some LCS; taking them first keeps the bisection small.
  let head = 0;
  while (aLo + head < aHi && bLo + head < bHi && a[aLo + head] === b[bLo + head]) head++;
  out.push('equal', aLo, aLo + head, bLo, bLo + head);
  aLo += head;
  bLo += head;
  let tail = 0;
  while (aHi - tail > aLo && bHi - tail > bLo && a[aHi - tail - 1] === b[bHi - tail - 1]) tail++;
  const aEnd = aHi - tail;
  const bEnd = bHi - tail;

  if (aLo === aEnd) out.push('insert', aLo, aLo, bLo, bEnd);
  else if (bLo === bEnd) out.push('delete', aLo, aEnd, bLo, bLo);
  else {
    const split = middleSnake(a, aLo, aEnd, b, bLo, bEnd);
    if (split === null) {
      // Nothing in common: the whole range is one replacement.
      out.push('delete', aLo, aEnd, bLo, bLo);
      out.push('insert', aEnd, aEnd, bLo, bEnd);
    } else {
      diffRange(a, aLo, aLo + split.x, b, bLo, bLo + split.y, out);
      diffRange(a, aLo + split.x, aEnd, b, bLo + split.y, bEnd, out);
    }
  }
  out.push('equal', aEnd, aHi, bEnd, bHi);
}

/**
 * Finds a point (x, y) on an optimal edit path through the range by running the greedy search from both ends
 * until the forward and reverse D-paths overlap. Returns null when the ranges share no item.
 */
function middleSnake(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
): { x: number; y: number } | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const size = 2 * maxD + 2;
  // forward[k] = furthest x reached on diagonal k (k = x − y); reverse[k] the same measured from the ends.
  const forward = new Int32Array(size).fill(-1);
  const reverse = new Int32Array(size).fill(-1);
  forward[offset + 1] = 0;
  reverse[offset + 1] = 0;
  const delta = n - m;
  // With an odd delta the paths can first meet during a forward step, with an even one during a reverse step.
  const checkForward = delta % 2 !== 0;
  // Diagonals that ran off the grid are skipped from then on.
  let kForwardStart = 0;
  let kForwardEnd = 0;
  let kReverseStart = 0;
  let kReverseEnd = 0;

  for (let d = 0; d < maxD; d++) {
    for (let k = -d + kForwardStart; k <= d - kForwardEnd; k += 2) {
      const kIndex = offset + k;
      let x: number;
      if (k === -d || (k !== d && forward[kIndex - 1]! < forward[kIndex + 1]!)) x = forward[kIndex + 1]!;
      else x = forward[kIndex - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      forward[kIndex] = x;
      if (x > n) kForwardEnd += 2;
      else if (y > m) kForwardStart += 2;
      else if (checkForward) {
        const reverseIndex = offset + delta - k;
        if (reverseIndex >= 0 && reverseIndex < size && reverse[reverseIndex] !== -1) {
          if (x >= n - reverse[reverseIndex]!) return { x, y };
        }
      }
    }
    for (let k = -d + kReverseStart; k <= d - kReverseEnd; k += 2) {
      const kIndex = offset + k;
      let x: number;
      if (k === -d || (k !== d && reverse[kIndex - 1]! < reverse[kIndex + 1]!)) x = reverse[kIndex + 1]!;
      else x = reverse[kIndex - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[aHi - x - 1] === b[bHi - y - 1]) {
        x++;
        y++;
      }
      reverse[kIndex] = x;
      if (x > n) kReverseEnd += 2;
      else if (y > m) kReverseStart += 2;
      else if (!checkForward) {
        const forwardIndex = offset + delta - k;
        if (forwardIndex >= 0 && forwardIndex < size && forward[forwardIndex] !== -1) {
          const forwardX = forward[forwardIndex]!;
          const forwardY = forwardX - (forwardIndex - offset);
          if (forwardX >= n - x) return { x: forwardX, y: forwardY };
        }
      }
    }
  }
  return null;
}

/** Number of items the equal hunks keep: the length of the common subsequence the diff found. */
export function keptCount(hunks: readonly DiffHunk[]): number {
  let kept = 0;
  for (const hunk of hunks) if (hunk.kind === 'equal') kept += hunk.aEnd - hunk.aStart;
  return kept;
}
