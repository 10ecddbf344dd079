// OpenAI prompt caching, simulated request by request.
// Before GPT-5.6 (pricing.explicitBreakpoints false): automatic prefix caching for prompts of at least the
// model's minimum (1,024 tokens); the cached portion is the longest prefix any earlier request on the same model
// sent, rounded down to `pricing.cacheRounding` (128). Matching is per block: a change inside a long block earns
// the real API some partial credit for that block, which this simulation does not give, so it errs low.
// GPT-5.6 and later: entries only at breakpoints, matched exactly (no shorter fallback), writes billed at the
// cache-write price. Implicit mode (default): an automatic breakpoint on the newest message plus the latest 3
// explicit ones; explicit mode: up to 4 explicit `prompt_cache_breakpoint`s, and none means nothing is cached.

import type { Category, ParsedRequest } from '../model.ts';
import type { ModelPricing } from '../pricing/types.ts';
import { breakpointInfo, stateOf, uncachedResult, type PlannedBreakpoint, type SimulateCall } from './request-result.ts';
import type { RequestCacheResult, SimulationEvent } from './types.ts';
import type { RequestView } from './view.ts';

/** Eligibility threshold when the model has no pricing entry. */
export const OPENAI_MIN_TOKENS = 1024;
/** Rounding when the model has no pricing entry (the pre-GPT-5.6 rule). */
export const OPENAI_DEFAULT_ROUNDING = 128;
export const OPENAI_MAX_EXPLICIT_BREAKPOINTS = 4;
/** Implicit mode keeps at most this many explicit breakpoints beside the automatic one. */
export const OPENAI_IMPLICIT_EXPLICIT_BREAKPOINTS = 3;
/** GPT-5.6+ matching considers the latest this-many breakpoints written on the model. */
export const OPENAI_CONSIDERED_BREAKPOINTS = 80;

const MINUTE = 60_000;
/** `prompt_cache_options.ttl` (GPT-5.6+): "30m" is the only value. */
const BREAKPOINT_TTL_MS = 30 * MINUTE;
/** In-memory retention lasts minutes of inactivity (up to an hour); 24h retention is the default without ZDR. */
const IN_MEMORY_TTL_MS = 10 * MINUTE;
const EXTENDED_TTL_MS = 24 * 60 * MINUTE;

const newPrefixEntries = (): PrefixEntries => ({ prefixes: new Map(), prompts: new Map(), written: new Map() });
const newBreakpointEntries = (): BreakpointEntries => new BreakpointEntries();

export class OpenAICache {
  /** Per scope: prefix key → epoch ms after which it is gone (Infinity when seen without a timestamp). */
  private readonly scopes = new Map<string, PrefixEntries>();
  private readonly breakpointScopes = new Map<string, BreakpointEntries>();

  simulate(request: ParsedRequest, view: RequestView, call: SimulateCall): RequestCacheResult {
    const { pricing, cacheScope } = call;
    const result = uncachedResult(request, view, cacheScope, {
      provider: 'openai',
      breakpoints: [],
      rejected: false,
      promptCacheKey: request.options.promptCacheKey !== null,
      events: [],
    });
    if (view.segmentOf.length === 0) return result;
    const partition = cachePartitionOf(request, cacheScope);
    if (pricing?.explicitBreakpoints === true) {
      simulateBreakpoints({ request, view, pricing, result }, stateOf(this.breakpointScopes, partition, newBreakpointEntries));
    } else {
      simulateAutomatic({ request, view, pricing, result }, stateOf(this.scopes, partition, newPrefixEntries), call.warmTokens ?? 0);
    }
    return result;
  }
}

/**
 * The entries a request can read, within its model's scope: lookups are routed by `prompt_cache_key` (or, without
 * one, by `user`, which the key replaces), case-sensitively, so requests routed apart never read each other's
 * entries; and the reasoning effort is rendered at the head of the prompt, so a different effort is a different
 * prefix from the first token. A NUL separates the parts (it occurs in none of them).
 */
