// The worker's extension point: named query handlers. A panel that needs data beyond the text-free view declares its
// query in ./queries.ts (params and answer), registers a handler here (one line) and calls it from the page with
// `ctx.ask(name, params)`; the table must hold exactly the queries declared, each answering its declared type.
import type { AnswerOf, QueryName } from './queries.ts';
import type { WorkerSession } from './session.ts';
import { segmentText } from './handlers/segment-text.ts';
import { sectionOf } from './handlers/section.ts';
import { dupesExportQuery, dupesQuery } from './handlers/dupes.ts';
import { cacheTableQuery } from './handlers/cache-table.ts';
import { conversationsQuery, conversationWindowQuery, findingsQuery } from './handlers/findings.ts';
import { diffQuery } from './handlers/diff.ts';
import { clearingQuery } from './handlers/clearing.ts';
import { transcriptSummaryQuery, transcriptsQuery } from './handlers/transcripts.ts';
import { requestRowsQuery } from './handlers/request-rows.ts';
import { clearingRolesQuery } from './handlers/clearing-roles.ts';
import { analysisExportQuery } from './handlers/analysis-export.ts';
import { compareQuery } from './handlers/compare.ts';

/**
 * Answers one query. `session` is null until an input has been analyzed (handlers that work on their own inputs,
 * such as a clearing workspace, can still run). Throw a `QueryError` (./session.ts) for a user-facing failure; the answer must be
 * structured-cloneable and must not carry payload text unless the user asked for content.
 */
export type QueryHandler<N extends QueryName> = (session: WorkerSession | null, params: unknown, signal: AbortSignal) => AnswerOf<N> | Promise<AnswerOf<N>>;

/** Params arrive as `unknown` (a message is only data): each handler checks them and refuses with a QueryError. */
export const QUERY_HANDLERS: { readonly [N in QueryName]: QueryHandler<N> } = {
  'segment-text': segmentText,
  section: sectionOf,
  dupes: dupesQuery,
  'dupes-export': dupesExportQuery,
  'cache-table': cacheTableQuery,
  findings: findingsQuery,
  conversations: conversationsQuery,
  'conversation-window': conversationWindowQuery,
  diff: diffQuery,
  clearing: clearingQuery,
  transcripts: transcriptsQuery,
  'transcript-summary': transcriptSummaryQuery,
  'request-rows': requestRowsQuery,
  'clearing-roles': clearingRolesQuery,
  'analysis-export': analysisExportQuery,
  compare: compareQuery,
};
