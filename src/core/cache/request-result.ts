// What the two prompt-cache simulations (anthropic.ts, openai.ts) share about one request: what they are given
// beside the request and its view, the result before the cache is consulted, and where a breakpoint sits.

import type { CacheMarker, ParsedRequest } from '../model.ts';
import type { ModelPricing } from '../pricing/types.ts';
import type { BreakpointInfo, RequestCacheResult } from './types.ts';
import type { RequestView } from './view.ts';

/** One request's simulation call: its model's pricing and cache scope, and what was inferred from recorded usage. */
export interface SimulateCall {
  pricing: ModelPricing | null;
  cacheScope: string;
  /** Anthropic: a tail breakpoint inferred from recorded usage for a log that records no cache_control, or null. */
  inferred?: CacheMarker | null;
  /** Tokens at the start of the prompt already cached before the log began (inferred.ts `warmTokens`). */
  warmTokens?: number;
}

/** The parts of a result that differ by provider before anything is read. */
type ResultStart = Pick<RequestCacheResult, 'provider' | 'breakpoints' | 'rejected' | 'promptCacheKey' | 'events'>;

/** A request's result before its cache is consulted: nothing read or written, the whole prompt uncached. */
export function uncachedResult(request: ParsedRequest, view: RequestView, cacheScope: string, start: ResultStart): RequestCacheResult {
  return {
    requestIndex: request.index,
    provider: start.provider,
    cacheScope,
    promptTokens: view.promptTokens,
    read: 0,
    write5m: 0,
    write1h: 0,
    uncached: view.promptTokens,
    hit: false,
    breakpoints: start.breakpoints,
    hitSegment: null,
    rejected: start.rejected,
    promptCacheKey: start.promptCacheKey,
    events: start.events,
  };
}

/** A breakpoint planned on a block of the view. */
export interface PlannedBreakpoint {
  block: number;
  ttl: CacheMarker['ttl'];
  source: BreakpointInfo['source'];
}

/** Where a planned breakpoint sits and whether its prefix reaches the model's minimum. */
export function breakpointInfo(view: RequestView, planned: PlannedBreakpoint, minTokens: number): BreakpointInfo {
  const prefixTokens = view.cumulative[planned.block] ?? 0;
  return {
    segment: view.segmentOf[planned.block]!,
    position: view.position[planned.block]!,
    ttl: planned.ttl,
    source: planned.source,
    prefixTokens,
    eligible: prefixTokens >= minTokens,
  };
}

/** The cache state of one scope, made on the scope's first request. */
export function stateOf<T>(scopes: Map<string, T>, scope: string, make: () => T): T {
  let state = scopes.get(scope);
  if (state === undefined) {
    state = make();
    scopes.set(scope, state);
  }
  return state;
}
