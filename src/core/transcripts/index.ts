// Transcripts' observed-vs-simulated agreement and the time-range summary, from a finished Analysis, and their
// parts of the JSON record (numbers, codes, model ids and file indices only).
import type { Analysis } from '../analysis/types.ts';
import type { SessionRow } from './sessions.ts';
import { reconstructedTokens } from '../cache/unrecorded-setup.ts';
import { transcriptAgreement, type TranscriptAgreement } from './agreement.ts';
import { sessionParts, sessionTableOf, type SessionPart, type SessionTable } from './sessions.ts';
import { SUMMARY_TOP, timeRangeSummary, type TimeRangeSummary } from './summary.ts';

/** Null when the analysis has no cache section (it is what the comparisons are made against). */
export function agreementOf(analysis: Analysis): TranscriptAgreement | null {
  const cache = analysis.cache;
  if (cache === undefined) return null;
  return transcriptAgreement({
    ...cacheFigures(analysis, cache),
    segmentTokens: analysis.segmentTokens,
    compactions: cache.compactions,
    optimized: cache.cost.optimized,
  });
}

/** `top`: how many conversations and finding codes it lists (a folder keeps every code of each session). */
export function summaryOf(analysis: Analysis, top: number = SUMMARY_TOP): TimeRangeSummary | null {
  const cache = analysis.cache;
  if (cache === undefined) return null;
  return timeRangeSummary({ ...cacheFigures(analysis, cache), findings: cache.findings }, top);
}

/** What the agreement and the summary both read: the requests, their tokens and prices, the conversations. */
function cacheFigures(analysis: Analysis, cache: NonNullable<Analysis['cache']>) {
  return {
    requests: analysis.requests,
    reconstructed: analysis.tokens.map(reconstructedTokens),
    conversations: cache.conversations,
    pricingOf: (i: number) => analysis.models[i]?.pricing ?? null,
    actual: cache.cost.actual,
  };
}

/** Fractions in the record are rounded to 4 decimals (0.01%); token counts are whole already. */
const round4 = (value: number | null): number | null => (value === null ? null : Math.round(value * 10_000) / 10_000);

/** The record's `transcripts` section, or undefined when no request carries recorded usage. */
export function transcriptsRecord(analysis: Analysis): unknown {
  const agreement = agreementOf(analysis);
  if (agreement === null || agreement.recordedRequests === 0) return undefined;
  const stats = (s: TranscriptAgreement['promptErrors']) => ({ count: s.count, median: round4(s.median), p90: round4(s.p90) });
  return {
    recordedRequests: agreement.recordedRequests,
    setupUnrecordedRequests: agreement.setupUnrecordedRequests,
    promptError: stats(agreement.promptErrors),
    reconstructedOnlyError: stats(agreement.reconstructedOnlyErrors),
    redaction: { ...agreement.redaction, exact: false },
    cache: {
      actual: { ...agreement.cacheActual, readAgreementRate: round4(agreement.cacheActual.readAgreementRate) },
      optimized: { ...agreement.cacheOptimized, readAgreementRate: round4(agreement.cacheOptimized.readAgreementRate) },
    },
    models: agreement.models.map((m) => ({
      ...m,
      recordedReadShare: round4(m.recordedReadShare),
      simulatedReadShare: round4(m.simulatedReadShare),
      optimizedReadShare: round4(m.optimizedReadShare),
    })),
    cost: agreement.cost,
    ttl: { ...agreement.ttl, agreementRate: round4(agreement.ttl.agreementRate) },
    compactions: agreement.compactions,
    conversations: agreement.conversations.map((c) => ({ ...c, errors: stats(c.errors) })),
    requests: agreement.requests.map((row) => ({ ...row, absError: round4(row.absError) })),
  };
}

/**
 * Each session's row and per-day figures (sessions.ts), with the misses the cache analysis priced: what a folder
 * read one session at a time keeps of each session (`sessionTableOf` joins them into the tables).
 */
export function sessionPartsOf(analysis: Analysis): SessionPart[] {
  const misses = analysis.cache?.misses;
  return sessionParts(analysis, misses === undefined ? null : (r) => misses.requests[r] ?? null);
}

/** Sessions, projects and days of the input. */
export function sessionsOf(analysis: Analysis): SessionTable {
  return sessionTableOf(sessionPartsOf(analysis));
}

/** A sessions[] row as the record writes it: the hit rate rounded like the record's other fractions. */
export const sessionRecordRow = (row: SessionRow): SessionRow => ({ ...row, hitRate: round4(row.hitRate) });

/** The record's `sessions` section: one row per session, the costliest first; hit rates rounded like the rest. */
export function sessionsRecord(analysis: Analysis): unknown {
  if (analysis.requests.length === 0) return undefined;
  return sessionsOf(analysis).sessions.map(sessionRecordRow);
}

/** The record's `summary` section (present with the cache analysis). */
export function summaryRecord(analysis: Analysis): unknown {
  return summaryOf(analysis) ?? undefined;
}

export type { TranscriptAgreement, RequestAgreement, ConversationAgreement } from './agreement.ts';
export type { TimeRangeSummary } from './summary.ts';
export type { SessionRow, SessionTable, SessionPart, GroupRow } from './sessions.ts';
export { sessionTableOf } from './sessions.ts';
export { timelineOf, type Timeline, type TimelinePoint } from './timeline.ts';
