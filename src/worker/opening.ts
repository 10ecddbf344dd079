// Which request the view opens on. One growing conversation is biggest at its end, so it opens on the last
// request; a file holding several conversations (a gateway log, side requests between turns) opens on its
// largest request, which is where the tokens go.
import type { ParsedRequest } from '../core/model.ts';

/** True when every request starts with the same first message and none has fewer messages than the one before. */
export function isOneGrowingConversation(requests: readonly ParsedRequest[]): boolean {
  let firstHash: string | null | undefined;
  let previousCount = -1;
  for (const request of requests) {
    const first = request.segments.find((s) => s.messageIndex === 0)?.hash ?? null;
    if (firstHash === undefined) firstHash = first;
    else if (first !== firstHash) return false;
    if (request.messageCount < previousCount) return false;
    previousCount = request.messageCount;
  }
  return true;
}

export function openingRequest(requests: readonly ParsedRequest[], totals: readonly number[]): number {
  if (requests.length === 0) return -1;
  if (isOneGrowingConversation(requests)) return requests.length - 1;
  let best = 0;
  totals.forEach((total, i) => {
    // `>=` keeps the later of equal totals: the later turn is the one that grew.
    if (total >= (totals[best] ?? 0)) best = i;
  });
  return best;
}
