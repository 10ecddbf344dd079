// Observed vs simulated: where a request carries the provider's recorded usage, put the recorded cache reads,
// writes and prompt size beside what the simulation and the token estimate reconstructed, and count how often
// both agree on whether the request read the cache.

import type { ParsedRequest, RecordedUsage } from '../model.ts';
import type { RequestCacheResult, SimulationResult } from './types.ts';

export interface CacheFigures {
  read: number;
  /** 5-minute and 1-hour writes together. */
  write: number;
  /** Prompt tokens neither read from nor written to the cache. */
  uncached: number;
  /** The whole prompt: read + write + uncached. */
  prompt: number;
}

export interface ObservedRow {
  requestIndex: number;
  recorded: CacheFigures;
  simulated: CacheFigures;
  /** Both read something, or neither did. */
  readAgrees: boolean;
  /** Both wrote something, or neither did. */
  writeAgrees: boolean;
  /** Recorded prompt ÷ reconstructed prompt; null when the reconstruction is 0 tokens. */
  promptRatio: number | null;
}

export interface ObservedComparison {
  rows: ObservedRow[];
  /** Requests with recorded usage (a non-zero prompt). */
  compared: number;
  /**
   * Requests whose recorded usage is all zeros (an aborted or failed call the provider did not bill): there is
   * nothing to compare, so they are left out of `rows` and the rates.
   */
  emptyUsage: number;
  readAgreements: number;
  /** readAgreements ÷ compared, null when nothing was compared. */
  readAgreementRate: number | null;
  writeAgreements: number;
}

export function recordedFigures(usage: RecordedUsage): CacheFigures {
  const write = usage.cacheWrite5m + usage.cacheWrite1h;
  return { read: usage.cacheRead, write, uncached: usage.input, prompt: usage.input + usage.cacheRead + write };
}

function simulatedFigures(cache: RequestCacheResult): CacheFigures {
  const write = cache.write5m + cache.write1h;
  return { read: cache.read, write, uncached: cache.uncached, prompt: cache.promptTokens };
}

/** One row per request with recorded usage, in request order. */
export function compareObserved(
  requests: readonly ParsedRequest[],
  simulation: SimulationResult,
): ObservedComparison {
  const rows: ObservedRow[] = [];
  let emptyUsage = 0;
  requests.forEach((request, i) => {
    const cache = simulation.requests[i];
    if (request.recorded === null || cache === undefined) return;
    const recorded = recordedFigures(request.recorded);
    if (recorded.prompt === 0) {
      emptyUsage++;
      return;
    }
    const simulated = simulatedFigures(cache);
    rows.push({
      requestIndex: request.index,
      recorded,
      simulated,
      readAgrees: recorded.read > 0 === simulated.read > 0,
      writeAgrees: recorded.write > 0 === simulated.write > 0,
      promptRatio: simulated.prompt > 0 ? recorded.prompt / simulated.prompt : null,
    });
  });
  const readAgreements = rows.filter((row) => row.readAgrees).length;
  return {
    rows,
    compared: rows.length,
    emptyUsage,
    readAgreements,
    readAgreementRate: rows.length > 0 ? readAgreements / rows.length : null,
    writeAgreements: rows.filter((row) => row.writeAgrees).length,
  };
}
