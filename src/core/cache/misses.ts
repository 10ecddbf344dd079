// Every cache miss explained and priced. A request misses when what it read (recorded where the log records it,
// else simulated) is smaller than what the request it follows could have given it — that request's cached prompt
// when it continues it, the shared prefix otherwise — by more than framing noise (MISS_TOLERANCE, or the
// provider's cache rounding): a partial miss is a miss, priced for the part not read. Each miss gets one cause
// from a fixed vocabulary, checked in this order, the tokens a hit would have read, and what the miss cost over
// that hit. The vocabulary and the rules are documented in docs/cache.md ("Misses").
import { isUsageOnly, providerOf, type ParsedRequest } from '../model.ts';
import type { ModelPricing } from '../pricing/types.ts';
import type { Conversations } from './conversations.ts';
import { priceFigures, type BilledFigures, type PricedRequest } from './cost.ts';
import type { InferredFromUsage } from './inferred.ts';
import { predecessors } from './predecessors.ts';
import { prefixTokensThrough, type PrefixComparison } from './prefix.ts';
import type { CostComparison } from './types.ts';

export const MISS_CAUSES = [
  'cold_start',
  'compaction',
  'model_switch',
  'ttl_expired',
  'below_minimum',
  'breakpoint_missing',
  'setup_changed',
  'history_edited',
  'unexplained',
] as const;
export type MissCause = (typeof MISS_CAUSES)[number];

/**
 * Tokens an Anthropic read may fall short of what was readable without counting as a miss: framing the log does
 * not show exactly (a few tokens of message framing at the tail), never a block of content.
 */
export const MISS_TOLERANCE = 64;
const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
/** `setup_changed` block when the change lies in the system prompt or tools the log did not record. */
export const UNRECORDED_SETUP = '(system prompt and tools, not recorded)';
/** Minimum used when the model has no pricing entry (the most common one). */
const UNKNOWN_MINIMUM = 1024;

export interface RequestMiss {
  cause: MissCause;
  /** Prompt tokens written again or sent uncached that a hit would have read. */
  tokens: number;
  /** USD this request paid for them over reading them; null when its model has no price. */
  cost: number | null;
  /** `setup_changed`: path of the first setup block that changed; null otherwise. */
  block: string | null;
  /** `ttl_expired`: the idle gap in ms and the TTL it exceeded; null otherwise. */
  gapMs: number | null;
  ttl: '5m' | '1h' | null;
}

export interface MissSummary {
  cause: MissCause;
  count: number;
  tokens: number;
  /** USD over the priced misses of this cause. */
  cost: number;
}

export interface MissAnalysis {
  /** Per request: its miss, or null when it read what it could (or there was nothing to read). */
  requests: (RequestMiss | null)[];
  /** One row per cause that occurred, the costliest first. */
  summary: MissSummary[];
}

export interface MissInput {
  requests: readonly ParsedRequest[];
  conversations: Conversations;
  prefixes: readonly (PrefixComparison | null)[];
  segmentTokens: readonly (readonly number[])[];
  /** Per request, tokens outside any block, the inferred setup included (what the simulation used). */
  overheadTokens: readonly number[];
  /** Per request, the overhead each segment carries (SimulationInput `framingTokens`). */
  framingTokens?: readonly (readonly number[])[];
  pricingOf: (requestIndex: number) => ModelPricing | null;
  cost: CostComparison;
  inferred: InferredFromUsage;
  /** Requests at which the history was compacted (predecessors.ts `findCompactions`). */
  compactions: readonly number[];
}

export function findMisses(input: MissInput): MissAnalysis {
  const { requests, cost } = input;
  const prompts = cost.billed.requests.map((row) => row.read + row.write5m + row.write1h + row.uncached);
  const predecessorOf = predecessors(requests, input.conversations);
  const compactionHits = compactionTargets(input, prompts);
  const misses = requests.map((request, r): RequestMiss | null => {
    const prompt = prompts[r] ?? 0;
    if (prompt === 0) return null; // an aborted call: nothing was billed, nothing missed
    const before = billedPredecessor(predecessorOf, prompts, r);
    const row = cost.billed.requests[r]!;
    // A compaction replaced the history: what the request before it held is what this one could not read.
    const compacted = before !== null && compactionHits.has(r);
    const could = before === null ? prompt : compacted ? (prompts[before] ?? 0) : couldRead(input, prompts, r, before);
    const potential = Math.min(prompt, could);
    if (!compacted && before !== null && row.read >= potential - toleranceOf(request, input.pricingOf(r), potential)) return null;
    const tokens = Math.max(0, potential - row.read);
    if (tokens === 0 && !compacted) return null;
    const found = before === null ? cause('cold_start') : classify({ input, r, before, potential, compactions: compactionHits });
    const miss: RequestMiss = { ...found, tokens, cost: null };
    miss.cost = missCost(request, row, tokens, input.pricingOf(r));
    return miss;
  });
  return { requests: misses, summary: summarize(misses) };
}

