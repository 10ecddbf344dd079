// Step-by-step on-arm simulation of one conversation, in context-path order. Requests are priced from their
// observed usage (or the labelled fallback) and charged the tokens cleared results no longer occupy; pre-turn
// boundaries are classified (pressure, cold) and, when a batch may run, admit new lower-bound results within the
// 8 MiB per-conversation budget. Each result counts once; compaction releases pins, not the counted set.

import type { BoundarySkipReason, ExclusionReason } from './codes.ts';
import type { ApiAccumulator, ResultEntry, ViewName } from './accumulate.ts';
import { VIEW_NAMES, viewWeights } from './accumulate.ts';
import type { BoundaryFact, RequestFact } from './journal/replay.ts';
import {
  ADMISSION_TOKENS,
  BATCH_SEPARATION_RUNS,
  CONVERSATION_BUDGET_BYTES,
  PRESSURE_FLOOR,
  PROTECTED_RECENT_STARTS,
  PROTECTED_RECENT_TURNS,
} from './thresholds.ts';

export interface SimBoundary extends BoundaryFact {
  skip: BoundarySkipReason | null;
}

export interface ConversationData {
  ordinal: number;
  /**
   * Runs whose boundary was first seen in another journal: their requests and results were counted there, so here
   * they only keep the context sequence (prefix growth, results in context) without being priced or cleared.
   */
  duplicateRuns: ReadonlySet<number>;
  boundaries: SimBoundary[];
  requests: RequestFact[];
  /** Sorted by pathIndex. */
  results: ResultEntry[];
  contextStart: Int32Array;
}

/** First index in `results` whose pathIndex is ≥ `pathIndex`. */
function lowerBound(results: ResultEntry[], pathIndex: number): number {
  let low = 0;
  let high = results.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((results[mid] as ResultEntry).pathIndex < pathIndex) low = mid + 1;
    else high = mid;
  }
  return low;
}

export function isCold(boundary: BoundaryFact, lifetimeMs: number | null, marginMs: number): boolean {
  return lifetimeMs !== null && boundary.gapMs !== null && boundary.gapMs > lifetimeMs + marginMs;
}

export function isPressured(estimate: number, trigger: number): boolean {
  return estimate >= PRESSURE_FLOOR * trigger && estimate < trigger;
}

export function simulateConversation(conversation: ConversationData, accumulators: Map<string, ApiAccumulator>): void {
  const { contextStart } = conversation;
  const counted = new Set<ResultEntry>();
  // Results cleared and still in context, with running totals so each request reads them in O(1).
  let pinned: ResultEntry[] = [];
  let pinnedBytes = 0;
  let pinnedNet = 0;
  let pinnedEscaped = 0;
  let runsSinceBatch = Number.POSITIVE_INFINITY;
  let previousPrefix = 0;

  const retotal = () => {
    pinnedBytes = 0;
    pinnedNet = 0;
    pinnedEscaped = 0;
    for (const entry of pinned) {
      pinnedBytes += entry.originalBytes;
      pinnedNet += entry.netTokens;
      pinnedEscaped += entry.escapedTokens;
    }
  };
  const release = (pathIndex: number) => {
    const start = contextStart[pathIndex] as number;
    if (pinned.length === 0 || (pinned[0] as ResultEntry).pathIndex >= start) return;
    pinned = pinned.filter((entry) => entry.pathIndex >= start);
    retotal();
  };

  let requestIndex = 0;
  let boundaryIndex = 0;
  const { requests, boundaries } = conversation;
  while (requestIndex < requests.length || boundaryIndex < boundaries.length) {
    const request = requests[requestIndex];
    const boundary = boundaries[boundaryIndex];
    if (request !== undefined && (boundary === undefined || request.pathIndex < boundary.pathIndex)) {
      requestIndex++;
      release(request.pathIndex);
      const prefix = request.usage
        ? request.usage.input + request.usage.cacheRead + request.usage.cacheWrite
        : request.fallbackPrefixTokens;
      const growth = Math.max(0, prefix - previousPrefix);
      previousPrefix = prefix;
      const accumulator = request.api === null ? undefined : accumulators.get(request.api);
      if (accumulator === undefined || conversation.duplicateRuns.has(request.runOrdinal)) continue;
      accumulator.conversations.add(conversation.ordinal);
      accumulator.requests++;
      if (request.usage === null) accumulator.fallbackRequests++;
      accumulator.growthTokens += growth;
      const removed = Math.min(pinnedNet, prefix);
      for (const view of VIEW_NAMES) priceRequest(accumulator, view, request, { prefix, removed, retrievedActive: pinnedEscaped });
    } else if (boundary !== undefined) {
      boundaryIndex++;
      if (boundary.previousRunCompleted) runsSinceBatch++;
      if (boundary.skip !== null) continue;
      const accumulator = accumulators.get(boundary.api as string) as ApiAccumulator;
      release(boundary.pathIndex);
      const admittedAny = evaluateBoundary(accumulator, conversation, boundary, {
        counted,
        pinned,
        pinnedBytes,
        runsSinceBatch,
        pinnedNet,
      });
      if (admittedAny.length > 0) {
        pinned.push(...admittedAny);
        pinned.sort((a, b) => a.pathIndex - b.pathIndex);
        retotal();
        runsSinceBatch = 0;
      }
    }
  }
}

