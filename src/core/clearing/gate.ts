// The decision gate per API: six BUILD criteria with fixed thresholds, DEFER causes (insufficient or unproven
// evidence, incomplete snapshot, Codex transport) and STOP when evidence suffices but a criterion fails.

import type { ApiCode, SupportedApi, Verdict } from './codes.ts';
import type { ApiAccumulator } from './accumulate.ts';
import type { RateModel } from './cost-model.ts';
import type { Criterion } from './record.ts';
import {
  MAX_COST_INCREASE,
  MAX_FALLBACK_SHARE,
  MAX_UNINTENDED_DIFFERENCES,
  MIN_ADMITTING_SHARE,
  MIN_COLD_PRESSURED_BOUNDARIES,
  MIN_CONVERSATIONS,
  MIN_PRESSURED_BOUNDARIES,
  MIN_PRESSURE_REDUCTION,
  RETENTION_COVERAGE_FLOOR,
} from './thresholds.ts';

/** Floating tolerance so a ratio of exactly 1.05 computed as 1.0500000000000003 still passes. */
const EPSILON = 1e-9;

export interface QualificationForApi {
  /** null when the record is missing, stale, or does not name this API. */
  unintendedDifferences: number | null;
  qualified: boolean;
}

export interface GateInputs {
  api: SupportedApi;
  accumulator: ApiAccumulator;
  /** Model at the supplied retrieval rate (pressure criterion). */
  atSuppliedRate: RateModel;
  /** Models at every reported sensitivity (cost criterion). */
  sensitivities: RateModel[];
  qualification: QualificationForApi;
  snapshotIncomplete: boolean;
}

export function criteriaFor(inputs: GateInputs): Criterion[] {
  const a = inputs.accumulator;
  const pressuredConversations = a.pressuredConversations.size;
  const coldConversations = a.coldConversations.size;
  const admittingShare = a.coldPressured > 0 ? a.admittingBoundaries / a.coldPressured : null;
  const reduction = inputs.atSuppliedRate.pressureReduction;
  let maxIncrease: number | null = Number.NEGATIVE_INFINITY;
  for (const model of inputs.sensitivities) {
    for (const view of [model.list, model.quotaShare]) {
      if (view.ratio === null) maxIncrease = null;
      else if (maxIncrease !== null) maxIncrease = Math.max(maxIncrease, view.ratio - 1);
    }
  }
  const differences = inputs.qualification.unintendedDifferences;
  return [
    {
      name: 'pressured_boundaries',
      value: a.pressured,
      threshold: MIN_PRESSURED_BOUNDARIES,
      comparison: 'at_least',
      conversations: pressuredConversations,
      conversationsThreshold: MIN_CONVERSATIONS,
      met: a.pressured >= MIN_PRESSURED_BOUNDARIES && pressuredConversations >= MIN_CONVERSATIONS,
    },
    {
      name: 'cold_pressured_boundaries',
      value: a.coldPressured,
      threshold: MIN_COLD_PRESSURED_BOUNDARIES,
      comparison: 'at_least',
      conversations: coldConversations,
      conversationsThreshold: MIN_CONVERSATIONS,
      met: a.coldPressured >= MIN_COLD_PRESSURED_BOUNDARIES && coldConversations >= MIN_CONVERSATIONS,
    },
    {
      name: 'admitting_share',
      value: admittingShare,
      threshold: MIN_ADMITTING_SHARE,
      comparison: 'at_least',
      met: admittingShare !== null && admittingShare + EPSILON >= MIN_ADMITTING_SHARE,
    },
    {
      name: 'pressure_reduction',
      value: reduction,
      threshold: MIN_PRESSURE_REDUCTION,
      comparison: 'at_least',
      met: reduction + EPSILON >= MIN_PRESSURE_REDUCTION,
    },
    {
      name: 'max_cost_increase',
      value: maxIncrease,
      threshold: MAX_COST_INCREASE,
      comparison: 'at_most',
      met: maxIncrease !== null && maxIncrease <= MAX_COST_INCREASE + EPSILON,
    },
    {
      name: 'unintended_payload_differences',
      value: differences,
      threshold: MAX_UNINTENDED_DIFFERENCES,
      comparison: 'at_most',
      met: differences !== null && differences <= MAX_UNINTENDED_DIFFERENCES,
    },
  ];
}