/** Share of what was readable an OpenAI read may fall short by and still count as a hit (best-effort caching). */
export const OPENAI_MISS_SHARE = 0.1;

/**
 * OpenAI's cached count is not a function of the prefix alone: consecutive Codex calls read up to ~2K tokens more
 * than the previous call's prompt and a few 128-token chunks less with nothing changed (best-effort, rounded), and
 * that noise grows with the prompt. A shortfall within one minimum cacheable prefix (the model's
 * minCacheableTokens, 1,024) or within OPENAI_MISS_SHARE of what was readable is that noise there.
 */
function toleranceOf(request: ParsedRequest, pricing: ModelPricing | null, potential: number): number {
  if (providerOf(request.format) === 'anthropic') return MISS_TOLERANCE;
  // A provider whose cache is not modelled (Gemini): only a read below half of what was readable is a lost cache.
  if (request.notes.some((note) => note.code === 'provider_not_modelled')) return potential / 2;
  return Math.max(MISS_TOLERANCE, pricing?.minCacheableTokens ?? UNKNOWN_MINIMUM, pricing?.cacheRounding ?? 1, potential * OPENAI_MISS_SHARE);
}

type Cause = Omit<RequestMiss, 'tokens' | 'cost'>;
const cause = (c: MissCause, extra: Partial<Cause> = {}): Cause => ({ cause: c, block: null, gapMs: null, ttl: null, ...extra });

/** A request that read less than it could, and the billed request before it. */
interface MissAt {
  input: MissInput;
  r: number;
  before: number;
  potential: number;
  compactions: ReadonlySet<number>;
}

/** What each cause rule reads about the request, worked out once. */
interface MissFacts extends MissAt {
  request: ParsedRequest;
  earlier: ParsedRequest;
  pricing: ModelPricing | null;
  anthropic: boolean;
}

/** One cause's test: the cause when it applies, else null. The rules are checked in order (docs/cache.md). */
type CauseRule = (facts: MissFacts) => Cause | null;

const CAUSE_RULES: readonly CauseRule[] = [
  (f) => (f.compactions.has(f.r) ? cause('compaction') : null),
  (f) => ((f.input.pricingOf(f.before)?.id ?? f.earlier.model) !== (f.pricing?.id ?? f.request.model) ? cause('model_switch') : null),
  ttlExpired,
  // The causes below read the request's blocks; a usage-only call has none.
  (f) => (isUsageOnly(f.request) ? cause('unexplained') : null),
  unrecordedSetupChanged,
  (f) => (f.potential < (f.pricing?.minCacheableTokens ?? UNKNOWN_MINIMUM) ? cause('below_minimum') : null),
  (f) => {
    const simulated = f.input.cost.actual.simulation.requests;
    const none = (simulated[f.r]?.breakpoints.length ?? 0) === 0 || (simulated[f.before]?.breakpoints.length ?? 0) === 0;
    return f.anthropic && none ? cause('breakpoint_missing') : null;
  },
  prefixChanged,
  (f) => (f.input.conversations.kind[f.r] === 'edited' ? cause('history_edited') : null),
  readStoppedInHistory,
];

function classify(at: MissAt): Cause {
  const request = at.input.requests[at.r]!;
  const facts: MissFacts = {
    ...at,
    request,
    earlier: at.input.requests[at.before]!,
    pricing: at.input.pricingOf(at.r),
    anthropic: providerOf(request.format) === 'anthropic',
  };
  for (const rule of CAUSE_RULES) {
    const found = rule(facts);
    if (found !== null) return found;
  }
  return cause('unexplained');
}