export function cachePartitionOf(request: ParsedRequest, cacheScope: string): string {
  const { promptCacheKey, cacheRoutingUser, thinking } = request.options;
  const routing = promptCacheKey !== null ? `key:${promptCacheKey}` : cacheRoutingUser !== null ? `user:${cacheRoutingUser}` : '';
  return `${cacheScope}\u0000${routing}\u0000${thinking ?? ''}`;
}

function isAlive(expiresAt: number | undefined, now: number | null): boolean {
  return expiresAt !== undefined && (now === null || now < expiresAt);
}

function store(entries: Map<number, number>, key: number, now: number | null, ttlMs: number): void {
  entries.set(key, now === null ? Infinity : Math.max(entries.get(key) ?? 0, now + ttlMs));
}

function roundDown(tokens: number, multiple: number): number {
  return multiple > 1 ? Math.floor(tokens / multiple) * multiple : tokens;
}

/** Blocks a model generates: when the next turn resends them right after the prompt, they are already cached. */
const GENERATED: ReadonlySet<Category> = new Set<Category>(['assistant', 'thinking', 'tool_call']);

/** One request being simulated, and the result its simulation fills in. */
interface Simulated<P extends ModelPricing | null> {
  request: ParsedRequest;
  view: RequestView;
  pricing: P;
  result: RequestCacheResult;
}

function simulateAutomatic(simulated: Simulated<ModelPricing | null>, scope: PrefixEntries, warmTokens: number): void {
  const { request, view, pricing, result } = simulated;
  const minTokens = pricing?.minCacheableTokens ?? OPENAI_MIN_TOKENS;
  const now = request.timestamp;
  // Every earlier prompt's prefixes are stored, so the set is prefix-closed: walk forward until the first miss.
  let longest = -1;
  while (longest + 1 < view.keys.length && isAlive(scope.prefixes.get(view.keys[longest + 1]!), now)) longest++;
  // A read is at most what was written: this request's own framing beyond the writer's is not in the entry.
  let readable = longest < 0 ? 0 : Math.min(view.cumulative[longest]!, scope.written.get(view.keys[longest]!) ?? Infinity);
  // The cache holds a request's prompt followed by the answer it generated (recorded usage shows the next turn
  // reading both), so a whole earlier prompt extends through the generated blocks that follow it here.
  for (let i = longest; i >= 0; i--) {
    if (!isAlive(scope.prompts.get(view.keys[i]!), now)) continue;
    let answered = i;
    while (answered + 1 < view.segmentOf.length && GENERATED.has(request.segments[view.segmentOf[answered + 1]!]!.category)) {
      answered++;
    }
    if (answered > longest) {
      const prompt = Math.min(view.cumulative[i]!, scope.written.get(view.keys[i]!) ?? Infinity);
      readable = prompt + view.cumulative[answered]! - view.cumulative[i]!;
      longest = answered;
    }
    break;
  }
  // What an earlier session left (the log's first call read it): at most the prompt.
  readable = Math.max(readable, Math.min(warmTokens, view.promptTokens));
  const cached = roundDown(readable, pricing?.cacheRounding ?? OPENAI_DEFAULT_ROUNDING);
  if (cached >= minTokens && view.promptTokens >= minTokens) {
    result.read = cached;
    result.uncached = view.promptTokens - cached;
    result.hit = true;
    // A warm read alone ends before the first block.
    result.hitSegment = longest < 0 ? null : view.segmentOf[longest]!;
  }
  // Stored whatever the size: a short prompt plus a long answer can still be cached for the next turn.
  const ttlMs = request.options.promptCacheRetention === 'in_memory' ? IN_MEMORY_TTL_MS : EXTENDED_TTL_MS;
  view.keys.forEach((key, block) => {
    store(scope.prefixes, key, now, ttlMs);
    scope.written.set(key, Math.min(view.cumulative[block]!, scope.written.get(key) ?? Infinity));
  });
  const whole = view.keys[view.keys.length - 1];
  if (whole !== undefined) store(scope.prompts, whole, now, ttlMs);
}

/** Automatic-mode entries of one model: every prefix sent, which of them were whole prompts, and their size. */
interface PrefixEntries {
  prefixes: Map<number, number>;
  prompts: Map<number, number>;
  /** Tokens of each prefix as written: the least any request sending it counted (its own framing included). */
  written: Map<number, number>;
}