/** A request's prefix tokens, the tokens clearing removes from it, and the retrieved tokens still in context. */
interface PrefixTokens {
  prefix: number;
  removed: number;
  retrievedActive: number;
}

function priceRequest(accumulator: ApiAccumulator, view: ViewName, request: RequestFact, tokens: PrefixTokens): void {
  const { prefix, removed, retrievedActive } = tokens;
  const weights = viewWeights(accumulator.route, view);
  const sums = accumulator.views[view];
  let prefixCost: number;
  let outputCost: number;
  if (request.usage !== null) {
    const usage = request.usage;
    prefixCost = usage.input * weights.input + usage.cacheRead * weights.cacheRead + usage.cacheWrite * weights.cacheWrite;
    outputCost = usage.output * weights.output;
  } else {
    // Labelled fallback: the whole heuristic prefix priced as uncached input.
    prefixCost = request.fallbackPrefixTokens * weights.input;
    outputCost = request.fallbackOutputTokens * weights.output;
  }
  sums.offRequests += prefixCost + outputCost;
  sums.outputCost += outputCost;
  if (prefix <= 0) return; // a zero-input request contributes zero ordinary prefix delta
  const rate = prefixCost / prefix;
  const uncachedRate = Math.max(rate, weights.input);
  sums.prefixCost += prefixCost;
  sums.prefixTokens += prefix;
  sums.sumRate += rate;
  sums.removed -= removed * rate;
  sums.growthUnit += retrievedActive * rate;
  sums.uncachedPrefix += prefix * uncachedRate;
  sums.uncachedRemoved += removed * uncachedRate;
  sums.uncachedSumRate += uncachedRate;
  sums.uncachedGrowthUnit += retrievedActive * uncachedRate;
}

interface BoundaryState {
  counted: Set<ResultEntry>;
  pinned: ResultEntry[];
  pinnedBytes: number;
  runsSinceBatch: number;
  pinnedNet: number;
}

