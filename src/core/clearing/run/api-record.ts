// One API's part of the clearing record: the gate's verdict over the modeled rates, the evidence and the
// observed facts it rests on, the informational scenarios.
import { RESULT_CATEGORIES, type ResultCategory, type SupportedApi } from '../codes.ts';
import type { ApiAccumulator, CategoryCounts } from '../accumulate.ts';
import { allUncachedInformational, pressureInputs, rateModel } from '../cost-model.ts';
import { criteriaFor, retentionCoverage, verdictFor, type QualificationForApi } from '../gate.ts';
import type { ApiRecord, Histogram, Stats } from '../record.ts';
import { RETENTION_COVERAGE_FLOOR } from '../thresholds.ts';
import type { QualificationStatus } from './qualification-status.ts';
import { addFields } from '../../sums.ts';

function histogram(values: (number | null)[], bounds: number[]): Histogram {
  const counts = new Array<number>(bounds.length + 1).fill(0);
  let unknown = 0;
  for (const value of values) {
    if (value === null) {
      unknown++;
      continue;
    }
    let bin = bounds.findIndex((bound) => value < bound);
    if (bin === -1) bin = bounds.length;
    counts[bin] = (counts[bin] as number) + 1;
  }
  return { binUpperBounds: bounds, counts, unknown };
}

function stats(values: number[]): Stats {
  if (values.length === 0) return { count: 0, mean: null, min: null, max: null };
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    sum += value;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return { count: values.length, mean: sum / values.length, min, max };
}

/** Request-gap bins in ms: 1 min, 5 min, 10 min, 1 h, 24 h, then longer. */
const GAP_BINS_MS = [60_000, 300_000, 600_000, 3_600_000, 86_400_000];

export function withYield(categories: Record<ResultCategory, CategoryCounts>) {
  const out = {} as Record<ResultCategory, CategoryCounts & { yield: number | null }>;
  for (const category of RESULT_CATEGORIES) {
    const counts = categories[category];
    out[category] = { ...counts, yield: counts.results > 0 ? counts.admitted / counts.results : null };
  }
  return out;
}

export function addCategories(into: Record<ResultCategory, CategoryCounts>, from: Record<ResultCategory, CategoryCounts>): void {
  for (const category of RESULT_CATEGORIES) addFields(into[category], from[category], CATEGORY_COUNTS);
}

const CATEGORY_COUNTS = ['results', 'upperBound', 'lowerBound', 'admitted', 'originalBytes', 'admittedNetTokens'] as const;

function qualificationFor(status: QualificationStatus, api: SupportedApi): QualificationForApi {
  if (!status.ok) return { unintendedDifferences: null, qualified: false };
  const entry = Object.prototype.hasOwnProperty.call(status.apis, api) ? status.apis[api] : undefined;
  if (entry === undefined) return { unintendedDifferences: null, qualified: false };
  return { unintendedDifferences: entry.unintendedDifferences, qualified: entry.qualified };
}

/** What an API's record is drawn from besides its accumulator. */
export interface ApiRecordContext {
  qualification: QualificationStatus;
  retrievalRate: number;
  sensitivities: number[];
  /** Whether a global code leaves the snapshot incomplete (every verdict defers). */
  incomplete: boolean;
}

export function apiRecord(api: SupportedApi, accumulator: ApiAccumulator, context: ApiRecordContext): ApiRecord {
  const { qualification, retrievalRate, sensitivities, incomplete } = context;
  const models = sensitivities.map((rate) => rateModel(accumulator, rate));
  const atSupplied = models.find((model) => model.retrievalRate === retrievalRate) ?? rateModel(accumulator, retrievalRate);
  const gateInputs = {
    api,
    accumulator,
    atSuppliedRate: atSupplied,
    sensitivities: models,
    qualification: qualificationFor(qualification, api),
    snapshotIncomplete: incomplete,
  };
  const criteria = criteriaFor(gateInputs);
  const { verdict, codes } = verdictFor(gateInputs, criteria);
  const pressure = pressureInputs(accumulator, retrievalRate);
  const categories = withYield(accumulator.categories);
  const a = accumulator;
  return {
    api,
    verdict,
    codes,
    criteria,
    evidence: {
      conversations: a.conversations.size,
      boundariesEvaluated: a.boundariesEvaluated,
      pressuredBoundaries: a.pressured,
      coldPressuredBoundaries: a.coldPressured,
      admittingBoundaries: a.admittingBoundaries,
      batches: a.batches,
    },
    usage: {
      requests: a.requests,
      fallbackRequests: a.fallbackRequests,
      fallbackShare: a.requests > 0 ? a.fallbackRequests / a.requests : 0,
      fallbackLabel: 'uncached-character-heuristic',
    },
    identity: { plainTextCandidates: a.candidates, provenCandidates: a.provenCandidates },
    retention: { ...a.retention, coverage: retentionCoverage(a), coverageFloor: RETENTION_COVERAGE_FLOOR },
    categories,
    webYield: categories.web.yield,
    exclusionUnit: 'result-boundary-occurrence',
    exclusions: a.exclusions,
    structuredScanLosses: a.structuredScanLosses,
    escapedBytes: a.admittedEscapedBytes,
    escapedToOriginalRatio: a.admittedOriginalBytes > 0 ? a.admittedEscapedBytes / a.admittedOriginalBytes : null,
    observed: {
      compactions: a.compactions,
      drainTokens: stats(a.drainTokens),
      summaryTokens: stats(a.summaryTokens),
      requestGapMs: histogram(a.gapsMs, GAP_BINS_MS),
    },
    model: {
      modeled: true,
      growthTokens: a.growthTokens,
      triggerTokens: a.route.triggerTokens,
      drainTokens: a.route.drainTokens,
      admittedNetTokens: a.admittedNetTokens,
      expectedRetrievedTokens: a.admittedEscapedTokens,
      offPressure: pressure.offPressure,
      summaryFits: pressure.summaryFits,
      sensitivities: models,
    },
    allUncachedInformational: allUncachedInformational(a, retrievalRate),
    warmInformational: { enabled: false, pressuredBoundaries: a.warmPressured, fullPrefixRewriteTokens: a.warmRewriteTokens },
    upperBoundInformational: {
      boundaries: a.upperBoundBoundaries,
      netTokens: a.upperBoundNetTokens,
      boundariesAtLeastAdmission: a.upperBoundAtLeastAdmission,
    },
  };
}

