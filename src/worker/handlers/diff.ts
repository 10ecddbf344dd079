// Worker side of the Diff panel: the Myers diff of a request's blocks against the request it is compared with.
// Text-free: hunks are index ranges; the page names blocks from its own view and fetches text only on request.
import type { ConversationLink, DiffHunk } from '../../core/cache/index.ts';
import { diffSegments } from '../../core/cache/prefix.ts';
import { isCoarse } from '../../core/cache/myers.ts';
import { QueryError, requireSession, type WorkerSession } from '../session.ts';
import { cacheAnalysisOf } from './cache-analysis.ts';

export interface DiffAnswer {
  request: number;
  /** The older request, or null when this one starts a conversation with nothing to compare. */
  compared: number | null;
  link: ConversationLink;
  commonSegments: number;
  /** Index in the request of the first block that differs; null when it only appends. */
  firstChange: number | null;
  hunks: DiffHunk[];
  /** The blocks differ by more edits than the diff's work budget finds: the hunks are one coarse replacement. */
  coarse: boolean;
}

export function diffQuery(session: WorkerSession | null, params: unknown): DiffAnswer {
  const { requests } = requireSession(session);
  const index = typeof params === 'object' && params !== null ? (params as { request?: unknown }).request : undefined;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= requests.length) {
    throw new QueryError(`diff needs a request index between 0 and ${requests.length - 1}.`);
  }
  const cache = cacheAnalysisOf(session);
  const compared = cache.conversations.continues[index] ?? null;
  const link = cache.conversations.kind[index] ?? 'new';
  if (compared === null) return { request: index, compared, link, commonSegments: 0, firstChange: null, hunks: [], coarse: false };
  const prefix = cache.prefixes[index];
  const hunks = diffSegments(requests[compared]!.segments, requests[index]!.segments);
  return {
    request: index,
    compared,
    link,
    commonSegments: prefix?.commonSegments ?? 0,
    firstChange: prefix?.firstChange ?? null,
    hunks,
    coarse: isCoarse(hunks),
  };
}
