// Worker side of the Findings and Conversations panels: text-free results of the cache analysis.
import type { ConversationLink, Finding } from '../../core/cache/index.ts';
import type { Analysis } from '../../core/analysis/types.ts';
import { costHeadline, type CostHeadline } from '../../core/cache/headline.ts';
import { requireSession, type WorkerSession } from '../session.ts';
import { cacheAnalysisOf } from './cache-analysis.ts';

export interface FindingsAnswer {
  findings: Finding[];
  /** Actual and optimized cost, so the panel can say why "no findings" holds. */
  actualCost: number;
  optimizedCost: number;
  /** What the headline says: the basis of `actualCost` and the models with no price entry. */
  headline: CostHeadline;
  /** Requests rebuilt from a transcript, whose cache breakpoints the log does not record. */
  requestsWithUnknownBreakpoints: number;
}

export function findingsQuery(session: WorkerSession | null): FindingsAnswer {
  const cache = cacheAnalysisOf(session);
  return {
    findings: cache.findings,
    actualCost: cache.cost.billed.totals.total,
    optimizedCost: cache.cost.optimizedCost,
    headline: costHeadline(cache.cost.billed.totals, (requireSession(session).analysis as Analysis).modelUse),
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
