// Cumulative prefix identity in O(1) per block. Each distinct identity string gets a small integer once
// (identities are interned, so the Map lookup hashes each distinct text a single time per analysis); a prefix is
// then a rolling pair of 32-bit hashes over those integers, so comparing two prefixes never concatenates or
// re-reads their text.

/** Assigns each distinct identity string a small integer, in order of first sighting. */
export class IdentityTable {
  private readonly ids = new Map<string, number>();

  idOf(identity: string): number {
    const known = this.ids.get(identity);
    if (known !== undefined) return known;
    const id = this.ids.size + 1;
    this.ids.set(identity, id);
    return id;
  }
}

/** The two hash lanes of an empty prefix. */
export const EMPTY_CHAIN: { readonly hi: number; readonly lo: number } = { hi: 0x6a09e667, lo: 0xbb67ae85 };

/**
 * Appends one identity to a prefix hash, one lane at a time (two independently mixed 32-bit lanes keep collisions
 * negligible), so hot loops keep the state in two locals instead of an object per block (the view builder).
 */
export function extendHi(previous: number, id: number): number {
  let hi = Math.imul(previous ^ id, 0x9e3779b1 | 0);
  hi ^= hi >>> 15;
  hi = Math.imul(hi, 0x85ebca77 | 0);
  hi ^= hi >>> 13;
  return hi >>> 0;
}

export function extendLo(previous: number, id: number): number {
  let lo = Math.imul(previous ^ Math.imul(id, 0x27d4eb2f), 0xc2b2ae3d | 0);
  lo ^= lo >>> 16;
  lo = Math.imul(lo, 0x165667b1);
  lo ^= lo >>> 15;
  return lo >>> 0;
}

/** A 53-bit number naming the prefix through the block whose lanes are `hi` and `lo`, usable as a Map key. */
export function keyOfLanes(hi: number, lo: number): number {
  return hi * 0x200000 + (lo >>> 11);
}
