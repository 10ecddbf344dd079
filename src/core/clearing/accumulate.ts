// Per-API accumulators filled by the step-by-step simulation, and the compact per-result facts it walks.
// Everything here is a count, a token or byte total, or a weighted sum: no text, names or identities.

import { EXCLUSION_REASONS, RESULT_CATEGORIES, type ExclusionReason, type ResultCategory } from './codes.ts';
import type { Route, Weights } from './inputs.ts';

/** One tool result reduced to what the simulation needs (its text is gone by now). */
export interface ResultEntry {
  pathIndex: number;
  runOrdinal: number;
  startOrdinal: number;
  category: ResultCategory;
  /** Why it can never be cleared, for both bounds (kind, excluded name, no net saving); null when it could be. */
  staticExclusion: ExclusionReason | null;
  /** Why it is outside the lower bound (identity, retention, policy); null when lower-bound eligible. */
  lowerExclusion: ExclusionReason | null;
  netTokens: number;
  originalBytes: number;
  /** Heuristic tokens of the JSON-escaped text a retrieval returns. */
  escapedTokens: number;
  escapedBytes: number;
  /** Tokens the summarizer would still see of it: min(tokens, 500). */
  summaryTokens: number;
}

export type ViewName = 'list' | 'quotaShare';
export const VIEW_NAMES: readonly ViewName[] = ['list', 'quotaShare'];

/** Per-token weights of one view: list = price per million / 1e6; quotaShare = quota weight / quota budget. */
export function viewWeights(route: Route, view: ViewName): Weights {
  const source = view === 'list' ? route.prices : route.quota;
  const divisor = view === 'list' ? 1_000_000 : route.quotaBudget;
  return {
    input: source.input / divisor,
    cacheRead: source.cacheRead / divisor,
    cacheWrite: source.cacheWrite / divisor,
    output: source.output / divisor,
  };
}

/** Sums for one view over the API's requests; all costs in that view's units. */
export interface ViewSums {
  offRequests: number;
  outputCost: number;
  /** Σ prefix cost and Σ prefix tokens over requests with a prefix: the cohort's token-weighted blend. */
  prefixCost: number;
  prefixTokens: number;
  /** Σ per-request blended rate (requests with a prefix): multiplies the per-request retained extra. */
  sumRate: number;
  /** Σ −min(removed, prefix) × rate: the signed removed component. */
  removed: number;
  /** Σ retrieved-history tokens still in context × rate, per unit retrieval rate. */
  growthUnit: number;
  /** The same sums at max(rate, input weight), for the all-uncached informational scenario. */
  uncachedPrefix: number;
  uncachedRemoved: number;
  uncachedSumRate: number;
  uncachedGrowthUnit: number;
}

function emptyView(): ViewSums {
  return {
    offRequests: 0,
    outputCost: 0,
    prefixCost: 0,
    prefixTokens: 0,
    sumRate: 0,
    removed: 0,
    growthUnit: 0,
    uncachedPrefix: 0,
    uncachedRemoved: 0,
    uncachedSumRate: 0,
    uncachedGrowthUnit: 0,
  };
}

export interface CategoryCounts {
  results: number;
  upperBound: number;
  lowerBound: number;
  admitted: number;
  originalBytes: number;
  admittedNetTokens: number;
}

export function emptyCategories(): Record<ResultCategory, CategoryCounts> {
  const out = {} as Record<ResultCategory, CategoryCounts>;
  for (const category of RESULT_CATEGORIES) {
    out[category] = { results: 0, upperBound: 0, lowerBound: 0, admitted: 0, originalBytes: 0, admittedNetTokens: 0 };
  }
  return out;
}

export interface RetentionCounts {
  /** Unique proven-identity plain-text results (protected ones included). */
  proven: number;
  matched: number;
  exact: number;
  redacted: number;
  truncated: number;
  missing: number;
  notFinalized: number;
  tombstoned: number;
  integrityMismatch: number;
}

export interface ApiAccumulator {
  route: Route;
  conversations: Set<number>;
  boundariesEvaluated: number;
  pressured: number;
  pressuredConversations: Set<number>;
  coldPressured: number;
  coldConversations: Set<number>;
  admittingBoundaries: number;
  batches: number;
  warmPressured: number;
  warmRewriteTokens: number;
  upperBoundBoundaries: number;
  upperBoundNetTokens: number;
  upperBoundAtLeastAdmission: number;
  /** S, R and the admitted set's sizes. */
  admittedNetTokens: number;
  admittedEscapedTokens: number;
  admittedCount: number;
  admittedSummaryTokens: number;
  admittedOriginalBytes: number;
  admittedEscapedBytes: number;
  /** Σ occupancy after clearing at each admitted result's boundary: the prefix of its retrieval round trip. */
  roundTripPrefixTokens: number;
  growthTokens: number;
  requests: number;
  fallbackRequests: number;
  views: Record<ViewName, ViewSums>;
  candidates: number;
  provenCandidates: number;
  retention: RetentionCounts;
  structuredScanLosses: number;
  categories: Record<ResultCategory, CategoryCounts>;
  exclusions: Record<ExclusionReason, number>;
  compactions: number;
  drainTokens: number[];
  summaryTokens: number[];
  gapsMs: (number | null)[];
}

export function newAccumulator(route: Route): ApiAccumulator {
  const exclusions = {} as Record<ExclusionReason, number>;
  for (const reason of EXCLUSION_REASONS) exclusions[reason] = 0;
  return {
    route,
    conversations: new Set(),
    boundariesEvaluated: 0,
    pressured: 0,
    pressuredConversations: new Set(),
    coldPressured: 0,
    coldConversations: new Set(),
    admittingBoundaries: 0,
    batches: 0,
    warmPressured: 0,
    warmRewriteTokens: 0,
    upperBoundBoundaries: 0,
    upperBoundNetTokens: 0,
    upperBoundAtLeastAdmission: 0,
    admittedNetTokens: 0,
    admittedEscapedTokens: 0,
    admittedCount: 0,
    admittedSummaryTokens: 0,
    admittedOriginalBytes: 0,
    admittedEscapedBytes: 0,
    roundTripPrefixTokens: 0,
    growthTokens: 0,
    requests: 0,
    fallbackRequests: 0,
    views: { list: emptyView(), quotaShare: emptyView() },
    candidates: 0,
    provenCandidates: 0,
    retention: {
      proven: 0,
      matched: 0,
      exact: 0,
      redacted: 0,
      truncated: 0,
      missing: 0,
      notFinalized: 0,
      tombstoned: 0,
      integrityMismatch: 0,
    },
    structuredScanLosses: 0,
    categories: emptyCategories(),
    exclusions,
    compactions: 0,
    drainTokens: [],
    summaryTokens: [],
    gapsMs: [],
  };
}
