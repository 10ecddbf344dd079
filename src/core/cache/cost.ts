// Prices each request's cache figures with the request's own model: the simulation as sent and optimized, and
// the usage the provider recorded. What was paid (`billed`) is the recorded usage wherever the log records it and
// the simulation as sent elsewhere; the optimized figure is what was paid minus what the fixes would avoid.
// An unknown model yields a null cost and is counted, never priced as some other model. Output tokens come from
// recorded usage when the log has it, else 0 (the request body alone does not say how long the answer was), and
// every total says how many requests had it.

import { providerOf, recordedPromptTokens, type ParsedRequest } from '../model.ts';
import { effectivePricing } from '../pricing/lookup.ts';
import type { PricedModel } from '../pricing/table.ts';
import type { ModelPricing } from '../pricing/types.ts';
import { simulateCache } from './simulate.ts';
import type {
  BilledRequest,
  BilledTotals,
  CostComparison,
  CostTotals,
  RequestCacheResult,
  RequestCost,
  Scenario,
  ScenarioReport,
  SimulationInput,
} from './types.ts';

/** The projection multiplies this input's cost by this many sessions (a plain multiplication, not a model). */
export const PROJECTED_SESSIONS = 1000;

const PER_MILLION = 1_000_000;

function hasTiers(pricing: ModelPricing): pricing is PricedModel {
  return 'longPromptTier' in pricing && 'longContextModifier' in pricing;
}

/**
 * The cache-read price in effect when the request was sent: a documented earlier price applies to requests
 * timestamped before its change date (Sonnet 5.5 reads cost $0.20 until 2026-10-07); undated requests get today's.
 */
function cacheReadAt(pricing: ModelPricing, rates: ModelPricing, timestamp: number | null): number {
  if (!hasTiers(pricing) || pricing.cacheReadBefore === null || timestamp === null) return rates.cacheRead;
  if (rates !== pricing) return rates.cacheRead; // a long-prompt tier has its own read price
  return timestamp < Date.parse(`${pricing.cacheReadBefore.date}T00:00:00Z`) ? pricing.cacheReadBefore.cacheRead : rates.cacheRead;
}

/** What pricing reads of a request (the folder's usage pass prices calls it never rebuilt as requests). */
export type PricedRequest = Pick<ParsedRequest, 'index' | 'format' | 'model' | 'timestamp' | 'recorded'> & { options: Pick<ParsedRequest['options'], 'promptCacheKey'> };

/** Cost of one request from its simulated cache figures; null fields when the model has no pricing entry. */
export function priceRequest(request: PricedRequest, cache: PricedFigures, pricing: ModelPricing | null): RequestCost {
  const outputTokens = request.recorded?.output ?? 0;
  const outputRecorded = request.recorded !== null;
  if (pricing === null) {
    return { requestIndex: request.index, pricedAs: null, input: null, cacheRead: null, cacheWrite: null, output: null, total: null, outputTokens, outputRecorded, longContextTier: false };
  }
  // Haiku 5.5 above 100K prompt tokens and OpenAI's 272K modifier reprice the whole request, output included.
  // The rates are read off the tier, not copied: this runs for every call of a folder, twice per miss.
  const rates = hasTiers(pricing) ? effectivePricing(pricing, cache.promptTokens) : pricing;
  // A write price that does not exist (no separate write fee) bills the tokens as plain input.
  const write5mRate = rates.cacheWrite5m ?? rates.input;
  const write1hRate = rates.cacheWrite1h ?? write5mRate;
  const input = (cache.uncached * rates.input) / PER_MILLION;
  const cacheRead = (cache.read * cacheReadAt(pricing, rates, request.timestamp)) / PER_MILLION;
  const cacheWrite = (cache.write5m * write5mRate + cache.write1h * write1hRate) / PER_MILLION;
  const output = (outputTokens * rates.output) / PER_MILLION;
  return {
    requestIndex: request.index,
    pricedAs: pricing.id,
    input,
    cacheRead,
    cacheWrite,
    output,
    total: input + cacheRead + cacheWrite + output,
    outputTokens,
    outputRecorded,
    longContextTier: rates !== pricing,
  };
}

/** The cache split of one prompt: read + write5m + write1h + uncached = the prompt. */
export interface BilledFigures {
  read: number;
  write5m: number;
  write1h: number;
  uncached: number;
}

type PricedFigures = BilledFigures & Pick<RequestCacheResult, 'promptTokens'>;

/** Total USD of one request with this cache split (output included), or null when its model has no price. */
export function priceFigures(request: PricedRequest, figures: BilledFigures, pricing: ModelPricing | null): number | null {
  const { read, write5m, write1h, uncached } = figures;
  return priceRequest(request, { read, write5m, write1h, uncached, promptTokens: read + write5m + write1h + uncached }, pricing).total;
}

/**
 * What the provider's recorded usage costs at the request's model prices, priced exactly as the simulation's
 * figures are, so recorded and simulated cost compare line for line. Null without recorded usage.
 */
export function priceRecorded(request: PricedRequest, pricing: ModelPricing | null): RequestCost | null {
  const usage = request.recorded;
  if (usage === null) return null;
  return priceRequest(request, recordedAsCache(request, pricing), pricing);
}

/** Recorded usage in the simulation's shape (no breakpoints, no events), so both are priced by one function. */
function recordedAsCache(request: PricedRequest, pricing: ModelPricing | null): RequestCacheResult {
  const usage = request.recorded!;
  return {
    requestIndex: request.index,
    provider: providerOf(request.format),
    cacheScope: pricing?.id ?? request.model ?? '',
    promptTokens: recordedPromptTokens(usage),
    read: usage.cacheRead,
    write5m: usage.cacheWrite5m,
    write1h: usage.cacheWrite1h,
    uncached: usage.input,
    hit: usage.cacheRead > 0,
    breakpoints: [],
    hitSegment: null,
    rejected: false,
    promptCacheKey: request.options.promptCacheKey !== null,
    events: [],
  };
}

