// Anthropic prompt caching, simulated request by request under the documented rules:
// - at most 4 breakpoints (a top-level cache_control takes one); more is the API's 400, so the request is
//   simulated as rejected: nothing read, nothing written, the whole prompt counted uncached;
// - entries are written only at breakpoints, keyed by the cumulative prefix, per model, shared by content;
// - a breakpoint reads the longest earlier entry within 20 lookback positions (itself counted as the first);
// - a breakpoint whose prefix is below the model's minimum never caches (no error);
// - mixed TTL billing: A = highest hit, B = highest 1h breakpoint after A, C = last breakpoint;
//   read A, 1h writes B−A, 5m writes C−B;
// - with timestamps, entries expire TTL after the start of the last request that wrote or read them;
// - a breakpoint inferred inside an unrecorded setup (the agent's system-prompt breakpoint, view.setupBreakpoint)
//   keeps that part as an entry of its own, written and read beside the tail breakpoint.

import type { CacheMarker, ParsedRequest } from '../model.ts';
import { breakpointInfo, stateOf, uncachedResult, type PlannedBreakpoint, type SimulateCall } from './request-result.ts';
import type { BreakpointInfo, RequestCacheResult, Scenario, SimulationEvent } from './types.ts';
import type { RequestView } from './view.ts';

export const MAX_BREAKPOINTS = 4;
export const LOOKBACK_POSITIONS = 20;
/** Minimum used when the model has no pricing entry: the most common Claude minimum. */
export const UNKNOWN_MODEL_MIN_TOKENS = 1024;

const TTL_MS: Record<CacheMarker['ttl'], number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

interface Entry {
  /** Epoch ms after which the entry is gone; Infinity when it was written or read without a timestamp. */
  expiresAt: number;
  ttlMs: number;
  /** Tokens of the prefix as written (the least any writer counted, its framing included). */
  tokens: number;
}

interface Plan {
  breakpoints: PlannedBreakpoint[];
  rejected: boolean;
  events: SimulationEvent[];
}

/** One request's simulation past its plan: the breakpoints that can cache, its model's entries, its time. */
interface Step {
  view: RequestView;
  usable: readonly PlannedBreakpoint[];
  entries: ScopeEntries;
  now: number | null;
  events: SimulationEvent[];
}

const newScopeEntries = (): ScopeEntries => new ScopeEntries();

/** Cache state of every model seen so far; one instance per simulation run. */
export class AnthropicCache {
  private readonly scopes = new Map<string, ScopeEntries>();

  constructor(private readonly scenario: Scenario) {}

  simulate(request: ParsedRequest, view: RequestView, call: SimulateCall): RequestCacheResult {
    const inferred = call.inferred ?? null;
    const plan = planBreakpoints(request, view, this.scenario, inferred);
    const events = plan.events;
    const minTokens = call.pricing?.minCacheableTokens ?? UNKNOWN_MODEL_MIN_TOKENS;
    const breakpoints = plan.breakpoints.map((bp) => breakpointInfo(view, bp, minTokens));
    const result = uncachedResult(request, view, call.cacheScope, { provider: 'anthropic', breakpoints, rejected: plan.rejected, promptCacheKey: false, events });
    if (plan.rejected) return result;

    breakpoints.forEach((bp) => {
      if (!bp.eligible) events.push({ code: 'breakpoint_below_minimum', segment: bp.segment, value: bp.prefixTokens });
    });
    const usable = plan.breakpoints.filter((_, i) => breakpoints[i]!.eligible);
    if (usable.length === 0) return result;

    const step: Step = { view, usable, entries: stateOf(this.scopes, call.cacheScope, newScopeEntries), now: request.timestamp, events };
    const hit = findHit(step);
    // The agent's breakpoint inside the unrecorded setup goes with the inferred tail breakpoint (same TTL).
    const setupPart = inferred !== null && view.setupBreakpoint !== null && view.setupBreakpoint.tokens >= minTokens ? view.setupBreakpoint : null;
    const setupEntry = setupPart === null ? undefined : step.entries.get(setupPart.key);
    const setupRead = setupPart !== null && isAlive(setupEntry, step.now) ? Math.min(setupPart.tokens, setupEntry.tokens) : 0;
    reportMissedEntries(step, hit);
    // A read is at most what was written: this request's own framing beyond the writer's is not in the entry.
    const warm = Math.min(call.warmTokens ?? 0, view.promptTokens);
    const readTokens =
      hit.block === null ? Math.max(warm, setupRead) : Math.min(view.cumulative[hit.block]!, step.entries.get(view.keys[hit.block]!)?.tokens ?? Infinity);
    bill(result, step, hit, readTokens);

    // Refresh what was read, then store every breakpoint's prefix (a later request may read any of them).
    const { entries, now } = step;
    if (hit.block !== null) entries.touch(view.keys[hit.block]!, hit.ttlMs, now, readTokens);
    for (const bp of usable) entries.touch(view.keys[bp.block]!, TTL_MS[bp.ttl], now, view.cumulative[bp.block]!);
    if (setupPart !== null) entries.touch(setupPart.key, TTL_MS[inferred!.ttl], now, setupPart.tokens);
    return result;
  }

}