function ttlExpired(f: MissFacts): Cause | null {
  if (!f.anthropic || f.request.timestamp === null || f.earlier.timestamp === null) return null;
  const ttl = ttlOf(f.input, f.before, f.r);
  const gapMs = f.request.timestamp - f.earlier.timestamp;
  return gapMs > TTL_MS[ttl] ? cause('ttl_expired', { gapMs, ttl }) : null;
}

/** The read stopped inside the system prompt and tools the log did not record: something in them changed. */
function unrecordedSetupChanged(f: MissFacts): Cause | null {
  const setup = f.input.inferred.setupTokens[f.r] ?? 0;
  const row = f.input.cost.billed.requests[f.r];
  if (f.anthropic && setup > 0 && (row?.read ?? 0) < setup && row?.basis === 'recorded') return cause('setup_changed', { block: UNRECORDED_SETUP });
  return null;
}

/** The prefix broke at a block: in the setup (system prompt, tools) or in the history. */
function prefixChanged(f: MissFacts): Cause | null {
  const prefix = f.input.prefixes[f.r];
  if (prefix === null || prefix === undefined || prefix.firstChange === null) return null;
  const changed = f.request.segments[prefix.firstChange];
  if (changed !== undefined && changed.messageIndex < 0) return cause('setup_changed', { block: changed.path });
  return cause('history_edited');
}

/**
 * Anthropic reads at an entry, deterministically: a read that stopped inside the history the earlier request had
 * cached, within the TTL, on its model, means the prompt changed after that point — something the log does not
 * show (Claude Code rewrites reminders in its newest message) — unless no breakpoint reached the entry.
 */
function readStoppedInHistory(f: MissFacts): Cause | null {
  const read = f.input.cost.billed.requests[f.r]?.read ?? 0;
  if (!f.anthropic || read <= (f.input.inferred.setupTokens[f.r] ?? 0) || read <= 0) return null;
  const beyondLookback = f.input.cost.actual.simulation.requests[f.r]?.events.some((event) => event.code === 'lookback_exceeded') === true;
  return cause(beyondLookback ? 'breakpoint_missing' : 'history_edited');
}

/** The TTL the earlier request's entries lived for: 1h where it (or its session, by inference) wrote 1-hour entries. */
function ttlOf(input: MissInput, before: number, r: number): '5m' | '1h' {
  const row = input.cost.billed.requests[before];
  if (row !== undefined && row.write1h > 0) return '1h';
  if (input.inferred.markers[r]?.ttl === '1h' || input.inferred.markers[before]?.ttl === '1h') return '1h';
  const breakpoints = input.cost.actual.simulation.requests[before]?.breakpoints ?? [];
  return breakpoints.some((bp) => bp.ttl === '1h') ? '1h' : '5m';
}

/** The nearest request before r (along predecessors) that billed a prompt: an aborted call in between wrote nothing. */
function billedPredecessor(predecessorOf: readonly (number | null)[], prompts: readonly number[], r: number): number | null {
  let before = predecessorOf[r] ?? null;
  while (before !== null && (prompts[before] ?? 0) === 0) before = predecessorOf[before] ?? null;
  return before;
}

/**
 * What request r could have read from `before`: its whole prompt when r continues it (r starts with all of it),
 * else the prefix they share (blocks in common from the start plus the tokens before the first block).
 */
function couldRead(input: MissInput, prompts: readonly number[], r: number, before: number): number {
  const link = input.conversations.kind[r];
  const continued = input.conversations.continues[r];
  // Without a body there is no prefix to compare: it could read what the request before it had cached.
  if ((link === 'continues' && continued === before) || isUsageOnly(input.requests[r]!)) return cachedOf(input, prompts, before);
  const prefix = input.conversations.continues[r] === before ? input.prefixes[r] : null;
  return prefixTokensThrough(input, r, prefix?.commonSegments ?? 0);
}

/**
 * What the earlier request could pass on: on Anthropic what it read or wrote (the uncached tail after its last
 * breakpoint is in no entry), or its whole prompt when it cached nothing at all (no breakpoint, below the minimum:
 * a breakpoint would have cached it); on OpenAI its whole prompt (cached automatically, rounding allowed for).
 */
