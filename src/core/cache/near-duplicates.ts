// Near-duplicate content: the same file or tool output fetched more than once in one conversation, possibly with
// small differences. Each block becomes a set of 5-word shingles hashed with FNV-1a (32-bit); blocks whose sets
// have Jaccard similarity ≥ 0.85 are joined with union-find.
//
// Scope: the last request of each conversation only. An agent loop re-sends its whole history every turn, so
// comparing across requests would flag every earlier turn as a copy of itself; the last request already holds the
// conversation's accumulated context. A group is reported once, in the first conversation that holds it: the same
// blocks repeated in every conversation (a quoted policy in a shared setup) are one cause, not one per conversation.
import type { Category, ParsedRequest } from '../model.ts';
import type { Conversations } from './conversations.ts';
import { FNV_OFFSET_BASIS, FNV_PRIME } from '../text/fnv.ts';

export const SHINGLE_WORDS = 5;
/** Jaccard threshold as an exact fraction (85/100), so boundary cases do not depend on float rounding. */
export const JACCARD_NUMERATOR = 85;
export const JACCARD_DENOMINATOR = 100;

export interface NearDuplicateGroup {
  requestIndex: number;
  /** Indices into the request's segments, ascending; at least two. */
  segments: number[];
  /**
   * The lowest Jaccard similarity among the pairs that merged the group (≥ 0.85); 1 for exact copies or identical
   * shingles. Pairs already in one group are not compared again, so this is over the merging pairs only.
   */
  similarity: number;
}

/**
 * Work budget of the near-duplicate search over one analysis, in steps: one per candidate pair met in the prefix
 * index, plus the sizes of both sets for each pair verified. The prefix filter keeps real inputs far below it, but
 * blocks that all sit just under the threshold pass it pairwise: 16,000 of them took 144 s (×4 per doubling).
 * Past the budget the search stops where it is and the cut is reported (NearDuplicateCut); groups found so far stay.
 */
export const NEAR_DUPLICATE_WORK_BUDGET = 200_000_000;

/** Where the search stopped for its budget. */
export interface NearDuplicateCut {
  /** The request whose comparison was cut short (its groups may be incomplete). */
  request: number;
  /** Conversations' last requests after it that were not compared at all. */
  requestsNotCompared: number;
}

export interface NearDuplicateResult {
  groups: NearDuplicateGroup[];
  /** Null when every request was compared completely. */
  cut: NearDuplicateCut | null;
}

/** Blocks whose text is content the model reads; tool definitions and tool-call arguments are left out. */
const SCANNED: ReadonlySet<Category> = new Set<Category>([
  'system',
  'user',
  'assistant',
  'tool_result',
  'thinking',
  'document',
  'other',
]);

/** FNV-1a, 32-bit, over the UTF-8 bytes of the given words joined by single spaces. */
export function fnv1aWords(words: readonly string[], start: number, count: number): number {
  // The byte feed is written out inline: this runs once per shingle, and a closure per call showed in profiles.
  let hash = FNV_OFFSET_BASIS;
  for (let w = start; w < start + count; w++) {
    if (w > start) hash = Math.imul(hash ^ 0x20, FNV_PRIME);
    const word = words[w]!;
    for (let i = 0; i < word.length; i++) {
      let code = word.codePointAt(i)!;
      if (code < 0x80) {
        hash = Math.imul(hash ^ code, FNV_PRIME);
        continue;
      }
      if (code > 0xffff) i++;
      else if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd; // lone surrogate, as TextEncoder writes it
      if (code < 0x800) {
        hash = Math.imul(hash ^ (0xc0 | (code >> 6)), FNV_PRIME);
        hash = Math.imul(hash ^ (0x80 | (code & 0x3f)), FNV_PRIME);
      } else if (code < 0x10000) {
        hash = Math.imul(hash ^ (0xe0 | (code >> 12)), FNV_PRIME);
        hash = Math.imul(hash ^ (0x80 | ((code >> 6) & 0x3f)), FNV_PRIME);
        hash = Math.imul(hash ^ (0x80 | (code & 0x3f)), FNV_PRIME);
      } else {
        hash = Math.imul(hash ^ (0xf0 | (code >> 18)), FNV_PRIME);
        hash = Math.imul(hash ^ (0x80 | ((code >> 12) & 0x3f)), FNV_PRIME);
        hash = Math.imul(hash ^ (0x80 | ((code >> 6) & 0x3f)), FNV_PRIME);
        hash = Math.imul(hash ^ (0x80 | (code & 0x3f)), FNV_PRIME);
      }
    }
  }
  return hash >>> 0;
}

