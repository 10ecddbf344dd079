// The one-line cost headline every view opens with (terminal, HTML report, app): what was paid, on which basis
// (recorded usage or the simulation), and which models could not be priced. One wording for all three views.
import type { BilledTotals } from './types.ts';

export interface CostHeadline {
  /** USD of the priced requests. */
  actual: number;
  /** Requests with a price; 0 with some unpriced means there is no dollar figure at all. */
  priced: number;
  /** `recorded` = every request's recorded usage; `simulated` = none recorded; `mixed` = some of each. */
  basis: 'recorded' | 'simulated' | 'mixed';
  recordedRequests: number;
  simulatedRequests: number;
  /** Requests sent through a Batch API, priced at half the list price. */
  batchRequests: number;
  /** Calls that ran in fast mode (their usage says so), priced at its rates. */
  fastRequests: number;
  /** Model ids (as written) with no price entry, in first-seen order; their requests are in no dollar figure. */
  unpricedModels: string[];
}

/** `models`: each distinct model id of the input and whether it has a price entry (Analysis.modelUse). */
export function costHeadline(totals: BilledTotals, models: readonly { id: string | null; known: boolean }[]): CostHeadline {
  const { recordedRequests, simulatedRequests, batchRequests, fastRequests } = totals;
  const basis = basisOf(recordedRequests, simulatedRequests);
  const unpricedModels = models.filter((model) => !model.known).map((model) => model.id ?? '(no model named)');
  return { actual: totals.total, priced: totals.priced, basis, recordedRequests, simulatedRequests, batchRequests, fastRequests, unpricedModels };
}

function basisOf(recorded: number, simulated: number): CostHeadline['basis'] {
  if (simulated === 0 && recorded > 0) return 'recorded';
  return recorded === 0 ? 'simulated' : 'mixed';
}

const count = new Intl.NumberFormat('en-US');

/**
 * "recorded usage of all 484 requests", "simulated (no recorded usage)", "recorded usage of 18 requests, simulated
 * for 46"; with ", all at Batch API prices (half the list price)" (or how many) when requests of a batch file count,
 * and ", all in fast mode (at its rates)" when calls ran in fast mode.
 */
export function basisText(counts: Pick<CostHeadline, 'recordedRequests' | 'simulatedRequests' | 'batchRequests' | 'fastRequests'>): string {
  const { recordedRequests: recorded, simulatedRequests: simulated, batchRequests: batch, fastRequests: fast } = counts;
  const all = recorded + simulated;
  const batched = batch === 0 ? '' : `, ${batch === all ? 'all' : count.format(batch)} at Batch API prices (half the list price)`;
  const faster = fast === 0 ? '' : `, ${fast === all ? 'all' : count.format(fast)} in fast mode (at its rates)`;
  return basisWords(recorded, simulated) + batched + faster;
}

function basisWords(recorded: number, simulated: number): string {
  const basis = basisOf(recorded, simulated);
  if (basis === 'recorded') return `recorded usage of ${recorded === 1 ? 'its one request' : `all ${count.format(recorded)} requests`}`;
  if (basis === 'simulated') return 'simulated: the log records no usage';
  return `recorded usage of ${count.format(recorded)} request${recorded === 1 ? '' : 's'}, simulated for ${count.format(simulated)}`;
}

/** "not priced: gpt-5.3-codex, foo" or null when every model is priced. */
export function unpricedText(headline: CostHeadline): string | null {
  return headline.unpricedModels.length === 0 ? null : `not priced: ${headline.unpricedModels.join(', ')}`;
}

const usd = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** "$42.5959", or "not priced" when no request could be priced. */
export function actualText(headline: CostHeadline): string {
  return headline.priced === 0 && headline.unpricedModels.length > 0 ? 'not priced' : `$${usd.format(headline.actual)}`;
}

/**
 * The one line every view prints beside "lost to misses" and "optimized", so the two never read as one figure
 * told twice: they count different things and need not agree.
 */
export const SAVINGS_STORY =
  "lost to misses: what each cache miss cost over a read, avoidable or not; savings: what the findings' fixes " +
  'would avoid, misses and never-cached history alike (optimized = cost − savings)';
