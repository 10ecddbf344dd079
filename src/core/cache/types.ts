// Types shared by the prompt-cache simulations (anthropic.ts, openai.ts), cost, observed-vs-simulated and
// calibration, and by the orchestrator (index.ts) and findings that consume their events.
// Token figures are whole tokens; money is USD. Nothing here ever holds payload text.

import type { CacheMarker, ParsedRequest } from '../model.ts';
import type { ModelPricing } from '../pricing/types.ts';

/**
 * `actual` compares blocks exactly as sent; `optimized` re-runs the same rules with volatile values normalized,
 * JSON keys and the tool list in a deterministic order and, for Anthropic, a breakpoint on every request's tail.
 */
export type Scenario = 'actual' | 'optimized';

/** Where the agent's breakpoint inside an unrecorded setup sits (inferred.ts), and which version of that part. */
export interface SetupBreakpoint {
  version: number;
  tokens: number;
}

export interface SimulationInput {
  requests: readonly ParsedRequest[];
  /** Per request, tokens of each segment, aligned with `request.segments`. */
  segmentTokens: readonly (readonly number[])[];
  /** Per request, hidden tokens outside any segment (message framing, the tool-use system prompt). */
  overheadTokens: readonly number[];
  /**
   * Per request, the part of `overheadTokens[i]` that frames each segment, aligned with `request.segments` (a
   * message's role marker on its first block, a tool call's framing on the call: tokens/framing.ts); the rest
   * precedes every block. So a prefix counts the same in every request that contains it. Absent or empty: all of
   * the overhead precedes every block.
   */
  framingTokens?: readonly (readonly number[])[];
  /** Pricing and cache rules of request `i`'s model; null = unknown model (simulated, never priced). */
  pricingOf: (requestIndex: number) => ModelPricing | null;
  scenario: Scenario;
  /**
   * A breakpoint inferred from recorded usage for a request whose log does not record cache_control (a
   * transcript): placed on the request's tail like a top-level `cache_control`, with this TTL. Null or absent:
   * nothing inferred (see inferred.ts).
   */
  inferredMarkerOf?: (requestIndex: number) => CacheMarker | null;
  /** Which version of the unrecorded setup request i sent (inferred.ts); absent or 0 = the first. */
  setupVersionOf?: (requestIndex: number) => number;
  /**
   * The agent's breakpoint inside request i's unrecorded setup and which version of that part it sent
   * (inferred.ts); absent or null = none inferred.
   */
  setupBreakpointOf?: (requestIndex: number) => SetupBreakpoint | null;
  /** Tokens at the start of request i's prompt cached before the log began (inferred.ts); absent = 0. */
  warmTokensOf?: (requestIndex: number) => number;
}

/**
 * Diagnostics the simulation raises; findings.ts turns them into located findings.
 * - `too_many_breakpoints`: more than 4 breakpoints (automatic included) — the API answers 400.
 * - `automatic_ttl_conflict`: top-level cache_control with a TTL different from the last block's marker — 400.
 * - `automatic_no_eligible_block`: top-level cache_control but no cacheable block to put it on (no caching).
 * - `breakpoint_below_minimum`: a breakpoint whose prefix is shorter than the model's minimum (silently uncached).
 * - `lookback_exceeded`: an earlier entry matches this request's prefix but lies beyond every breakpoint's
 *   20-position lookback window, so it is not read.
 * - `ttl_order`: a 1-hour breakpoint after a 5-minute one (Anthropic requires 1h entries first).
 * - `entry_expired`: the longest matching entry had expired by the request's timestamp.
 * - `explicit_no_breakpoint`: OpenAI explicit mode with no `prompt_cache_breakpoint` — nothing is cached.
 * - `no_breakpoint`: Anthropic request with no breakpoint at all (nothing can be written or read).
 */
export type SimulationEventCode =
  | 'too_many_breakpoints'
  | 'automatic_ttl_conflict'
  | 'automatic_no_eligible_block'
  | 'breakpoint_below_minimum'
  | 'lookback_exceeded'
  | 'ttl_order'
  | 'entry_expired'
  | 'explicit_no_breakpoint'
  | 'no_breakpoint';

export interface SimulationEvent {
  code: SimulationEventCode;
  /** Index into `request.segments` the event is about (a breakpoint's block), or null for the whole request. */
  segment: number | null;
  /** A number that locates or sizes the event: breakpoint count, prefix tokens, positions back; null if none. */
  value: number | null;
}

/** Where a breakpoint sits and what became of it. */
export interface BreakpointInfo {
  /** Index into `request.segments`. */
  segment: number;
  /** Lookback position of that block (`segment.position`). */
  position: number;
  ttl: '5m' | '1h';
  /**
   * `explicit` = marker on the block; `automatic` = Anthropic top-level cache_control / OpenAI implicit mode;
   * `inferred` = not in the log, inferred from its recorded usage (a transcript's rolling tail breakpoint).
   */
  source: 'explicit' | 'automatic' | 'inferred';
  /** Tokens of the prefix that ends at this block, overhead included. */
  prefixTokens: number;
  /** False when the prefix is below the model's minimum: this breakpoint never caches. */
  eligible: boolean;
}

