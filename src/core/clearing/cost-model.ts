// The continuous whole-cycle model per API: compaction pressure off and on, and modeled total cost in the
// list-price and quota-share views with signed components (retained, removed, summary, retrieval) that sum to
// on − off. All figures are modeled from frozen continuations, never observed savings.

import type { ApiAccumulator, ViewName } from './accumulate.ts';
import { viewWeights } from './accumulate.ts';
import { RETRIEVAL_CALL_OUTPUT_TOKENS } from './thresholds.ts';

export interface CostComponents {
  retained: number;
  removed: number;
  /** Summary-cycle change and enlarged summaries, reported apart and summed into `summary`. */
  summaryCycles: number;
  summaryEnlarged: number;
  summary: number;
  retrieval: number;
}

export interface ViewCost {
  off: number;
  on: number;
  /** on / off; null when off is 0 and on is positive (unbounded); 1 for 0 / 0. */
  ratio: number | null;
  /** Signed components; retained + removed + summary + retrieval = on − off. */
  delta: CostComponents;
}

export interface RateModel {
  retrievalRate: number;
  onPressure: number;
  pressureReduction: number;
  list: ViewCost;
  quotaShare: ViewCost;
}

export interface PressureInputs {
  growthTokens: number;
  triggerTokens: number;
  drainTokens: number;
  admittedNetTokens: number;
  expectedRetrievedTokens: number;
  offPressure: number;
  /** Whether the enlarged summary fits within the trigger; if not, no pressure reduction is credited. */
  summaryFits: boolean;
  /** Savings per cycle credited (S/C, or 0 when not credited). */
  savingsPerCycle: number;
}

export function costRatio(off: number, on: number): number | null {
  if (off > 0) return on / off;
  return on > 0 ? null : 1;
}

/** Off pressure C = G/(T−P); savings per cycle S/C; on pressure (G + r·R)/(T − P + S/C). */
export function pressureInputs(accumulator: ApiAccumulator, retrievalRate: number): PressureInputs {
  const route = accumulator.route;
  const G = accumulator.growthTokens;
  const distance = route.triggerTokens - route.drainTokens;
  const offPressure = G / distance;
  const S = accumulator.admittedNetTokens;
  const R = accumulator.admittedEscapedTokens;
  let savingsPerCycle = offPressure > 0 ? S / offPressure : 0;
  let summaryFits = true;
  if (savingsPerCycle > 0) {
    const onCycles = (G + retrievalRate * R) / (distance + savingsPerCycle);
    const clearedPerCycle = onCycles > 0 ? accumulator.admittedSummaryTokens / onCycles : 0;
    summaryFits = route.summaryInputTokens + savingsPerCycle + clearedPerCycle <= route.triggerTokens;
    if (!summaryFits) savingsPerCycle = 0;
  }
  return {
    growthTokens: G,
    triggerTokens: route.triggerTokens,
    drainTokens: route.drainTokens,
    admittedNetTokens: S,
    expectedRetrievedTokens: R,
    offPressure,
    summaryFits,
    savingsPerCycle,
  };
}

function cycleCost(accumulator: ApiAccumulator, view: ViewName, pricing: { allUncached: boolean }): number {
  const route = accumulator.route;
  const weights = viewWeights(route, view);
  const recacheWeight = pricing.allUncached ? Math.max(weights.cacheWrite, weights.input) : weights.cacheWrite;
  const distance = route.triggerTokens - route.drainTokens;
  return route.summaryInputTokens * weights.input + route.summaryOutputTokens * weights.output + distance * recacheWeight;
}

/** One API at one retrieval rate: the pressure it works under without and with clearing. */
interface Scenario {
  accumulator: ApiAccumulator;
  rate: number;
  pressure: PressureInputs;
  onPressure: number;
}

function scenarioAt(accumulator: ApiAccumulator, rate: number): Scenario {
  const pressure = pressureInputs(accumulator, rate);
  return { accumulator, rate, pressure, onPressure: onPressureOf(pressure, rate) };
}

