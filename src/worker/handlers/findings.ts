// Worker side of the Findings and Conversations panels: text-free results of the cache analysis.
import type { ConversationLink, Finding } from '../../core/cache/index.ts';
import type { WorkerSession } from '../session.ts';
import { cacheAnalysisOf } from './cache-analysis.ts';

export interface FindingsAnswer {
  findings: Finding[];
  /** Actual and optimized cost, so the panel can say why "no findings" holds. */
  actualCost: number;
  optimizedCost: number;
  /** Requests rebuilt from a transcript, whose cache breakpoints the log does not record. */
  requestsWithUnknownBreakpoints: number;
}

export function findingsQuery(session: WorkerSession | null): FindingsAnswer {
  const cache = cacheAnalysisOf(session);
  return {
    findings: cache.findings,
    actualCost: cache.cost.actual.totals.total,
    optimizedCost: cache.cost.optimized.totals.total,
    requestsWithUnknownBreakpoints: cache.requestsWithUnknownBreakpoints,
  };
}

export interface ConversationsAnswer {
  count: number;
  conversationOf: number[];
  /** The request each one is compared with (null for a new conversation with nothing to compare). */
  comparedWith: (number | null)[];
  link: ConversationLink[];
  /** Blocks shared from the start with `comparedWith`, or null. */
  commonSegments: (number | null)[];
}

export function conversationsQuery(session: WorkerSession | null): ConversationsAnswer {
  const cache = cacheAnalysisOf(session);
  return {
    count: cache.conversations.count,
    conversationOf: cache.conversations.conversationOf,
    comparedWith: cache.conversations.continues,
    link: cache.conversations.kind,
    commonSegments: cache.prefixes.map((prefix) => prefix?.commonSegments ?? null),
  };
}