/** One request's simulated cache outcome. `read + write5m + write1h + uncached` = the whole prompt. */
export interface RequestCacheResult {
  requestIndex: number;
  provider: 'anthropic' | 'openai';
  /** Cache-scope key: the priced model id, else the model as written; caches are never shared across keys. */
  cacheScope: string;
  promptTokens: number;
  read: number;
  write5m: number;
  /** Anthropic 1-hour writes; OpenAI GPT-5.6+ writes are reported in `write5m` (one write price). */
  write1h: number;
  uncached: number;
  /** True when any prefix was read from the cache. */
  hit: boolean;
  /** Breakpoints as simulated (after automatic placement), in block order. Empty for OpenAI automatic caching. */
  breakpoints: BreakpointInfo[];
  /** Segment index of the longest cached prefix's last block, or null when nothing was read. */
  hitSegment: number | null;
  /** The request was rejected by the API's rules (e.g. >4 breakpoints): simulated with no cache read or write. */
  rejected: boolean;
  /** OpenAI: whether the request carries a prompt_cache_key (its value is never kept). */
  promptCacheKey: boolean;
  events: SimulationEvent[];
}

export interface SimulationTotals {
  requests: number;
  promptTokens: number;
  read: number;
  write5m: number;
  write1h: number;
  uncached: number;
  hits: number;
  rejected: number;
  promptCacheKeys: number;
}

export interface SimulationResult {
  scenario: Scenario;
  requests: RequestCacheResult[];
  totals: SimulationTotals;
  /**
   * True when at least one request had no timestamp (or none did): such requests are assumed to arrive within
   * every entry's TTL, so no entry expires before them.
   */
  assumedWithinTtl: boolean;
}

/** USD cost of one request under one scenario; null when its model has no pricing entry. */
export interface RequestCost {
  requestIndex: number;
  /** Priced model id, or null when unknown. */
  pricedAs: string | null;
  input: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  output: number | null;
  total: number | null;
  /** Output tokens billed: recorded usage's output when present, else 0. */
  outputTokens: number;
  outputRecorded: boolean;
  /** A long-context rate applied (Haiku 5.5 above 100K prompt tokens, OpenAI above 272K input tokens). */
  longContextTier: boolean;
}

export interface CostTotals {
  /** Sum over priced requests. */
  total: number;
  priced: number;
  /** Requests whose model has no pricing entry: counted, never priced as another model. */
  unpriced: number;
  outputRecorded: number;
}

/** Per request: its simulated cache figures plus the cost, in both scenarios. */
export interface ScenarioReport {
  simulation: SimulationResult;
  costs: RequestCost[];
  totals: CostTotals;
}

/** Where a request's actual figures come from. */
export type CostBasis = 'recorded' | 'simulated';

/** One request's actual cost: the recorded usage priced where the log records it, else the simulation as sent. */
export interface BilledRequest {
  requestIndex: number;
  basis: CostBasis;
  /** The figures the cost was priced from (recorded usage, or the simulation as sent). */
  read: number;
  write5m: number;
  write1h: number;
  uncached: number;
  cost: RequestCost;
  /**
   * Cost with the fixes applied: this request's actual cost minus what the fixes avoid on it (its simulated cost
   * as sent minus its optimized simulated cost); never below 0. Null when the model has no price.
   */
  optimizedCost: number | null;
}

export interface BilledTotals extends CostTotals {
  /** Requests whose actual figures are their recorded usage / the simulation as sent. */
  recordedRequests: number;
  simulatedRequests: number;
  /** Requests sent through a Batch API (ParsedRequest.batch), priced at half the list price. */
  batchRequests: number;
  /** Calls whose recorded usage says they ran in fast mode, priced at its rates where the table has them. */
  fastRequests: number;
}

export interface CostComparison {
  /** The simulation of the requests as sent (with inferred breakpoints where the log records none). */
  actual: ScenarioReport;
  /** The optimized simulation, or the simulation as sent when that is cheaper (see `optimizedRejected`). */
  optimized: ScenarioReport;
  /** What was paid: per request the recorded usage where the log records it, else the simulation as sent. */
  billed: { requests: BilledRequest[]; totals: BilledTotals };
  /** The billed total with the fixes applied (Σ `billed.requests[].optimizedCost`), USD. */
  optimizedCost: number;
  /** What the optimized scenario's simulation cost, even when it was rejected (USD). */
  optimizedScenarioCost: number;
  /** The optimized scenario cost more than the requests as sent, so the requests as sent stand as optimized. */
  optimizedRejected: boolean;
  /** billed − optimizedCost (USD): what the fixes would avoid of what was paid; never negative. */
  potentialSavings: number;
  /** potentialSavings / billed total, 0 when the billed total is 0. */
  savingsFraction: number;
  /** Plain multiplication: this input's totals × `projection.sessions`, labelled as such in every view. */
  projection: { sessions: number; actual: number; optimized: number; savings: number };
}
