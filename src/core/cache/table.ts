// The cache table: one text-free row per request with its simulated reads, writes and misses, its cost in both
// scenarios and, where the log recorded the provider's usage, the recorded figures beside the simulated ones.
// Shared by the web panel (through a worker query) and any report that lists the cache per request.

import type { ParsedRequest } from '../model.ts';
import { compareObserved, type CacheFigures, type ObservedComparison } from './observed.ts';
import type { MissSummary } from './misses.ts';
import type { CostBasis, CostComparison, RequestCacheResult, SimulationEventCode } from './types.ts';

/** The simulated figures of the row: the request's simulation as sent. */
type SimulatedFigures = Pick<RequestCacheResult, 'provider' | 'promptTokens' | 'read' | 'write5m' | 'write1h' | 'uncached' | 'hit' | 'rejected'>;

export interface CacheTableRow extends SimulatedFigures {
  index: number;
  /** 1-based line (or record number) in its file, and the file's index. */
  line: number;
  file: number;
  /** Priced model id, or null when the model has no pricing entry. */
  pricedAs: string | null;
  breakpoints: number;
  /** Where `cost` comes from: the recorded usage, or the simulation as sent. */
  basis: CostBasis;
  /** USD: the actual cost (recorded where recorded), and with the fixes applied; null for an unpriced model. */
  cost: number | null;
  optimizedCost: number | null;
  /** USD of the simulated figures of this row (the simulation as sent). */
  simulatedCost: number | null;
  /** Codes of the simulation's diagnostics for this request, each once. */
  events: SimulationEventCode[];
  /** Recorded usage figures, when the log has them. */
  recorded: CacheFigures | null;
  /** Whether recorded and simulated agree that the request read the cache; null without recorded usage. */
  readAgrees: boolean | null;
}

export interface CacheTable {
  rows: CacheTableRow[];
  totals: {
    promptTokens: number;
    read: number;
    write5m: number;
    write1h: number;
    uncached: number;
    /** What was paid: recorded usage priced where the log records it, the simulation elsewhere. */
    actualCost: number;
    optimizedCost: number;
    /** The simulation as sent, priced. */
    simulatedCost: number;
    recordedRequests: number;
    simulatedRequests: number;
    batchRequests: number;
    fastRequests: number;
    unpriced: number;
    outputRecorded: number;
    /** OpenAI requests carrying a prompt_cache_key (its value is never kept). */
    promptCacheKeys: number;
  };
  potentialSavings: number;
  savingsFraction: number;
  /** The optimized scenario cost more than the requests as sent, which then stand as optimized. */
  optimizedRejected: boolean;
  /** What the optimized scenario's simulation cost, even when rejected (USD). */
  optimizedScenarioCost: number;
  projection: CostComparison['projection'];
  /** No request had a timestamp, or some lacked one: those are assumed to arrive within every TTL. */
  assumedWithinTtl: boolean;
  observed: Pick<ObservedComparison, 'compared' | 'readAgreements' | 'readAgreementRate' | 'writeAgreements'>;
  /** Misses by cause, the costliest first (misses.ts). */
  misses: MissSummary[];
}

export function cacheTable(requests: readonly ParsedRequest[], cost: CostComparison, misses: readonly MissSummary[] = []): CacheTable {
  const simulation = cost.actual.simulation;
  const observed = compareObserved(requests, simulation);
  const observedByRequest = new Map(observed.rows.map((row) => [row.requestIndex, row]));
  const rows = simulation.requests.map((result, i): CacheTableRow => {
    const request = requests[i]!;
    const observedRow = observedByRequest.get(request.index);
    return {
      index: request.index,
      line: request.line,
      file: request.file,
      provider: result.provider,
      pricedAs: cost.actual.costs[i]?.pricedAs ?? null,
      promptTokens: result.promptTokens,
      read: result.read,
      write5m: result.write5m,
      write1h: result.write1h,
      uncached: result.uncached,
      hit: result.hit,
      rejected: result.rejected,
      breakpoints: result.breakpoints.length,
      basis: cost.billed.requests[i]?.basis ?? 'simulated',
      cost: cost.billed.requests[i]?.cost.total ?? null,
      optimizedCost: cost.billed.requests[i]?.optimizedCost ?? null,
      simulatedCost: cost.actual.costs[i]?.total ?? null,
      events: [...new Set(result.events.map((event) => event.code))],
      recorded: observedRow?.recorded ?? null,
      readAgrees: observedRow?.readAgrees ?? null,
    };
  });
  const totals = simulation.totals;
  return {
    rows,
    totals: {
      promptTokens: totals.promptTokens,
      read: totals.read,
      write5m: totals.write5m,
      write1h: totals.write1h,
      uncached: totals.uncached,
      actualCost: cost.billed.totals.total,
      optimizedCost: cost.optimizedCost,
      simulatedCost: cost.actual.totals.total,
      recordedRequests: cost.billed.totals.recordedRequests,
      simulatedRequests: cost.billed.totals.simulatedRequests,
      batchRequests: cost.billed.totals.batchRequests,
      fastRequests: cost.billed.totals.fastRequests,
      unpriced: cost.billed.totals.unpriced,
      outputRecorded: cost.actual.totals.outputRecorded,
      promptCacheKeys: totals.promptCacheKeys,
    },
    potentialSavings: cost.potentialSavings,
    savingsFraction: cost.savingsFraction,
    optimizedRejected: cost.optimizedRejected,
    optimizedScenarioCost: cost.optimizedScenarioCost,
    projection: cost.projection,
    assumedWithinTtl: simulation.assumedWithinTtl,
    observed: {
      compared: observed.compared,
      readAgreements: observed.readAgreements,
      readAgreementRate: observed.readAgreementRate,
      writeAgreements: observed.writeAgreements,
    },
    misses: misses.map((row) => ({ ...row })),
  };
}