const utf8 = new TextEncoder();

/**
 * Length of the whitespace character (as JavaScript's \s matches it) whose UTF-8 encoding starts at `i`, or 0:
 * tab, LF, VT, FF, CR, space, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
 */
function whitespaceBytesAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return b === 0x20 || (b >= 0x09 && b <= 0x0d) ? 1 : 0;
  if (b === 0xc2) return bytes[i + 1] === 0xa0 ? 2 : 0;
  return threeByteWhitespaceAt(bytes, i, b);
}

/** The three-byte whitespace characters (U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF). */
function threeByteWhitespaceAt(bytes: Uint8Array, i: number, b: number): number {
  const b1 = bytes[i + 1];
  const b2 = bytes[i + 2]!;
  switch (b) {
    case 0xe1:
      return b1 === 0x9a && b2 === 0x80 ? 3 : 0;
    case 0xe2:
      if (b1 === 0x80) return b2 <= 0x8a || b2 === 0xa8 || b2 === 0xa9 || b2 === 0xaf ? 3 : 0;
      return b1 === 0x81 && b2 === 0x9f ? 3 : 0;
    case 0xe3:
      return b1 === 0x80 && b2 === 0x80 ? 3 : 0;
    case 0xef:
      return b1 === 0xbb && b2 === 0xbf ? 3 : 0;
    default:
      return 0;
  }
}

/**
 * Distinct shingle hashes of a text, ascending. Texts shorter than five words have none.
 * Each hash equals fnv1aWords(words, i, 5) over the lower-cased text split at whitespace: the text is encoded to
 * UTF-8 once (TextEncoder, like fnv1aWords, writes a lone surrogate as U+FFFD) and read in one pass. The five
 * windows a word belongs to are hashed side by side, each byte fed to all five (h0 the window that started four
 * words back, h4 the one starting at this word): the same bytes in the same order per window as one window at a
 * time, but five independent multiply chains, which the processor runs in parallel, instead of one.
 */
export function shingles(text: string): Uint32Array {
  const bytes = utf8.encode(text.toLowerCase());
  // At most one word per two bytes (a byte and a separator).
  const hashes = new Uint32Array((bytes.length >> 1) + 1);
  let count = 0;
  let words = 0;
  let h0 = FNV_OFFSET_BASIS;
  let h1 = FNV_OFFSET_BASIS;
  let h2 = FNV_OFFSET_BASIS;
  let h3 = FNV_OFFSET_BASIS;
  let h4 = FNV_OFFSET_BASIS;
  let inWord = false;
  for (let i = 0; i <= bytes.length; ) {
    const space = i === bytes.length ? 1 : whitespaceBytesAt(bytes, i);
    if (space > 0) {
      if (inWord) {
        // The window four words back is whole; the others move up a place.
        if (++words >= SHINGLE_WORDS) hashes[count++] = h0 >>> 0;
        h0 = h1;
        h1 = h2;
        h2 = h3;
        h3 = h4;
        inWord = false;
      }
      i += space;
      continue;
    }
    if (!inWord) {
      // A new word: the windows under way take the space between words, and one window starts here.
      h0 = Math.imul(h0 ^ 0x20, FNV_PRIME);
      h1 = Math.imul(h1 ^ 0x20, FNV_PRIME);
      h2 = Math.imul(h2 ^ 0x20, FNV_PRIME);
      h3 = Math.imul(h3 ^ 0x20, FNV_PRIME);
      h4 = FNV_OFFSET_BASIS;
      inWord = true;
    }
    const byte = bytes[i++]!;
    h0 = Math.imul(h0 ^ byte, FNV_PRIME);
    h1 = Math.imul(h1 ^ byte, FNV_PRIME);
    h2 = Math.imul(h2 ^ byte, FNV_PRIME);
    h3 = Math.imul(h3 ^ byte, FNV_PRIME);
    h4 = Math.imul(h4 ^ byte, FNV_PRIME);
  }
  const found = hashes.subarray(0, count);
  found.sort();
  let distinct = 0;
  for (let i = 0; i < found.length; i++) if (i === 0 || found[i] !== found[i - 1]) found[distinct++] = found[i]!;
  return found.slice(0, distinct);
}

