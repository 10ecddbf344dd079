// Which request each request follows in time, and where a transcript's history was compacted: shared by the miss
// causes (misses.ts) and the transcript agreement (src/core/transcripts/agreement.ts).
import type { ParsedRequest } from '../model.ts';
import type { Conversations } from './conversations.ts';
import { hasUnrecordedSetup } from './inferred.ts';

/** A request whose reconstructed prompt is below this share of its predecessor's is marked as a compaction. */
export const COMPACTION_SHRINK = 0.9;

/**
 * The request each request follows in time: the one it continues in its conversation, else (a compaction or a
 * restart starts a new conversation) the previous request of the same file when that file is a transcript.
 */
export function predecessors(requests: readonly ParsedRequest[], conversations: Conversations): (number | null)[] {
  const lastInFile = new Map<number, number>();
  return requests.map((request, r) => {
    const link = conversations.kind[r];
    const continued = link === 'continues' || link === 'edited' ? (conversations.continues[r] ?? null) : null;
    const previousInFile = lastInFile.get(request.file) ?? null;
    lastInFile.set(request.file, r);
    if (continued !== null) return continued;
    return hasUnrecordedSetup(request) ? previousInFile : null;
  });
}

/** Requests whose reconstructed prompt is below COMPACTION_SHRINK × their predecessor's. */
export function findCompactions(reconstructed: readonly number[], predecessorOf: readonly (number | null)[]): number[] {
  const found: number[] = [];
  predecessorOf.forEach((before, r) => {
    if (before === null) return;
    const previous = reconstructed[before] ?? 0;
    if (previous > 0 && (reconstructed[r] ?? 0) < COMPACTION_SHRINK * previous) found.push(r);
  });
  return found;
}

