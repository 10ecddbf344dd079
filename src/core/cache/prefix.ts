// Where two requests stop sharing a prefix, in the provider's serialization order (tools → system → messages for
// Anthropic, tools → messages / instructions → input for OpenAI), and the full segment diff between them.
import type { Segment } from '../model.ts';
import { leadingTokens } from '../tokens/framing.ts';
import { myersDiff, type DiffHunk } from './myers.ts';
import type { SimulationInput } from './types.ts';

/**
 * Tokens of request r's first `count` segments and everything before them: the overhead not attributed to a
 * block, then each block with its own framing (as the simulation's views count it), so the same prefix counts the
 * same in every request that contains it.
 */
export function prefixTokensThrough(
  input: Pick<SimulationInput, 'segmentTokens' | 'overheadTokens' | 'framingTokens'>,
  r: number,
  count: number,
): number {
  const tokens = input.segmentTokens[r] ?? [];
  const framing = input.framingTokens?.[r] ?? [];
  let total = leadingTokens(input.overheadTokens[r] ?? 0, framing);
  for (let i = 0; i < count; i++) total += (tokens[i] ?? 0) + (framing[i] ?? 0);
  return total;
}

/** How a segment is identified when comparing: `wire` as sent (actual) or a normalized form (optimized). */
export type SegmentIdentity = (segment: Segment) => string;

export const wireIdentity: SegmentIdentity = (segment) => segment.wire;

/** Length of the longest common prefix of two lists, items compared with `===`. */
export function commonPrefixLength<T>(a: readonly T[], b: readonly T[]): number {
  const limit = Math.min(a.length, b.length);
  let length = 0;
  while (length < limit && a[length] === b[length]) length++;
  return length;
}

export interface PrefixComparison {
  /** Segments the two requests share from the start. */
  commonSegments: number;
  /**
   * Index in the newer request's segments of the first block that differs from the older request, or null
   * when the newer request only appends (it holds every older segment, in order, at the start). Equals
   * `newer.length` when the newer request is the older one with its tail dropped.
   */
  firstChange: number | null;
  /** Whether the older request holds segments the newer one dropped or replaced (the prefix was broken). */
  prefixBroken: boolean;
}

export function comparePrefix(
  older: readonly Segment[],
  newer: readonly Segment[],
  identity: SegmentIdentity = wireIdentity,
): PrefixComparison {
  const common = commonPrefixLength(older.map(identity), newer.map(identity));
  const prefixBroken = common < older.length;
  return {
    commonSegments: common,
    firstChange: prefixBroken ? common : null,
    prefixBroken,
  };
}

/** Myers diff of two requests' whole segment lists, so one moved or edited block reads as a local change. */
export function diffSegments(
  older: readonly Segment[],
  newer: readonly Segment[],
  identity: SegmentIdentity = wireIdentity,
): DiffHunk[] {
  return myersDiff(older.map(identity), newer.map(identity));
}