function simulateBreakpoints(simulated: Simulated<ModelPricing>, scope: BreakpointEntries): void {
  const { request, view, pricing, result } = simulated;
  const events: SimulationEvent[] = result.events;
  const explicitMode = request.options.promptCacheMode === 'explicit';
  let explicit: number[] = [];
  for (let block = 0; block < view.segmentOf.length; block++) {
    if (request.segments[view.segmentOf[block]!]!.cacheMarker !== null) explicit.push(block);
  }
  if (explicitMode && explicit.length === 0) {
    events.push({ code: 'explicit_no_breakpoint', segment: null, value: null });
    return;
  }
  if (explicitMode && explicit.length > OPENAI_MAX_EXPLICIT_BREAKPOINTS) {
    events.push({ code: 'too_many_breakpoints', segment: null, value: explicit.length });
  }
  const keep = explicitMode ? OPENAI_MAX_EXPLICIT_BREAKPOINTS : OPENAI_IMPLICIT_EXPLICIT_BREAKPOINTS;
  explicit = explicit.slice(-keep);
  const planned: PlannedBreakpoint[] = explicit.map((block) => ({ block, ttl: '5m', source: 'explicit' }));
  const newest = view.segmentOf.length - 1;
  if (!explicitMode && !explicit.includes(newest)) planned.push({ block: newest, ttl: '5m', source: 'automatic' });

  const minTokens = pricing.minCacheableTokens;
  const breakpoints = planned.map((bp) => breakpointInfo(view, bp, minTokens));
  result.breakpoints = breakpoints;
  const now = request.timestamp;
  let lastBlock = -1;
  planned.forEach(({ block }, i) => {
    const bp = breakpoints[i]!;
    if (bp.eligible) lastBlock = Math.max(lastBlock, block);
    else events.push({ code: 'breakpoint_below_minimum', segment: bp.segment, value: bp.prefixTokens });
  });
  // An entry matches only where an earlier request put a breakpoint, exactly there (no shorter fallback), but
  // anywhere in this request (no lookback limit), among the latest breakpoints written on this model.
  let readBlock = -1;
  for (let i = view.keys.length - 1; i >= 0; i--) {
    if (scope.isLive(view.keys[i]!, now)) {
      readBlock = i;
      break;
    }
  }
  const read = readBlock < 0 ? 0 : roundDown(Math.min(view.cumulative[readBlock]!, scope.tokensOf(view.keys[readBlock]!)), pricing.cacheRounding);
  result.read = read;
  result.hit = read > 0;
  result.hitSegment = readBlock < 0 ? null : view.segmentOf[readBlock]!;
  result.write5m = lastBlock < 0 ? 0 : Math.max(0, view.cumulative[lastBlock]! - read);
  result.uncached = view.promptTokens - read - result.write5m;
  if (readBlock >= 0) scope.write(view.keys[readBlock]!, now, view.cumulative[readBlock]!);
  planned.forEach(({ block }, i) => {
    if (breakpoints[i]!.eligible) scope.write(view.keys[block]!, now, view.cumulative[block]!);
  });
}

/** GPT-5.6+ entries of one model: written at breakpoints, the latest 80 considered, 30-minute TTL. */
class BreakpointEntries {
  private readonly entries = new Map<number, { expiresAt: number; sequence: number; tokens: number }>();
  private writes = 0;

  isLive(key: number, now: number | null): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.sequence <= this.writes - OPENAI_CONSIDERED_BREAKPOINTS) return false;
    return now === null || now < entry.expiresAt;
  }

  /** Tokens of the prefix as written (the least any writer counted): a read never exceeds what was written. */
  tokensOf(key: number): number {
    return this.entries.get(key)?.tokens ?? Infinity;
  }

  write(key: number, now: number | null, tokens: number): void {
    this.writes++;
    const written = Math.min(tokens, this.entries.get(key)?.tokens ?? Infinity);
    this.entries.set(key, { expiresAt: now === null ? Infinity : now + BREAKPOINT_TTL_MS, sequence: this.writes, tokens: written });
  }
}