/** Size of the intersection of two ascending arrays. */
function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return shared;
}

export function jaccard(a: Uint32Array, b: Uint32Array): number {
  const shared = intersectionSize(a, b);
  const union = a.length + b.length - shared;
  return union === 0 ? 0 : shared / union;
}

/** Smallest overlap a set of this size needs with a partner to reach the threshold: ceil(0.85·size). */
const minimumOverlap = (size: number) => Math.floor((JACCARD_NUMERATOR * size + JACCARD_DENOMINATOR - 1) / JACCARD_DENOMINATOR);

/**
 * Open-addressing table from a 32-bit shingle hash to a slot, sized for `expected` distinct keys at most, with a
 * count per slot. Typed arrays instead of a Map: most hashes exceed 2³¹, so a Map would box every key.
 */
class HashSlots {
  readonly keys: Uint32Array;
  readonly used: Uint8Array;
  readonly count: Uint32Array;
  private readonly mask: number;
  /** 32 − log2(capacity): the slot is taken from the product's high bits, which mix every bit of the hash. */
  private readonly shift: number;

  constructor(expected: number) {
    let bits = 4;
    while (1 << bits < expected * 2) bits++;
    const capacity = 1 << bits;
    this.keys = new Uint32Array(capacity);
    this.used = new Uint8Array(capacity);
    this.count = new Uint32Array(capacity);
    this.mask = capacity - 1;
    this.shift = 32 - bits;
  }

  /** The slot of `hash`, claimed on first sight (linear probing; the table is at most half full). */
  slotOf(hash: number): number {
    let slot = Math.imul(hash, 0x9e3779b1 | 0) >>> this.shift;
    while (this.used[slot] === 1) {
      if (this.keys[slot] === hash) return slot;
      slot = (slot + 1) & this.mask;
    }
    this.used[slot] = 1;
    this.keys[slot] = hash;
    return slot;
  }
}

/**
 * Near-duplicate groups inside one request. Candidate pairs come from a prefix filter (each set ordered rarest
 * shingle first; two sets reaching the threshold must share a shingle among their first |s| − ⌈0.85·|s|⌉ + 1),
 * then every candidate is verified exactly, so the result equals the all-pairs comparison without its cost.
 */
export function nearDuplicatesInRequest(
  request: ParsedRequest,
  requestIndex: number,
  shingleMemo = new Map<string, Uint32Array>(),
  budget: { left: number } = { left: NEAR_DUPLICATE_WORK_BUDGET },
): NearDuplicateGroup[] {
  const entries = scannedEntries(request, shingleMemo);
  if (entries.length === 0 || (entries.length === 1 && entries[0]!.segments.length < 2)) return [];
  const search = new PairSearch(entries, budget);
  search.run();
  return search.groups(requestIndex);
}

/** One distinct scanned text of a request: the segments holding it and its shingle set. */
interface TextEntry {
  segments: number[];
  set: Uint32Array;
}

/**
 * One entry per distinct text: exact copies (the same file read again) join their entry directly, so a request
 * holding thousands of identical results does not turn into thousands of pairwise comparisons.
 */
