// The page's questions to the worker, by name: what each takes and what it answers. The worker's handler table
// (./handlers.ts) and the page's `ask` are both typed by this map, so a misspelt name, wrong params or a changed
// answer is a compile error on both sides. Types only: nothing here runs.
import type { SegmentTextAnswer, SegmentTextParams } from './handlers/segment-text.ts';
import type { DupesAnswer, DupesExportParams, DupesParams } from './handlers/dupes.ts';
import type { CacheTableAnswer } from './handlers/cache-table.ts';
import type { ConversationsAnswer, ConversationWindowAnswer, FindingsAnswer } from './handlers/findings.ts';
import type { DiffAnswer } from './handlers/diff.ts';
import type { ClearingFile, ClearingParams } from './handlers/clearing.ts';
import type { ClearingOutcome } from '../core/clearing/analyze.ts';
import type { TranscriptsAnswer, TranscriptSummaryAnswer } from './handlers/transcripts.ts';
import type { RequestRowsAnswer } from './handlers/request-rows.ts';
import type { ClearingRolesAnswer } from './handlers/clearing-roles.ts';
import type { CompareAnswer, CompareParams } from './handlers/compare.ts';
import type { AnalysisExportParams } from './handlers/analysis-export.ts';
import type { SectionName } from './view-model.ts';

export interface Queries {
  /** One segment's text, wire JSON and media preview (content on demand). */
  'segment-text': { params: SegmentTextParams; answer: SegmentTextAnswer };
  /** A text-free analysis section as it is. */
  section: { params: { name: SectionName }; answer: unknown };
  dupes: { params: DupesParams | undefined; answer: DupesAnswer };
  'dupes-export': { params: DupesExportParams; answer: string };
  /** `around`/`window`: only the rows around a request; absent: every row. */
  'cache-table': { params: { calibrate?: boolean; around?: number; window?: number } | undefined; answer: CacheTableAnswer };
  findings: { params: undefined; answer: FindingsAnswer };
  conversations: { params: undefined; answer: ConversationsAnswer };
  'conversation-window': { params: { request: number; rows: number }; answer: ConversationWindowAnswer };
  diff: { params: { request: number }; answer: DiffAnswer };
  clearing: { params: ClearingParams; answer: ClearingOutcome };
  transcripts: { params: undefined; answer: TranscriptsAnswer };
  'transcript-summary': { params: undefined; answer: TranscriptSummaryAnswer };
  'request-rows': { params: undefined; answer: RequestRowsAnswer };
  'clearing-roles': { params: { files: ClearingFile[] }; answer: ClearingRolesAnswer };
  /** Two runs before → after (the session on screen, files, a saved record or a folder): the ctxray.compare/1 record. */
  compare: { params: CompareParams; answer: CompareAnswer };
  /** The analysis on screen as `ctxray analyze --json` (`record`) or `--html` (`html`) writes it. */
  'analysis-export': { params: AnalysisExportParams; answer: string };
}

export type QueryName = keyof Queries;
export type ParamsOf<N extends QueryName> = Queries[N]['params'];
export type AnswerOf<N extends QueryName> = Queries[N]['answer'];

/** A query's params as arguments: they may be left out only where the query takes none. */
export type ParamsTuple<N extends QueryName> = undefined extends ParamsOf<N> ? [params?: ParamsOf<N>] : [params: ParamsOf<N>];

/** How the page asks (a panel's `ctx.ask`): the name fixes the params and the answer. */
export type Ask = <N extends QueryName>(name: N, ...params: ParamsTuple<N>) => Promise<AnswerOf<N>>;