function cachedOf(input: MissInput, prompts: readonly number[], before: number): number {
  const row = input.cost.billed.requests[before];
  const whole = prompts[before] ?? 0;
  if (row === undefined || providerOf(input.requests[before]!.format) !== 'anthropic') return whole;
  const cached = row.read + row.write5m + row.write1h;
  return cached > 0 ? cached : whole;
}

/** The first request with a billed prompt at or after each compaction (a compacted call that aborted passes it on). */
function compactionTargets(input: MissInput, prompts: readonly number[]): Set<number> {
  const targets = new Set<number>();
  for (const found of input.compactions) {
    let r = found;
    const file = input.requests[found]!.file;
    while (r < input.requests.length && ((prompts[r] ?? 0) === 0 || input.requests[r]!.file !== file)) r++;
    if (r < input.requests.length) targets.add(r);
  }
  return targets;
}

/** What the request paid for `tokens` (taken from its writes, then its uncached input) over reading them. */
export function missCost(request: PricedRequest, row: BilledFigures, tokens: number, pricing: ModelPricing | null): number | null {
  const paid = priceFigures(request, row, pricing);
  if (paid === null) return null;
  let left = tokens;
  const take = (available: number) => {
    const taken = Math.min(available, left);
    left -= taken;
    return taken;
  };
  const from1h = take(row.write1h);
  const from5m = take(row.write5m);
  const fromUncached = take(row.uncached);
  const asHit: BilledFigures = {
    read: row.read + from1h + from5m + fromUncached,
    write1h: row.write1h - from1h,
    write5m: row.write5m - from5m,
    uncached: row.uncached - fromUncached,
  };
  const hit = priceFigures(request, asHit, pricing);
  return hit === null ? null : paid - hit;
}

function summarize(misses: readonly (RequestMiss | null)[]): MissSummary[] {
  const byCause = new Map<MissCause, MissSummary>();
  for (const miss of misses) {
    if (miss === null) continue;
    let row = byCause.get(miss.cause);
    if (row === undefined) {
      row = { cause: miss.cause, count: 0, tokens: 0, cost: 0 };
      byCause.set(miss.cause, row);
    }
    row.count++;
    row.tokens += miss.tokens;
    row.cost += miss.cost ?? 0;
  }
  return [...byCause.values()].sort((a, b) => b.cost - a.cost || b.tokens - a.tokens || MISS_CAUSES.indexOf(a.cause) - MISS_CAUSES.indexOf(b.cause));
}

/** The 1-hour TTL what-if for the idle gaps that emptied 5-minute entries, priced against what was paid. */
export interface TtlWhatIf {
  /** `ttl_expired` misses of 5-minute entries, and those whose gap was under an hour (a 1h entry would have lived). */
  gaps: number;
  requests: number[];
  tokens: number;
  /** USD those misses cost over hits. */
  cost: number;
  /** USD the gaps under an hour would not have cost with 1-hour entries. */
  saved: number;
  /** USD more the same sessions' 5-minute writes would have cost as 1-hour writes. */
  extraWrites: number;
}

const HOUR_MS = 60 * 60_000;

export function ttlWhatIf(misses: MissAnalysis, input: Pick<MissInput, 'requests' | 'pricingOf' | 'cost'>): TtlWhatIf | null {
  const expired: number[] = [];
  misses.requests.forEach((miss, r) => {
    if (miss?.cause === 'ttl_expired' && miss.ttl === '5m') expired.push(r);
  });
  if (expired.length === 0) return null;
  const files = new Set(expired.map((r) => input.requests[r]!.file));
  let tokens = 0;
  let cost = 0;
  let saved = 0;
  for (const r of expired) {
    const miss = misses.requests[r]!;
    tokens += miss.tokens;
    cost += miss.cost ?? 0;
    if ((miss.gapMs ?? Infinity) <= HOUR_MS) saved += miss.cost ?? 0;
  }
  let extraWrites = 0;
  input.requests.forEach((request, r) => {
    const pricing = input.pricingOf(r);
    if (!files.has(request.file) || pricing === null || providerOf(request.format) !== 'anthropic') return;
    if (pricing.cacheWrite5m === null || pricing.cacheWrite1h === null) return;
    const written = input.cost.billed.requests[r]?.write5m ?? 0;
    extraWrites += (written * (pricing.cacheWrite1h - pricing.cacheWrite5m)) / 1_000_000;
  });
  return { gaps: expired.length, requests: expired, tokens, cost, saved, extraWrites };
}