function scannedEntries(request: ParsedRequest, shingleMemo: Map<string, Uint32Array>): TextEntry[] {
  const entries: TextEntry[] = [];
  const entryOfText = new Map<string, number>();
  request.segments.forEach((segment, index) => {
    if (!SCANNED.has(segment.category) || segment.text.length === 0) return;
    const known = entryOfText.get(segment.text);
    if (known !== undefined) {
      entries[known]!.segments.push(index);
      return;
    }
    let set = shingleMemo.get(segment.text);
    if (set === undefined) {
      set = shingles(segment.text);
      shingleMemo.set(segment.text, set);
    }
    if (set.length === 0) return;
    entryOfText.set(segment.text, entries.length);
    entries.push({ segments: [index], set });
  });
  return entries;
}

/**
 * The candidate search over one request's entries: a prefix index of shingle slots, union-find over the entries,
 * and the verified pairs that merged them.
 */
class PairSearch {
  private readonly table: HashSlots;
  /**
   * The index: per shingle slot, the entries holding it among their prefix shingles, in insertion order, as linked
   * lists in typed arrays (a Map of arrays keyed by 32-bit hashes, mostly above 2³¹ and so boxed, cost more than
   * the shingling).
   */
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  private readonly nodeEntry: number[] = [];
  private readonly nodeNext: number[] = [];
  private readonly seenBy: Int32Array;
  private readonly parent: number[];
  private readonly edges: { a: number; b: number; similarity: number }[] = [];

  constructor(
    private readonly entries: readonly TextEntry[],
    private readonly budget: { left: number },
  ) {
    this.table = new HashSlots(entries.reduce((total, { set }) => total + set.length, 0));
    const table = this.table;
    // How many entries hold each shingle (each set is distinct, so one count per entry).
    for (const { set } of entries) for (let i = 0; i < set.length; i++) table.count[table.slotOf(set[i]!)]!++;
    const capacity = table.count.length;
    this.head = new Int32Array(capacity).fill(-1);
    this.tail = new Int32Array(capacity).fill(-1);
    this.seenBy = new Int32Array(entries.length).fill(-1);
    this.parent = entries.map((_, i) => i);
  }

  find(x: number): number {
    const parent = this.parent;
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  }

  /**
   * The set's hashes ordered rarest first (ties by hash value), as one numeric sort of frequency·2³² + hash keys:
   * a comparator doing two Map lookups per comparison was the most expensive line of this module.
   */
  private rarestFirst(set: Uint32Array): Float64Array {
    const table = this.table;
    const keys = new Float64Array(set.length);
    for (let i = 0; i < set.length; i++) keys[i] = table.count[table.slotOf(set[i]!)]! * 0x100000000 + set[i]!;
    return keys.sort();
  }

  /** Smaller sets first: each set is probed against the already indexed ones, which the size filter allows. */
  run(): void {
    const entries = this.entries;
    const order = entries.map((_, i) => i).sort((a, b) => entries[a]!.set.length - entries[b]!.set.length || a - b);
    for (const current of order) {
      const set = entries[current]!.set;
      const keys = this.rarestFirst(set);
      const prefixLength = set.length - minimumOverlap(set.length) + 1;
      const prefixSlots = new Int32Array(prefixLength);
      for (let p = 0; p < prefixLength; p++) prefixSlots[p] = this.table.slotOf(keys[p]! % 0x100000000);
      if (!this.probe(current, prefixSlots)) return;
      this.index(current, prefixSlots);
    }
  }

  /** Verifies every indexed entry sharing a prefix shingle with `current`; false when the budget ran out. */
  private probe(current: number, prefixSlots: Int32Array): boolean {
    const { head, nodeEntry, nodeNext, seenBy, budget } = this;
    for (let p = 0; p < prefixSlots.length; p++) {
      for (let node = head[prefixSlots[p]!]!; node !== -1; node = nodeNext[node]!) {
        if (--budget.left < 0) return false;
        const other = nodeEntry[node]!;
        if (seenBy[other] === current) continue;
        seenBy[other] = current;
        // Already in one group: the pair cannot change the grouping, so it is not verified.
        if (this.find(other) !== this.find(current)) this.verify(other, current);
      }
    }
    return true;
  }

