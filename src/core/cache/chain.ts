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

/** The hash state of an empty prefix. */
export interface ChainState {
  hi: number;
  lo: number;
}

export const EMPTY_CHAIN: ChainState = { hi: 0x6a09e667, lo: 0xbb67ae85 };

/** Appends one identity to a prefix hash. Two independently mixed lanes keep collisions negligible. */
export function extendChain(state: ChainState, id: number): ChainState {
  return { hi: extendHi(state.hi, id), lo: extendLo(state.lo, id) };
}

/**
 * The two lanes of extendChain one at a time, for hot loops that keep the state in two locals instead of
 * allocating a ChainState per block (the view builder).
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

/** A 53-bit number naming the prefix, usable as a Map key without allocating a string. */
export function chainKey(state: ChainState): number {
  return keyOfLanes(state.hi, state.lo);
}

export function keyOfLanes(hi: number, lo: number): number {
  return hi * 0x200000 + (lo >>> 11);
}

/** Keys of every prefix of `ids`: element i names the prefix that ends with ids[i]. */
export function prefixKeys(ids: readonly number[], start: ChainState = EMPTY_CHAIN): number[] {
  const keys = new Array<number>(ids.length);
  let state = start;
  for (let i = 0; i < ids.length; i++) {
    state = extendChain(state, ids[i] ?? 0);
    keys[i] = chainKey(state);
  }
  return keys;
}
