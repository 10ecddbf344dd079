// The output record `ctxray.clearing/1` (JSON Schema: docs/clearing/clearing.schema.json). It holds only fixed
// codes, enums, counts, byte and token totals, histograms and modeled numbers.

import type {
  ApiCode,
  BoundarySkipReason,
  ExclusionReason,
  GlobalCode,
  InputErrorReason,
  InputName,
  JournalSkipReason,
  ResultCategory,
  SupportedApi,
  Verdict,
} from './codes.ts';
import type { CategoryCounts, RetentionCounts } from './accumulate.ts';
import type { AllUncachedInformational, PressureInputs, RateModel } from './cost-model.ts';

export const CLEARING_SCHEMA = 'ctxray.clearing/1';

export type CriterionName =
  | 'pressured_boundaries'
  | 'cold_pressured_boundaries'
  | 'admitting_share'
  | 'pressure_reduction'
  | 'max_cost_increase'
  | 'unintended_payload_differences';

export interface Criterion {
  name: CriterionName;
  /** Measured value; null when it cannot be measured (no denominator, unbounded cost, no qualification). */
  value: number | null;
  threshold: number;
  /** How value compares with threshold. */
  comparison: 'at_least' | 'at_most';
  met: boolean;
  /** For the two representativeness criteria: distinct logical conversations and their floor. */
  conversations?: number;
  conversationsThreshold?: number;
}

export interface Histogram {
  /** Upper bounds (exclusive) of each bin in the stated unit; the last bin is open-ended. */
  binUpperBounds: number[];
  counts: number[];
  unknown: number;
}

export interface Stats {
  count: number;
  mean: number | null;
  min: number | null;
  max: number | null;
}

export interface ApiRecord {
  api: SupportedApi;
  verdict: Verdict;
  codes: ApiCode[];
  criteria: Criterion[];
  evidence: {
    conversations: number;
    boundariesEvaluated: number;
    pressuredBoundaries: number;
    coldPressuredBoundaries: number;
    admittingBoundaries: number;
    batches: number;
  };
  usage: {
    requests: number;
    fallbackRequests: number;
    fallbackShare: number;
    fallbackLabel: 'uncached-character-heuristic';
  };
  identity: { plainTextCandidates: number; provenCandidates: number };
  retention: RetentionCounts & { coverage: number | null; coverageFloor: number };
  categories: Record<ResultCategory, CategoryCounts & { yield: number | null }>;
  webYield: number | null;
  exclusionUnit: 'result-boundary-occurrence';
  exclusions: Record<ExclusionReason, number>;
  structuredScanLosses: number;
  escapedBytes: number;
  escapedToOriginalRatio: number | null;
  observed: {
    compactions: number;
    drainTokens: Stats;
    summaryTokens: Stats;
    requestGapMs: Histogram;
  };
  /** The pressure model's inputs as modeled (the credited savings per cycle stay out), and each sensitivity. */
  model: { modeled: true } & Omit<PressureInputs, 'savingsPerCycle'> & { sensitivities: RateModel[] };
  allUncachedInformational: AllUncachedInformational;
  warmInformational: { enabled: false; pressuredBoundaries: number; fullPrefixRewriteTokens: number };
  upperBoundInformational: {
    boundaries: number;
    netTokens: number;
    boundariesAtLeastAdmission: number;
  };
}

export interface ClearingRecord {
  schema: typeof CLEARING_SCHEMA;
  verdict: Verdict;
  complete: boolean;
  codes: GlobalCode[];
  inputErrors: { input: InputName; reason: InputErrorReason; at: string }[];
  qualification: { status: 'current' | 'unqualified'; piAiVersion: string | null };
  journals: {
    selected: number;
    contributing: number;
    skippedJournals: Record<JournalSkipReason, number>;
  };
  boundaries: {
    total: number;
    evaluated: number;
    skippedBoundaries: Record<BoundarySkipReason, number>;
  };
  sidecar: { rows: number; checkpointedConversations: number; keepAllConversations: number };
  assumptions: {
    modeledNotObserved: true;
    retrievalRate: number;
    retrievalRateSource: 'default-pending-lookup-pilot' | 'supplied';
    retrievalSensitivities: number[];
    budgetBytesPerConversation: number;
    batchSeparationCompletedRuns: number;
    protectedRecentTurns: number;
    protectedRecentToolStarts: number;
    pressureFloor: number;
    placeholderTokens: number;
    retrievalCallOutputTokens: number;
    estimate: 'latest-valid-usage-plus-trailing-heuristic';
    qualityImprovementInferred: false;
    /** Requests of all routed APIs and how many were priced by the labelled fallback (each API gates its own). */
    usage: { requests: number; fallbackRequests: number; fallbackShare: number; fallbackLabel: 'uncached-character-heuristic' };
  };
  categories: Record<ResultCategory, CategoryCounts & { yield: number | null }>;
  webYield: number | null;
  apis: ApiRecord[];
}