export function retentionCoverage(a: ApiAccumulator): number | null {
  return a.retention.proven > 0 ? a.retention.matched / a.retention.proven : null;
}

export function verdictFor(inputs: GateInputs, criteria: Criterion[]): { verdict: Verdict; codes: ApiCode[] } {
  const met = (name: Criterion['name']) => criteria.find((criterion) => criterion.name === name)?.met === true;
  const stop = stopCodes(inputs, met);
  const defer = [...evidenceDeferCodes(inputs, met, stop), ...accountingDeferCodes(inputs.accumulator)];
  if (defer.length > 0) return { verdict: 'DEFER', codes: [...defer, ...stop] };
  if (stop.length > 0) return { verdict: 'STOP', codes: stop };
  return { verdict: 'BUILD', codes: [] };
}

type MetTest = (name: Criterion['name']) => boolean;

/** The criteria that, unmet, say the clearing would not pay off. */
function stopCodes(inputs: GateInputs, met: MetTest): ApiCode[] {
  const stop: ApiCode[] = [];
  if (!met('admitting_share')) stop.push('ADMISSION_LOW');
  if (!met('pressure_reduction')) stop.push('PRESSURE_REDUCTION_LOW');
  if (!met('max_cost_increase')) stop.push('COST_INCREASE_HIGH');
  if (inputs.qualification.unintendedDifferences !== null && !met('unintended_payload_differences')) {
    stop.push('PAYLOAD_DIFFERENCES');
  }
  return stop;
}

/** What the evidence lacks for a verdict: snapshot, wire, representativeness, identity, payload qualification. */
function evidenceDeferCodes(inputs: GateInputs, met: MetTest, stop: readonly ApiCode[]): ApiCode[] {
  const a = inputs.accumulator;
  const qualification = inputs.qualification;
  const defer: ApiCode[] = [];
  if (inputs.snapshotIncomplete) defer.push('SNAPSHOT_INCOMPLETE');
  if (inputs.api === 'openai-codex-responses') defer.push('WIRE_UNPROVEN');
  if (!met('pressured_boundaries')) defer.push('REPRESENTATIVENESS_INSUFFICIENT');
  if (!met('cold_pressured_boundaries')) defer.push('COLD_EVIDENCE_INSUFFICIENT');
  // No proven candidate leaves the lower bound empty. Unproven candidates next to proven ones do not block BUILD
  // (the proven lower bound suffices) but do block STOP: they may hold the opportunity the proven ones lack.
  const unproven = a.candidates - a.provenCandidates;
  if (a.candidates > 0 && (a.provenCandidates === 0 || (unproven > 0 && stop.length > 0))) defer.push('IDENTITY_UNPROVEN');
  if (qualification.unintendedDifferences === null || (!qualification.qualified && qualification.unintendedDifferences === 0)) {
    defer.push('PAYLOAD_UNQUALIFIED');
  }
  return defer;
}

/** What the accounting lacks: retention matched and covered, usage recorded rather than estimated. */
function accountingDeferCodes(a: ApiAccumulator): ApiCode[] {
  const defer: ApiCode[] = [];
  // An empty proven set is not missing retention; unmatched and low coverage both defer.
  const coverage = retentionCoverage(a);
  if (coverage !== null && a.retention.matched === 0) defer.push('RETENTION_UNMATCHED');
  else if (coverage !== null && coverage < RETENTION_COVERAGE_FLOOR) defer.push('RETENTION_COVERAGE_LOW');
  if (a.requests > 0 && a.fallbackRequests / a.requests > MAX_FALLBACK_SHARE) defer.push('USAGE_FALLBACK_EXCESSIVE');
  return defer;
}

/** Overall: BUILD only when every supplied API builds; otherwise STOP takes precedence over DEFER. */
export function overallVerdict(verdicts: Verdict[]): Verdict {
  if (verdicts.length > 0 && verdicts.every((verdict) => verdict === 'BUILD')) return 'BUILD';
  if (verdicts.includes('STOP')) return 'STOP';
  return 'DEFER';
}