/** Classifies one evaluated boundary and returns the results its batch admits (possibly none). */
function evaluateBoundary(
  accumulator: ApiAccumulator,
  conversation: ConversationData,
  boundary: SimBoundary,
  state: BoundaryState,
): ResultEntry[] {
  const route = accumulator.route;
  accumulator.boundariesEvaluated++;
  accumulator.gapsMs.push(boundary.gapMs);
  const trigger = route.triggerTokens;
  if (!isPressured(boundary.estimate, trigger)) return [];

  const cold = isCold(boundary, route.cacheLifetimeMs, route.cacheMarginMs);
  accumulator.pressured++;
  accumulator.pressuredConversations.add(conversation.ordinal);
  if (cold) {
    accumulator.coldPressured++;
    accumulator.coldConversations.add(conversation.ordinal);
  } else {
    // Warm or unknown-lifetime boundaries would rewrite the full prefix; reported only, never cleared.
    accumulator.warmPressured++;
    accumulator.warmRewriteTokens += boundary.estimate;
  }
  // Effective occupancy: what the on-arm context holds after earlier batches' removals still in context.
  const effective = Math.max(0, boundary.estimate - state.pinnedNet);
  const batchOpen = cold && state.runsSinceBatch >= BATCH_SEPARATION_RUNS && effective >= PRESSURE_FLOOR * trigger;

  const { results, contextStart } = conversation;
  const from = lowerBound(results, contextStart[boundary.pathIndex] as number);
  const admitted: ResultEntry[] = [];
  let budgetUsed = state.pinnedBytes;
  let admittedNet = 0;
  let upperNet = 0;
  const exclude = (reason: ExclusionReason) => accumulator.exclusions[reason]++;

  for (let index = from; index < results.length; index++) {
    const entry = results[index] as ResultEntry;
    if (entry.pathIndex >= boundary.pathIndex) break;
    if (entry.runOrdinal >= boundary.runOrdinal - PROTECTED_RECENT_TURNS) {
      exclude('protected_recent_turns');
      continue;
    }
    if (entry.startOrdinal > boundary.startsBefore - PROTECTED_RECENT_STARTS) {
      exclude('protected_recent_starts');
      continue;
    }
    if (entry.staticExclusion !== null) {
      exclude(entry.staticExclusion);
      continue;
    }
    upperNet += entry.netTokens; // independent per-boundary upper bound: identity and retention ignored
    if (entry.lowerExclusion !== null) {
      exclude(entry.lowerExclusion);
      continue;
    }
    if (state.counted.has(entry)) {
      exclude('already_counted');
      continue;
    }
    if (!cold) {
      exclude('not_cold');
      continue;
    }
    if (!batchOpen) {
      exclude('batch_spacing');
      continue;
    }
    if (budgetUsed + entry.originalBytes > CONVERSATION_BUDGET_BYTES) {
      exclude('budget_exhausted');
      continue;
    }
    budgetUsed += entry.originalBytes;
    admittedNet += entry.netTokens;
    admitted.push(entry);
  }

  accumulator.upperBoundBoundaries++;
  accumulator.upperBoundNetTokens += upperNet;
  if (upperNet >= ADMISSION_TOKENS) accumulator.upperBoundAtLeastAdmission++;
  if (admitted.length === 0) return admitted;

  accumulator.batches++;
  if (admittedNet >= ADMISSION_TOKENS) accumulator.admittingBoundaries++;
  recordAdmitted(accumulator, state, { admitted, occupancyAfter: Math.max(0, effective - admittedNet) });
  return admitted;
}

/** Counts a batch's admitted results; each retrieval round trip re-reads the occupancy left after the batch. */
function recordAdmitted(
  accumulator: ApiAccumulator,
  state: BoundaryState,
  batch: { admitted: readonly ResultEntry[]; occupancyAfter: number },
): void {
  const { admitted, occupancyAfter } = batch;
  for (const entry of admitted) {
    state.counted.add(entry);
    accumulator.admittedNetTokens += entry.netTokens;
    accumulator.admittedEscapedTokens += entry.escapedTokens;
    accumulator.admittedCount++;
    accumulator.admittedSummaryTokens += entry.summaryTokens;
    accumulator.admittedOriginalBytes += entry.originalBytes;
    accumulator.admittedEscapedBytes += entry.escapedBytes;
    accumulator.roundTripPrefixTokens += occupancyAfter;
    const category = accumulator.categories[entry.category];
    category.admitted++;
    category.admittedNetTokens += entry.netTokens;
  }
}
