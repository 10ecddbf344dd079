// Worker side of the Findings and Conversations panels: text-free results of the cache analysis.
import type { ConversationLink, Finding } from '../../core/cache/index.ts';
import type { Analysis } from '../../core/analysis/types.ts';
import { costHeadline, type CostHeadline } from '../../core/cache/headline.ts';
import { visibleId, visibleLabel } from '../../core/text/invisible.ts';
import { QueryError, requireSession, type WorkerSession } from '../session.ts';
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
  const headline = costHeadline(cache.cost.billed.totals, (requireSession(session).analysis as Analysis).modelUse);
  return {
    // Finding texts name model ids and paths from the input: controls and bidi characters are shown as ⟨U+XXXX⟩.
    findings: cache.findings.map(shownFinding),
    actualCost: cache.cost.billed.totals.total,
    optimizedCost: cache.cost.optimizedCost,
    // Model ids as the view model carries them: controls and bidi characters as visible ⟨U+XXXX⟩ labels.
    headline: { ...headline, unpricedModels: headline.unpricedModels.map(visibleId) },
    requestsWithUnknownBreakpoints: cache.requestsWithUnknownBreakpoints,
  };
}

/** A finding as the panels show it: message and fix are one line each (written without newlines, so any came from an id). */
function shownFinding(finding: Finding): Finding {
  return {
    ...finding,
    message: visibleId(finding.message),
    fix: visibleId(finding.fix),
    detail: finding.detail === null ? null : visibleLabel(finding.detail),
    segmentPath: finding.segmentPath === null ? null : visibleLabel(finding.segmentPath),
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

export interface ConversationRow {
  /** 0-based request indices of the conversation, in order. */
  requests: number[];
  /** How its first request starts it (`new`, or `same-setup` as another conversation's request). */
  startLink: ConversationLink;
  /** The request a same-setup start shares its setup with, else null. */
  startComparedWith: number | null;
  /** Requests of it that edit its history. */
  edited: number;
}

export interface ConversationWindowAnswer {
  count: number;
  linkCounts: Record<ConversationLink, number>;
  /** The request asked about: its conversation, how it links and to what. */
  selected: { conversation: number; link: ConversationLink; comparedWith: number | null; commonSegments: number | null };
  /** `conversations` holds the rows from this conversation on (a window around the selected one). */
  firstConversation: number;
  conversations: ConversationRow[];
}

const membersBySession = new WeakMap<object, number[][]>();
/** Largest window of conversations one answer carries. */
export const MAX_CONVERSATION_WINDOW = 500;

/** The Conversations panel's window: `{request, rows}` → the conversations around that request's, and the counts. */
export function conversationWindowQuery(session: WorkerSession | null, params: unknown): ConversationWindowAnswer {
  const cache = cacheAnalysisOf(session);
  const { request, rows } = (typeof params === 'object' && params !== null ? params : {}) as { request?: unknown; rows?: unknown };
  const { conversationOf, continues, kind, count } = cache.conversations;
  if (!Number.isInteger(request) || (request as number) < 0 || (request as number) >= conversationOf.length) {
    throw new QueryError('conversation-window: `request` must be a request index.');
  }
  if (!Number.isInteger(rows) || (rows as number) < 1 || (rows as number) > MAX_CONVERSATION_WINDOW) {
    throw new QueryError(`conversation-window: \`rows\` must be an integer from 1 to ${MAX_CONVERSATION_WINDOW}.`);
  }
  let members = membersBySession.get(session!);
  if (members === undefined) {
    members = Array.from({ length: count }, () => []);
    conversationOf.forEach((conversation, r) => members![conversation]?.push(r));
    membersBySession.set(session!, members);
  }
  const r = request as number;
  const selected = conversationOf[r] ?? 0;
  const first = Math.max(0, Math.min(selected - Math.floor((rows as number) / 2), count - (rows as number)));
  const linkCounts: Record<ConversationLink, number> = { continues: 0, edited: 0, 'same-setup': 0, new: 0 };
  for (const link of kind) linkCounts[link]++;
  return {
    count,
    linkCounts,
    selected: { conversation: selected, link: kind[r] ?? 'new', comparedWith: continues[r] ?? null, commonSegments: cache.prefixes[r]?.commonSegments ?? null },
    firstConversation: first,
    conversations: members.slice(first, first + (rows as number)).map((list) => {
      const head = list[0] ?? 0;
      return {
        requests: list,
        startLink: kind[head] ?? 'new',
        startComparedWith: kind[head] === 'same-setup' ? (continues[head] ?? null) : null,
        edited: list.filter((i) => kind[i] === 'edited').length,
      };
    }),
  };
}
