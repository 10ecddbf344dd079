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
  const differ = new Differ(aIds, bIds, workBudget);
  try {
    differ.diffRange(0, a.length, 0, b.length);
    return differ.hunks;
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

/**
 * One direction of the middle-snake search over the current range: `v[offset + k]` is the furthest x reached on
 * diagonal k (k = x − y), measured from the range's start (forward) or from its end (reverse); item x of the walk
 * is `a[aBase + x]` forward, `a[aBase − x]` in reverse (likewise `b`). Diagonals that ran off the grid are skipped
 * from then on.
 */
interface Direction {
  readonly forward: boolean;
  v: Int32Array;
  aBase: number;
  bBase: number;
  kStart: number;
  kEnd: number;
  /** Whether the paths can first meet during this direction's step (odd delta: forward; even: reverse). */
  checks: boolean;
}

const newDirection = ({ forward }: { forward: boolean }): Direction => ({
  forward,
  v: new Int32Array(0),
  aBase: 0,
  bBase: 0,
  kStart: 0,
  kEnd: 0,
  checks: false,
});

/** Where the path on diagonal k starts: down from diagonal k + 1 or right from k − 1, whichever reached further. */
const startOf = (v: Int32Array, kIndex: number, k: number, d: number): number =>
  k === -d || (k !== d && v[kIndex - 1]! < v[kIndex + 1]!) ? v[kIndex + 1]! : v[kIndex - 1]! + 1;

/**
 * The state of one diff: the two id lists, the hunks found so far (adjacent runs of one kind merged), the work
 * budget left, and the two directions of the middle-snake search (reset for each range, never reallocated).
 */
class Differ {
  readonly hunks: DiffHunk[] = [];
  private left: number;
  private readonly forward = newDirection({ forward: true });
  private readonly reverse = newDirection({ forward: false });
  /**
   * The current search: its range lengths n and m, the index of diagonal 0 in the diagonal arrays and their size,
   * and n − m (whether it is odd says which direction looks for the meeting).
   */
  private readonly search = { n: 0, m: 0, offset: 0, size: 0, delta: 0 };
  /** The split point the last successful search found, relative to the range's start. */
  private splitX = 0;
  private splitY = 0;

  constructor(
    private readonly a: Int32Array,
    private readonly b: Int32Array,
    workBudget: number,
  ) {
    this.left = workBudget;
  }

  diffRange(aLo: number, aHi: number, bLo: number, bHi: number): void {
    const { a, b } = this;
    // A shared head and tail are always part of some LCS; taking them first keeps the bisection small.
    let head = 0;
    while (aLo + head < aHi && bLo + head < bHi && a[aLo + head] === b[bLo + head]) head++;
    this.equal(aLo, bLo, head);
    aLo += head;
    bLo += head;
    let tail = 0;
    while (aHi - tail > aLo && bHi - tail > bLo && a[aHi - tail - 1] === b[bHi - tail - 1]) tail++;
    const aEnd = aHi - tail;
    const bEnd = bHi - tail;

    if (aLo === aEnd) this.insert(aLo, bLo, bEnd);
    else if (bLo === bEnd) this.remove(aLo, aEnd, bLo);
    else if (!this.middleSnake(aLo, aEnd, bLo, bEnd)) {
      // Nothing in common: the whole range is one replacement.
      this.remove(aLo, aEnd, bLo);
      this.insert(aEnd, bLo, bEnd);
    } else {
      const x = aLo + this.splitX;
      const y = bLo + this.splitY;
      this.diffRange(aLo, x, bLo, y);
      this.diffRange(x, aEnd, y, bEnd);
    }
    this.equal(aEnd, bEnd, tail);
  }

  /**
   * Finds a point (x, y) on an optimal edit path through the range by running the greedy search from both ends
   * until the forward and reverse D-paths overlap; leaves it in splitX/splitY. False when the ranges share no item.
   */
  private middleSnake(aLo: number, aHi: number, bLo: number, bHi: number): boolean {
    const n = aHi - aLo;
    const m = bHi - bLo;
    const maxD = Math.ceil((n + m) / 2);
    const search = this.search;
    search.n = n;
    search.m = m;
    search.offset = maxD;
    search.size = 2 * maxD + 2;
    search.delta = n - m;
    // Filling the two diagonal arrays costs their size: on a split far off-centre the recursion allocates again
    // and again, so this counts too.
    this.spend(2 * search.size);
    const checkForward = search.delta % 2 !== 0;
    this.start(this.forward, aLo, bLo);
    this.start(this.reverse, aHi - 1, bHi - 1);
    this.forward.checks = checkForward;
    this.reverse.checks = !checkForward;
    for (let d = 0; d < maxD; d++) {
      // Each round visits up to 2·(d + 1) diagonals; the snakes followed are counted as they are walked.
      this.spend(2 * (d + 1));
      if (this.round(this.forward, this.reverse, d) || this.round(this.reverse, this.forward, d)) return true;
    }
    return false;
  }

  private start(direction: Direction, aBase: number, bBase: number): void {
    direction.v = new Int32Array(this.search.size).fill(-1);
    direction.v[this.search.offset + 1] = 0;
    direction.aBase = aBase;
    direction.bBase = bBase;
    direction.kStart = 0;
    direction.kEnd = 0;
  }

  /** One round d of one direction: extends its D-path on every live diagonal; true when it met the other's. */
  private round(direction: Direction, other: Direction, d: number): boolean {
    const { a, b } = this;
    const { n, m, offset, size, delta } = this.search;
    const { v, aBase, bBase, forward, checks } = direction;
    const otherV = other.v;
    let kEnd = direction.kEnd;
    let kStart = direction.kStart;
    let walked = 0;
    let met = false;
    for (let k = -d + kStart; k <= d - kEnd; k += 2) {
      const kIndex = offset + k;
      let x = startOf(v, kIndex, k, d);
      let y = x - k;
      const snakeStart = x;
      if (forward) {
        while (x < n && y < m && a[aBase + x] === b[bBase + y]) {
          x++;
          y++;
        }
      } else {
        while (x < n && y < m && a[aBase - x] === b[bBase - y]) {
          x++;
          y++;
        }
      }
      walked += x - snakeStart;
      v[kIndex] = x;
      if (x > n) kEnd += 2;
      else if (y > m) kStart += 2;
      else if (checks) {
        const otherIndex = offset + delta - k;
        if (otherIndex >= 0 && otherIndex < size && otherV[otherIndex] !== -1 && x + otherV[otherIndex]! >= n) {
          // The split point is where the forward path stands.
          this.splitX = forward ? x : otherV[otherIndex]!;
          this.splitY = forward ? y : this.splitX - (otherIndex - offset);
          met = true;
          break;
        }
      }
    }
    direction.kEnd = kEnd;
    direction.kStart = kStart;
    this.left -= walked;
    return met;
  }

  private spend(steps: number): void {
    this.left -= steps;
    if (this.left < 0) throw new BudgetExhausted();
  }

  private equal(aStart: number, bStart: number, length: number): void {
    if (length > 0) this.extend(this.open('equal', aStart, bStart), aStart + length, bStart + length);
  }

  private insert(aAt: number, bStart: number, bEnd: number): void {
    if (bStart !== bEnd) this.extend(this.open('insert', aAt, bStart), aAt, bEnd);
  }

  private remove(aStart: number, aEnd: number, bAt: number): void {
    if (aStart !== aEnd) this.extend(this.open('delete', aStart, bAt), aEnd, bAt);
  }

  /** The hunk a run starting at (aStart, bStart) goes into: the last one when it is of the same kind and ends there. */
  private open(kind: HunkKind, aStart: number, bStart: number): DiffHunk {
    const last = this.hunks[this.hunks.length - 1];
    if (last && last.kind === kind && last.aEnd === aStart && last.bEnd === bStart) return last;
    const hunk: DiffHunk = { kind, aStart, aEnd: aStart, bStart, bEnd: bStart };
    this.hunks.push(hunk);
    return hunk;
  }

  private extend(hunk: DiffHunk, aEnd: number, bEnd: number): void {
    hunk.aEnd = aEnd;
    hunk.bEnd = bEnd;
  }
}

/** Number of items the equal hunks keep: the length of the common subsequence the diff found. */
export function keptCount(hunks: readonly DiffHunk[]): number {
  let kept = 0;
  for (const hunk of hunks) if (hunk.kind === 'equal') kept += hunk.aEnd - hunk.aStart;
  return kept;
}