function totalsOf(costs: readonly RequestCost[]): CostTotals {
  const totals: CostTotals = { total: 0, priced: 0, unpriced: 0, outputRecorded: 0 };
  for (const cost of costs) {
    if (cost.total === null) totals.unpriced++;
    else {
      totals.total += cost.total;
      totals.priced++;
    }
    if (cost.outputRecorded) totals.outputRecorded++;
  }
  return totals;
}

/** One scenario: simulation, then every request priced with its own model. */
export function scenarioReport(input: Omit<SimulationInput, 'scenario'>, scenario: Scenario): ScenarioReport {
  const simulation = simulateCache({ ...input, scenario });
  const costs = simulation.requests.map((cache, i) => priceRequest(input.requests[i]!, cache, input.pricingOf(i)));
  return { simulation, costs, totals: totalsOf(costs) };
}

/**
 * What was paid, what the fixes would avoid of it, and the labelled projection to 1,000 sessions.
 *
 * Per request the actual figures are its recorded usage when the log records it (an all-zero record is an
 * aborted call: it billed nothing but its output), else the simulation as sent. The fixes are priced by the
 * simulation: on each request they avoid (cost as sent − cost optimized), and the optimized cost is the actual one
 * minus that, never below 0. Where the optimized scenario would cost more than the requests as sent (a tail
 * breakpoint whose write nothing later reads, as on one-off requests), the requests as sent already are the
 * cheaper choice: nothing is avoided, and `optimizedScenarioCost` keeps what the rejected scenario would have cost.
 */
export function costScenarios(input: Omit<SimulationInput, 'scenario'>): CostComparison {
  const actual = scenarioReport(input, 'actual');
  const simulated = scenarioReport(input, 'optimized');
  const rejected = simulated.totals.total > actual.totals.total;
  const optimized = rejected ? actual : simulated;
  const billed = billedRequests(input, actual, optimized);
  const totals = billedTotals(billed, input.requests);
  const optimizedCost = billed.reduce((sum, row) => sum + (row.optimizedCost ?? 0), 0);
  const potentialSavings = Math.max(0, totals.total - optimizedCost);
  return {
    actual,
    optimized,
    billed: { requests: billed, totals },
    optimizedCost,
    optimizedScenarioCost: simulated.totals.total,
    optimizedRejected: rejected,
    potentialSavings,
    savingsFraction: totals.total > 0 ? potentialSavings / totals.total : 0,
    projection: {
      sessions: PROJECTED_SESSIONS,
      actual: totals.total * PROJECTED_SESSIONS,
      optimized: optimizedCost * PROJECTED_SESSIONS,
      savings: potentialSavings * PROJECTED_SESSIONS,
    },
  };
}

function billedRequests(
  input: Omit<SimulationInput, 'scenario'>,
  actual: ScenarioReport,
  optimized: ScenarioReport,
): BilledRequest[] {
  return input.requests.map((request, i): BilledRequest => {
    const asSent = actual.simulation.requests[i]!;
    const asSentCost = actual.costs[i]!;
    const recorded = request.recorded === null ? null : recordedAsCache(request, input.pricingOf(i));
    const figures = recorded ?? asSent;
    const cost = recorded === null ? asSentCost : priceRequest(request, recorded, input.pricingOf(i));
    const optimizedTotal = optimized.costs[i]?.total ?? null;
    const avoided = asSentCost.total === null || optimizedTotal === null ? 0 : asSentCost.total - optimizedTotal;
    return {
      requestIndex: request.index,
      basis: recorded === null ? 'simulated' : 'recorded',
      read: figures.read,
      write5m: figures.write5m,
      write1h: figures.write1h,
      uncached: figures.uncached,
      cost,
      optimizedCost: cost.total === null ? null : Math.max(0, cost.total - avoided),
    };
  });
}

function billedTotals(rows: readonly BilledRequest[], requests: readonly Pick<ParsedRequest, 'batch' | 'recorded'>[]): BilledTotals {
  const recordedRequests = rows.filter((row) => row.basis === 'recorded').length;
  const batchRequests = requests.filter((request) => request.batch === true).length;
  const fastRequests = requests.filter((request) => request.recorded?.speed === 'fast').length;
  return { ...totalsOf(rows.map((row) => row.cost)), recordedRequests, simulatedRequests: rows.length - recordedRequests, batchRequests, fastRequests };
}

/**
 * The 1-hour TTL what-if folded into the optimized figure: where idle gaps emptied 5-minute entries and 1-hour
 * writes would have cost less than the re-writes (misses.ts `ttlWhatIf`), the optimized cost drops by the net.
 */
export function withTtlWhatIf(cost: CostComparison, whatIf: { saved: number; extraWrites: number } | null): CostComparison {
  const net = whatIf === null ? 0 : whatIf.saved - whatIf.extraWrites;
  if (net <= 0) return cost;
  const optimizedCost = Math.max(0, cost.optimizedCost - net);
  const potentialSavings = Math.max(0, cost.billed.totals.total - optimizedCost);
  const total = cost.billed.totals.total;
  return {
    ...cost,
    optimizedCost,
    potentialSavings,
    savingsFraction: total > 0 ? potentialSavings / total : 0,
    projection: { ...cost.projection, optimized: optimizedCost * PROJECTED_SESSIONS, savings: potentialSavings * PROJECTED_SESSIONS },
  };
}
