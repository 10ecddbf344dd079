// The text store of one read: every text and wire of every request goes through the same interner, so a history
// resent on each turn is stored once, and its byte length and hash are computed once.

import { contentHash } from './hash.ts';
import { TextInterner } from './intern.ts';
import { utf8Length } from './utf8.ts';

/** What the store knows of one distinct wire (a block's JSON as sent). */
export interface WireStats {
  wire: string;
  /** Distinct wires of the read are numbered in the order first seen. */
  wireId: number;
  bytes: number;
  hash: string;
  loneSurrogate: boolean;
}

/**
 * An unpaired surrogate as JSON.stringify writes it: `\udXXX` (lower-case hex, D800–DFFF) after an even run of
 * backslashes, so a text that merely spells a backslash-u escape (`\\ud800` in the wire) does not count. A paired
 * surrogate is written as the character itself, never escaped.
 */
const ESCAPED_LONE_SURROGATE = /(?<!\\)(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/;

/** One per read (see the file comment). */
export class TextStore {
  readonly interner: TextInterner;
  private readonly stats = new Map<string, WireStats>();
  /** Segments built from a block (not reused from an earlier request): what a read's memory grows with. */
  builtSegments = 0;
  /** The path of the segment last built at each index of a request, any request (see sharedPath). */
  private readonly pathAt: string[] = [];

  constructor(interner: TextInterner = new TextInterner()) {
    this.interner = interner;
  }

  text(value: string): string {
    return this.interner.intern(value);
  }

  /**
   * `path` for the segment at `index` of its request, as the same string object as the previous one built at that
   * index when equal: requests repeat their paths (`messages[0].content[7]`), and a segment keeps its path, so a
   * history rebuilt on every request (a reordered one) would otherwise hold a copy per request. One comparison,
   * no hashing.
   */
  sharedPath(index: number, path: string): string {
    const known = this.pathAt[index];
    if (known === path) return known;
    this.pathAt[index] = path;
    return path;
  }

  /** A wire (a block's JSON as sent), interned, with its UTF-8 size and content hash (computed once per wire). */
  wire(json: string): WireStats {
    const known = this.stats.get(json);
    if (known !== undefined) return known;
    const wire = this.interner.intern(json);
    // JSON.parse turned an escape such as \ud800 into a lone surrogate; the wire shows it escaped again. Every
    // UTF-8 encoder silently replaces it with U+FFFD, so it is checked once per distinct wire and reported.
    const stats: WireStats = {
      wire,
      wireId: this.stats.size,
      bytes: utf8Length(wire),
      hash: contentHash(wire),
      loneSurrogate: ESCAPED_LONE_SURROGATE.test(wire),
    };
    this.stats.set(wire, stats);
    return stats;
  }

  get distinctTexts(): number {
    return this.interner.size;
  }
}
