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
  /**
   * Set on the delete and insert of a coarse diff: the search for the shortest edit script ran out of its work
   * budget, so everything between the shared head and tail is shown as one replacement (not minimal).
   */
  coarse?: true;
}

/**
 * Work budget of one diff, in steps of the search (one per diagonal visited, per item followed along a snake and
 * per diagonal-array entry filled). Myers costs O((N+M)·D): two reordered lists of 20,000 blocks have D ≈ 40,000,
 * which took seconds per diff (40 of them made an HTML report take 511 s). The budget still finds every script
 * of up to ~700 edits, and bounds a diff to about 40 ms; beyond it the diff is coarse and says so.
 */
export const DIFF_WORK_BUDGET = 1_000_000;

class BudgetExhausted extends Error {}

/**
 * Shortest edit script from `a` to `b`, as hunks in order. Items compare with `===`; pass interned strings (segment
 * wire identities) or small integers. The equal hunks always form a longest common subsequence.
 */
export function myersDiff<T>(a: readonly T[], b: readonly T[], workBudget = DIFF_WORK_BUDGET): DiffHunk[] {
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
  const aIds = toIds(a);
  const bIds = toIds(b);
  const builder = new HunkBuilder();
  try {
    diffRange(aIds, 0, a.length, bIds, 0, b.length, builder, { left: workBudget });
    return builder.hunks;
  } catch (error) {
    if (!(error instanceof BudgetExhausted)) throw error;
    return coarseDiff(aIds, bIds);
  }
}

/** The shared head and tail as equal runs, everything between them as one labelled replacement. */
function coarseDiff(a: Int32Array, b: Int32Array): DiffHunk[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const aEnd = a.length - tail;
  const bEnd = b.length - tail;
  const hunks: DiffHunk[] = [];
  if (head > 0) hunks.push({ kind: 'equal', aStart: 0, aEnd: head, bStart: 0, bEnd: head });
  if (aEnd > head) hunks.push({ kind: 'delete', aStart: head, aEnd, bStart: head, bEnd: head, coarse: true });
  if (bEnd > head) hunks.push({ kind: 'insert', aStart: aEnd, aEnd, bStart: head, bEnd, coarse: true });
  if (tail > 0) hunks.push({ kind: 'equal', aStart: aEnd, aEnd: a.length, bStart: bEnd, bEnd: b.length });
  return hunks;
}

/** Whether a diff is coarse (see DiffHunk.coarse). */
export function isCoarse(hunks: readonly DiffHunk[]): boolean {
  return hunks.some((hunk) => hunk.coarse === true);
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
  budget: { left: number },
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
    const split = middleSnake(a, aLo, aEnd, b, bLo, bEnd, budget);
    if (split === null) {
      // Nothing in common: the whole range is one replacement.
      out.push('delete', aLo, aEnd, bLo, bLo);
      out.push('insert', aEnd, aEnd, bLo, bEnd);
    } else {
      diffRange(a, aLo, aLo + split.x, b, bLo, bLo + split.y, out, budget);
      diffRange(a, aLo + split.x, aEnd, b, bLo + split.y, bEnd, out, budget);
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
  budget: { left: number },
): { x: number; y: number } | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const size = 2 * maxD + 2;
  // Filling the two diagonal arrays costs their size: on a split far off-centre the recursion allocates again
  // and again, so this counts too.
  budget.left -= 2 * size;
  if (budget.left < 0) throw new BudgetExhausted();
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
    // Each round visits up to 2·(d + 1) diagonals; the snakes followed are counted as they are walked.
    budget.left -= 2 * (d + 1);
    if (budget.left < 0) throw new BudgetExhausted();
    for (let k = -d + kForwardStart; k <= d - kForwardEnd; k += 2) {
      const kIndex = offset + k;
      let x: number;
      if (k === -d || (k !== d && forward[kIndex - 1]! < forward[kIndex + 1]!)) x = forward[kIndex + 1]!;
      else x = forward[kIndex - 1]! + 1;
      let y = x - k;
      const snakeStart = x;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      budget.left -= x - snakeStart;
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
      const snakeStart = x;
      while (x < n && y < m && a[aHi - x - 1] === b[bHi - y - 1]) {
        x++;
        y++;
      }
      budget.left -= x - snakeStart;
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