/** The events of an entry the request could not read: the longest one within a window had expired, or lay beyond every window. */
function reportMissedEntries(step: Step, hit: Hit): void {
  const { view, events } = step;
  if (hit.expiredBlock !== null && (hit.block === null || hit.expiredBlock > hit.block)) {
    events.push({ code: 'entry_expired', segment: view.segmentOf[hit.expiredBlock]!, value: null });
  }
  const missed = entryBeyondLookback(step, hit.block);
  if (missed !== null) {
    events.push({ code: 'lookback_exceeded', segment: view.segmentOf[missed.block]!, value: missed.distance });
  }
}

/**
 * Mixed TTL billing: A = the read, B = the highest 1h breakpoint after A, C = the last breakpoint; read A, 1h
 * writes B − A, 5m writes C − B, the rest uncached.
 */
function bill(result: RequestCacheResult, step: Step, hit: Hit, readTokens: number): void {
  const { view } = step;
  let lastTokens = 0;
  let last1hTokens = 0;
  for (const bp of step.usable) {
    const tokens = view.cumulative[bp.block]!;
    lastTokens = Math.max(lastTokens, tokens);
    if (bp.ttl === '1h' && tokens > readTokens) last1hTokens = Math.max(last1hTokens, tokens);
  }
  const b = Math.max(readTokens, last1hTokens);
  const c = Math.max(b, lastTokens);
  result.read = readTokens;
  result.write1h = b - readTokens;
  result.write5m = c - b;
  result.uncached = view.promptTokens - c;
  result.hit = readTokens > 0;
  result.hitSegment = hit.block === null ? null : view.segmentOf[hit.block]!;
}

/**
 * Breakpoints in block order, after placing the automatic one. Explicit markers on blocks stay where they are;
 * the optimized scenario always adds a tail breakpoint (keeping at most 3 explicit ones so the request stays
 * within the limit) and resolves a TTL conflict in favour of the explicit marker. `inferred` is a tail breakpoint
 * inferred from recorded usage for a log that records no cache_control: it stands in for the top-level marker in
 * both scenarios (and sets the optimized scenario's TTL).
 */
export function planBreakpoints(
  request: ParsedRequest,
  view: RequestView,
  scenario: Scenario,
  inferred: CacheMarker | null = null,
): Plan {
  const events: SimulationEvent[] = [];
  const explicit: PlannedBreakpoint[] = [];
  for (let block = 0; block < view.segmentOf.length; block++) {
    const marker = markerOf(request, view, block);
    if (marker !== null) explicit.push({ block, ttl: marker.ttl, source: 'explicit' });
  }
  const sentMarker = request.topLevelCacheMarker ?? inferred;
  const automaticMarker: CacheMarker | null = scenario === 'optimized' ? (sentMarker ?? { ttl: '5m' }) : sentMarker;
  const source: BreakpointInfo['source'] = request.topLevelCacheMarker === null && inferred !== null ? 'inferred' : 'automatic';
  const placed = automaticMarker === null ? NOT_PLACED : placeAutomatic(request, view, scenario, { ttl: automaticMarker.ttl, source });
  if (placed.event !== null) events.push(placed.event);
  const kept = scenario === 'optimized' ? explicit.slice(0, placed.automatic !== null && explicit.length >= MAX_BREAKPOINTS ? MAX_BREAKPOINTS - 1 : MAX_BREAKPOINTS) : explicit;
  const breakpoints = placed.automatic === null ? kept : [...kept, placed.automatic].sort((a, b) => a.block - b.block);
  let rejected = placed.rejected;
  if (breakpoints.length > MAX_BREAKPOINTS) {
    events.push({ code: 'too_many_breakpoints', segment: null, value: breakpoints.length });
    rejected = true;
  }
  if (breakpoints.length === 0 && automaticMarker === null) {
    events.push({ code: 'no_breakpoint', segment: null, value: null });
  }
  checkTtlOrder(breakpoints, view, events);
  return { breakpoints, rejected, events };
}

const markerOf = (request: ParsedRequest, view: RequestView, block: number) => request.segments[view.segmentOf[block]!]!.cacheMarker;

interface Placement {
  automatic: PlannedBreakpoint | null;
  rejected: boolean;
  event: SimulationEvent | null;
}

const NOT_PLACED: Placement = { automatic: null, rejected: false, event: null };

/**
 * Where the top-level (or inferred, or the optimized scenario's) marker goes: the last cacheable block. Same TTL
 * as an explicit marker on that block: it adds nothing; another TTL there is the API's 400 as sent.
 */
