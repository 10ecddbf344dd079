// Which request each request follows in time, and where a transcript's history was compacted: shared by the miss
// causes (misses.ts) and the transcript agreement (src/core/transcripts/agreement.ts).
import { threadKey, type ParsedRequest } from '../model.ts';
import type { Conversations } from './conversations.ts';
import { hasUnrecordedSetup } from './inferred.ts';
import type { PrefixComparison } from './prefix.ts';

/** Without compaction records: a request continuing its conversation below this share of its predecessor's prompt. */
export const COMPACTION_SHRINK = 0.9;

/**
 * The request each request follows in time: the one it continues in its conversation, else (a compaction or a
 * restart starts a new conversation) the previous request of the same file and agent thread when that file is a transcript.
 */
export function predecessors(requests: readonly ParsedRequest[], conversations: Conversations): (number | null)[] {
  const lastInFile = new Map<string, number>();
  return requests.map((request, r) => {
    const link = conversations.kind[r];
    const continued = link === 'continues' || link === 'edited' ? (conversations.continues[r] ?? null) : null;
    const previousInFile = lastInFile.get(threadKey(request)) ?? null;
    lastInFile.set(threadKey(request), r);
    if (continued !== null) return continued;
    return hasUnrecordedSetup(request) ? previousInFile : null;
  });
}

export interface CompactionInput {
  requests: readonly ParsedRequest[];
  /** Per request, prompt tokens rebuilt from the log (segments + overhead, without an inferred setup). */
  reconstructed: readonly number[];
  predecessorOf: readonly (number | null)[];
  conversations: Conversations;
  prefixes: readonly (PrefixComparison | null)[];
  /** The request's file records where the agent compacted (formats/registry.ts `recordsCompactions`). */
  compactionsRecorded: (requestIndex: number) => boolean;
}

/**
 * Requests at which the history was compacted. Where the format records compactions, the call after each record
 * (`transcript_compacted`), and nothing else. Elsewhere, a request that continues its predecessor's conversation
 * past the setup (an edited link sharing at least one message block from the start, on the same model) whose
 * reconstructed prompt is below COMPACTION_SHRINK × the predecessor's: independent requests that happen to be
 * paired, or one conversation continued whole, are no compaction.
 */
export function findCompactions(input: CompactionInput): number[] {
  const found: number[] = [];
  input.requests.forEach((request, r) => {
    const recorded = request.notes.some((note) => note.code === 'transcript_compacted');
    if (recorded || (!input.compactionsRecorded(r) && shrankInPlace(input, r))) found.push(r);
  });
  return found;
}

function shrankInPlace(input: CompactionInput, r: number): boolean {
  const before = input.predecessorOf[r] ?? null;
  if (before === null || input.conversations.kind[r] !== 'edited' || input.conversations.continues[r] !== before) return false;
  const request = input.requests[r]!;
  if (request.model !== input.requests[before]!.model) return false;
  const common = input.prefixes[r]?.commonSegments ?? 0;
  if (common === 0 || (request.segments[common - 1]?.messageIndex ?? -1) < 0) return false;
  const previous = input.reconstructed[before] ?? 0;
  return previous > 0 && (input.reconstructed[r] ?? 0) < COMPACTION_SHRINK * previous;
}