  private verify(other: number, current: number): void {
    const set = this.entries[current]!.set;
    const otherSet = this.entries[other]!.set;
    // Jaccard ≥ 0.85 needs |smaller| ≥ 0.85·|larger|.
    if (otherSet.length * JACCARD_DENOMINATOR < set.length * JACCARD_NUMERATOR) return;
    this.budget.left -= set.length + otherSet.length;
    const shared = intersectionSize(set, otherSet);
    const union = set.length + otherSet.length - shared;
    if (shared * JACCARD_DENOMINATOR < union * JACCARD_NUMERATOR) return;
    this.edges.push({ a: other, b: current, similarity: shared / union });
    this.parent[this.find(other)] = this.find(current);
  }

  private index(current: number, prefixSlots: Int32Array): void {
    const { head, tail, nodeEntry, nodeNext } = this;
    for (let p = 0; p < prefixSlots.length; p++) {
      const slot = prefixSlots[p]!;
      const node = nodeEntry.length;
      nodeEntry.push(current);
      nodeNext.push(-1);
      if (head[slot] === -1) head[slot] = node;
      else nodeNext[tail[slot]!] = node;
      tail[slot] = node;
    }
  }

  /** The groups the merges made, each with the lowest similarity among its merging pairs, by first segment. */
  groups(requestIndex: number): NearDuplicateGroup[] {
    const members = new Map<number, number[]>();
    this.entries.forEach((entry, i) => {
      const root = this.find(i);
      const list = members.get(root) ?? [];
      list.push(...entry.segments);
      members.set(root, list);
    });
    const lowest = new Map<number, number>();
    for (const { a, similarity } of this.edges) {
      const root = this.find(a);
      lowest.set(root, Math.min(lowest.get(root) ?? 1, similarity));
    }
    const groups: NearDuplicateGroup[] = [];
    for (const [root, segments] of members) {
      if (segments.length < 2) continue;
      groups.push({ requestIndex, segments: segments.sort((a, b) => a - b), similarity: lowest.get(root) ?? 1 });
    }
    return groups.sort((a, b) => a.segments[0]! - b.segments[0]!);
  }
}

/** Names a group by its blocks' contents (wire hashes), wherever they sit: the same copies are one group. */
function groupKey(request: ParsedRequest, group: NearDuplicateGroup): string {
  return group.segments.map((s) => request.segments[s]?.hash ?? '').sort().join(' ');
}

/**
 * Near-duplicate groups in the last request of every conversation, in request order, within the work budget; a
 * group whose blocks an earlier conversation's group already holds is left out (reported once, where first seen).
 */
export function findNearDuplicates(
  requests: readonly ParsedRequest[],
  conversations: Conversations,
  workBudget = NEAR_DUPLICATE_WORK_BUDGET,
): NearDuplicateResult {
  const lastOf = new Map<number, number>();
  conversations.conversationOf.forEach((conversation, requestIndex) => lastOf.set(conversation, requestIndex));
  const memo = new Map<string, Uint32Array>();
  const budget = { left: workBudget };
  const lasts = [...lastOf.values()].sort((a, b) => a - b);
  const groups: NearDuplicateGroup[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lasts.length; i++) {
    const request = requests[lasts[i]!]!;
    for (const group of nearDuplicatesInRequest(request, lasts[i]!, memo, budget)) {
      const key = groupKey(request, group);
      if (seen.has(key)) continue;
      seen.add(key);
      groups.push(group);
    }
    if (budget.left < 0) return { groups, cut: { request: lasts[i]!, requestsNotCompared: lasts.length - i - 1 } };
  }
  return { groups, cut: null };
}