function placeAutomatic(request: ParsedRequest, view: RequestView, scenario: Scenario, wanted: Omit<PlannedBreakpoint, 'block'>): Placement {
  const target = lastCacheableBlock(request, view);
  if (target === null) return { ...NOT_PLACED, event: { code: 'automatic_no_eligible_block', segment: null, value: null } };
  const existing = markerOf(request, view, target);
  if (existing === null) return { automatic: { block: target, ttl: wanted.ttl, source: wanted.source }, rejected: false, event: null };
  if (existing.ttl !== wanted.ttl && scenario === 'actual') {
    return { automatic: null, rejected: true, event: { code: 'automatic_ttl_conflict', segment: view.segmentOf[target]!, value: null } };
  }
  return NOT_PLACED;
}

/** Anthropic requires 1-hour entries before 5-minute ones: the first 1h breakpoint after a 5m one is an event. */
function checkTtlOrder(breakpoints: readonly PlannedBreakpoint[], view: RequestView, events: SimulationEvent[]): void {
  let seen5m = false;
  for (const bp of breakpoints) {
    if (bp.ttl === '5m') seen5m = true;
    else if (seen5m) {
      events.push({ code: 'ttl_order', segment: view.segmentOf[bp.block]!, value: null });
      break;
    }
  }
}

/** The last block that may carry a marker (not thinking, not empty text), walking back from the end. */
function lastCacheableBlock(request: ParsedRequest, view: RequestView): number | null {
  for (let i = view.segmentOf.length - 1; i >= 0; i--) if (request.segments[view.segmentOf[i]!]!.cacheable) return i;
  return null;
}

function isAlive(entry: Entry | undefined, now: number | null): entry is Entry {
  return entry !== undefined && (now === null || now < entry.expiresAt);
}

/** The cache entries of one model, keyed by prefix. */
class ScopeEntries {
  private readonly entries = new Map<number, Entry>();

  get(key: number): Entry | undefined {
    return this.entries.get(key);
  }

  /** Writes or refreshes the entry of `key` as of `now`, for `ttlMs`, holding `tokens`. */
  touch(key: number, ttlMs: number, now: number | null, tokens: number): void {
    const expiresAt = now === null ? Infinity : now + ttlMs;
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.entries.set(key, { expiresAt, ttlMs, tokens });
      return;
    }
    entry.ttlMs = Math.max(entry.ttlMs, ttlMs);
    entry.tokens = Math.min(entry.tokens, tokens);
    // A hit refreshes the entry for its full TTL; a lapsed entry written again starts over.
    entry.expiresAt = now === null ? Infinity : Math.max(isAlive(entry, now) ? entry.expiresAt : 0, now + entry.ttlMs);
  }
}

interface Hit {
  block: number | null;
  ttlMs: number;
  /** Longest block whose entry exists within a window but had expired, or null. */
  expiredBlock: number | null;
}

/** The longest live entry any breakpoint's 20-position lookback window reaches. */
function findHit(step: Step): Hit {
  const { view, usable: breakpoints, entries, now } = step;
  let best: number | null = null;
  let bestTtl = 0;
  let expired: number | null = null;
  for (const bp of breakpoints) {
    const floor = view.position[bp.block]! - (LOOKBACK_POSITIONS - 1);
    for (let i = bp.block; i >= 0 && view.position[i]! >= floor; i--) {
      if (best !== null && i <= best) break;
      const entry = entries.get(view.keys[i]!);
      if (entry === undefined) continue;
      if (isAlive(entry, now)) {
        best = i;
        bestTtl = entry.ttlMs;
        break;
      }
      if (expired === null || i > expired) expired = i;
    }
  }
  return { block: best, ttlMs: bestTtl, expiredBlock: expired };
}

/**
 * A live entry longer than the hit that no window reached: the cache held it, but the breakpoint sat more than
 * 20 positions after it. Reports the longest such entry and how many positions back from the next breakpoint.
 */
function entryBeyondLookback(step: Step, hitBlock: number | null): { block: number; distance: number } | null {
  const { view, usable: breakpoints, entries, now } = step;
  const lastBreakpoint = breakpoints[breakpoints.length - 1];
  if (lastBreakpoint === undefined) return null;
  const lowest = hitBlock === null ? 0 : hitBlock + 1;
  for (let i = lastBreakpoint.block; i >= lowest; i--) {
    if (!isAlive(entries.get(view.keys[i]!), now)) continue;
    const next = breakpoints.find((bp) => bp.block >= i);
    if (next === undefined) return null;
    const distance = view.position[next.block]! - view.position[i]!;
    // Inside some window it would have been the hit; only an entry outside every window counts.
    if (distance >= LOOKBACK_POSITIONS) return { block: i, distance };
  }
  return null;
}