function viewCost(scenario: Scenario, view: ViewName): ViewCost {
  const { accumulator, rate, pressure, onPressure } = scenario;
  const weights = viewWeights(accumulator.route, view);
  const sums = accumulator.views[view];
  const perCycle = cycleCost(accumulator, view, { allUncached: false });
  const off = sums.offRequests + pressure.offPressure * perCycle;
  const blend = sums.prefixTokens > 0 ? sums.prefixCost / sums.prefixTokens : weights.input;
  const retainedPerRequest = pressure.savingsPerCycle / 2; // S/(2C) extra native context per request

  const retained = retainedPerRequest * sums.sumRate;
  const removed = sums.removed;
  const summaryCycles = (onPressure - pressure.offPressure) * perCycle;
  const summaryEnlarged = (onPressure * pressure.savingsPerCycle + accumulator.admittedSummaryTokens) * weights.input;
  const summary = summaryCycles + summaryEnlarged;
  const roundTripOutput = accumulator.admittedCount * RETRIEVAL_CALL_OUTPUT_TOKENS * weights.output;
  const retrieval = rate * (accumulator.roundTripPrefixTokens * blend + roundTripOutput + sums.growthUnit);
  const on = off + retained + removed + summary + retrieval;
  return {
    off,
    on,
    ratio: costRatio(off, on),
    delta: { retained, removed, summaryCycles, summaryEnlarged, summary, retrieval },
  };
}

export interface UncachedCost {
  off: number;
  on: number;
  ratio: number | null;
}

/**
 * Non-gating upper-bound scenario: every remaining on-arm prefix, retrieval round trip and summary drain
 * recache is priced at no less than uncached input (a higher observed write-premium blend is kept).
 */
function uncachedViewCost(scenario: Scenario, view: ViewName): UncachedCost {
  const { accumulator, rate, pressure, onPressure } = scenario;
  const weights = viewWeights(accumulator.route, view);
  const sums = accumulator.views[view];
  const off = sums.offRequests + pressure.offPressure * cycleCost(accumulator, view, { allUncached: false });
  const blend = Math.max(sums.prefixTokens > 0 ? sums.prefixCost / sums.prefixTokens : weights.input, weights.input);
  const retainedPerRequest = pressure.savingsPerCycle / 2;
  const prefixes =
    sums.uncachedPrefix - sums.uncachedRemoved + retainedPerRequest * sums.uncachedSumRate + rate * sums.uncachedGrowthUnit;
  const roundTrips =
    rate *
    (accumulator.roundTripPrefixTokens * blend + accumulator.admittedCount * RETRIEVAL_CALL_OUTPUT_TOKENS * weights.output);
  const summaries =
    onPressure * cycleCost(accumulator, view, { allUncached: true }) +
    (onPressure * pressure.savingsPerCycle + accumulator.admittedSummaryTokens) * weights.input;
  const on = sums.outputCost + prefixes + roundTrips + summaries;
  return { off, on, ratio: costRatio(off, on) };
}

function onPressureOf(pressure: PressureInputs, retrievalRate: number): number {
  const distance = pressure.triggerTokens - pressure.drainTokens;
  return (pressure.growthTokens + retrievalRate * pressure.expectedRetrievedTokens) / (distance + pressure.savingsPerCycle);
}

export function rateModel(accumulator: ApiAccumulator, retrievalRate: number): RateModel {
  const scenario = scenarioAt(accumulator, retrievalRate);
  const { pressure, onPressure } = scenario;
  const pressureReduction = pressure.offPressure > 0 ? 1 - onPressure / pressure.offPressure : 0;
  return {
    retrievalRate,
    onPressure,
    pressureReduction,
    list: viewCost(scenario, 'list'),
    quotaShare: viewCost(scenario, 'quotaShare'),
  };
}

export interface AllUncachedInformational {
  gating: false;
  retrievalRate: number;
  list: UncachedCost;
  quotaShare: UncachedCost;
}

export function allUncachedInformational(accumulator: ApiAccumulator, retrievalRate: number): AllUncachedInformational {
  const scenario = scenarioAt(accumulator, retrievalRate);
  return {
    gating: false,
    retrievalRate,
    list: uncachedViewCost(scenario, 'list'),
    quotaShare: uncachedViewCost(scenario, 'quotaShare'),
  };
}
