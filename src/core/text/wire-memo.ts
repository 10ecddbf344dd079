// A number per distinct wire, memoized in arrays indexed by `Segment.wireId` instead of a Map keyed by the wire
// string: the cache analysis asks several such questions for every block of every request (127,500 blocks in the
// 3,000-request bench log), and a string-keyed lookup was a visible share of its time.
import type { Segment } from '../model.ts';

export class WireMemo {
  /** The wire each slot was computed for: a slot is trusted only when it holds the segment's own wire. */
  private readonly wires: (string | undefined)[] = [];
  private readonly values: number[] = [];

  constructor(private readonly compute: (segment: Segment) => number) {}

  get(segment: Segment): number {
    const slot = segment.wireId;
    // Same interned string: a pointer comparison. A segment from another read whose id names a different wire
    // fails the comparison and is computed afresh, so mixing reads costs time, never a wrong value.
    if (this.wires[slot] === segment.wire) return this.values[slot]!;
    const value = this.compute(segment);
    this.wires[slot] = segment.wire;
    this.values[slot] = value;
    return value;
  }
}
