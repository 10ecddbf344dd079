// Worker side of the Timeline and Summary panels: the timeline points, the observed-vs-simulated agreement (without
// its per-request rows, which the timeline already carries) and the time-range summary. Numbers, codes and model
// ids only; file names stay on the page, which has them in its view. Computed once per session.
import type { Analysis } from '../../core/analysis/types.ts';
import { agreementOf, summaryOf, timelineOf, type Timeline, type TimeRangeSummary, type TranscriptAgreement } from '../../core/transcripts/index.ts';
import { requireSession, type WorkerSession } from '../session.ts';
import { cacheAnalysisOf } from './cache-analysis.ts';

export interface TranscriptsAnswer {
  timeline: Timeline;
  /** Null when no request carries recorded usage. */
  agreement: Omit<TranscriptAgreement, 'requests'> | null;
  summary: TimeRangeSummary;
}

const answers = new WeakMap<WorkerSession, TranscriptsAnswer>();

export function transcriptsQuery(session: WorkerSession | null): TranscriptsAnswer {
  const current = requireSession(session);
  const known = answers.get(current);
  if (known !== undefined) return known;
  const cache = cacheAnalysisOf(current);
  const analysis: Analysis = { ...(current.analysis as Analysis), cache, conversations: cache.conversations, findings: cache.findings };
  // Both are non-null once the analysis has its cache section, which was just attached.
  const agreement = agreementOf(analysis)!;
  const summary = summaryOf(analysis)!;
  const { requests: _rows, ...withoutRows } = agreement;
  const answer: TranscriptsAnswer = {
    timeline: timelineOf(analysis, agreement),
    agreement: agreement.recordedRequests > 0 ? withoutRows : null,
    summary,
  };
  answers.set(current, answer);
  return answer;
}

export interface TranscriptSummaryAnswer {
  summary: TimeRangeSummary;
  /** Per request, its conversation (what the Summary panel needs of the timeline). */
  conversationOf: number[];
}

/** The Summary panel's part alone: cloning 28,000 timeline points for it cost more than drawing it. */
export function transcriptSummaryQuery(session: WorkerSession | null): TranscriptSummaryAnswer {
  const answer = transcriptsQuery(session);
  return { summary: answer.summary, conversationOf: answer.timeline.points.map((p) => p.conversation) };
}
