// Which block each framing token belongs to. A message's role marker precedes its first block, a tool call's
// framing is the call's own: attributing them there makes the tokens of a prefix depend only on that prefix, so a
// breakpoint's prefix counts the same in every request that contains it (what follows it adds nothing to it).
// What frames the request as a whole (the request base, reply priming) stays before the first block.
import type { ParsedRequest } from '../model.ts';

/**
 * Per segment (aligned with `request.segments`): `own[i]` plus the framing of every message whose first block is
 * segment i. A message with no block (an empty assistant turn) is framed on the next block after it, or on the
 * request's last message block when none follows; with no message block at all it stays unattributed, before the
 * first block (the overhead always holds the whole framing; this says only where it sits).
 */
export function attributeFraming(request: ParsedRequest, messageFraming: readonly number[], own: readonly number[]): number[] {
  const perSegment = request.segments.map((_, i) => own[i] ?? 0);
  let next = 0;
  let last = -1;
  request.segments.forEach((segment, i) => {
    if (segment.messageIndex < 0) return;
    last = i;
    while (next <= segment.messageIndex && next < messageFraming.length) perSegment[i]! += messageFraming[next++] ?? 0;
  });
  if (last >= 0) while (next < messageFraming.length) perSegment[last]! += messageFraming[next++] ?? 0;
  return perSegment;
}

/** Tokens before request's first block: its overhead less the framing its blocks carry (never below 0). */
export function leadingTokens(overhead: number, framing: readonly number[] | undefined): number {
  let attributed = 0;
  for (const tokens of framing ?? []) attributed += tokens;
  return Math.max(0, overhead - attributed);
}
