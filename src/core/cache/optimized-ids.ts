// Numbers for the optimized scenario's block identities (optimizedWire: keys sorted, volatile values replaced)
// without sorting the keys of every distinct wire, which took 60 ms of the 3,000-request bench log's 800.
//
// A wire is JSON.stringify output (segment-builder.ts): compact, written the way a re-serialization writes it, its
// keys unique. Sorting keys then only moves whole `"key":value` pairs, and normalizeOutsideRoutingIds replaces
// spans inside single tokens (a string's text, a number), whatever the order. So two wires with equal optimized
// identities hold the same pairs, in some order, once their volatile values are replaced: wires are grouped by a
// digest that the order of pairs does not change, and optimizedWire is computed only to tell apart the wires of a
// group (true twins that differ in key order, or a digest collision: rare).

import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET } from '../input/json-bytes.ts';
import { FNV_OFFSET_BASIS, FNV_PRIME } from '../text/fnv.ts';
import { normalizeOutsideRoutingIds, optimizedWire } from './normalize.ts';

interface Member {
  wire: string;
  id: number;
  /** optimizedWire(wire), once the group has needed it. */
  identity: string | null;
}

export class OptimizedIds {
  private readonly groups = new Map<number, Member[]>();

  /**
   * `newId(key)` numbers a new identity (the identity table: a key not seen before gets the next number);
   * `identities` is the memo of optimizedWire results shared with whatever else asks for them (sortedTools).
   */
  constructor(
    private readonly newId: (key: string) => number,
    private readonly identities: Map<string, string>,
  ) {}

  /**
   * The number of the wire's optimized identity: equal for two wires exactly when optimizedWire gives both the
   * same text, and numbered in the order identities are first seen, as numbering optimizedWire's text would.
   */
  idOf(wire: string): number {
    const digest = orderBlindDigest(normalizeOutsideRoutingIds(wire));
    const group = this.groups.get(digest);
    if (group === undefined) {
      // The first wire of its group: a new identity. Its own text keys the table (a wire is never a salt, and a
      // later wire of the same identity lands in this group).
      const id = this.newId(wire);
      this.groups.set(digest, [{ wire, id, identity: null }]);
      return id;
    }
    const identity = optimizedWire({ wire }, this.identities);
    for (const member of group) {
      member.identity ??= optimizedWire({ wire: member.wire }, this.identities);
      if (member.identity === identity) return member.id;
    }
    const id = this.newId(wire);
    group.push({ wire, id, identity });
    return id;
  }
}

/**
 * An order-blind digest (a 53-bit number) of the `"key":value` pairs in a JSON text: the text is cut at every comma,
 * brace and bracket (inside strings too: the cuts only need to fall the same way whatever the order of pairs), each
 * piece is hashed in order (FNV-1a), and the pieces' hashes are summed. A pair begins right after a cut and ends right
 * before one, so moving pairs moves whole pieces and leaves the sums as they were; two tool calls whose ids differ
 * only in digit order still differ, which a plain sum over characters did not tell apart.
 */
function orderBlindDigest(text: string): number {
  let pieces = 0;
  let sum = 0;
  let mixed = 0;
  let cuts = 0;
  let hash = FNV_OFFSET_BASIS;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === OPEN_BRACE || c === CLOSE_BRACE || c === OPEN_BRACKET || c === CLOSE_BRACKET) {
      sum = (sum + hash) | 0;
      mixed = (mixed + finalMix(hash)) | 0;
      pieces++;
      cuts = (cuts + Math.imul(c, 0x9e3779b1 | 0)) | 0;
      hash = FNV_OFFSET_BASIS;
    } else hash = Math.imul(hash ^ c, FNV_PRIME);
  }
  sum = (sum + hash) | 0;
  mixed = (mixed + finalMix(hash)) | 0;
  // One number (53 bits) as the key: writing five numbers into a string key cost more than the digest loop.
  const low = Math.imul(sum ^ Math.imul(pieces, 0x9e3779b1 | 0) ^ Math.imul(cuts, 0x85ebca6b | 0) ^ text.length, 0xc2b2ae35 | 0);
  return (mixed >>> 0) * 0x200000 + (low >>> 11);
}

/** MurmurHash3's 32-bit finalizer: summing mixed values keeps two different sets of pieces from summing alike. */
function finalMix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b | 0);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35 | 0);
  return h ^ (h >>> 16);
}
