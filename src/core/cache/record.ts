// The cache analysis' parts of the JSON record (docs/analysis.schema.json): per-request conversation link and
// simulated cache figures, cost totals, findings, near-duplicate groups. Counts, codes, indices and paths only:
// finding `detail` (tool names) and anything else taken from the payload stay out.
import type { ConversationLink } from './conversations.ts';
import type { Finding } from './findings.ts';
import type { CacheAnalysis } from './index.ts';
import type { MissSummary, RequestMiss } from './misses.ts';
import type { BilledRequest, CostBasis, RequestCacheResult } from './types.ts';

export interface RequestCacheRecord {
  /** 0-based conversation number. */
  conversation: number;
  /** The request this one continues (`continues` or `edited` link), else null. */
  continues: number | null;
  link: ConversationLink;
  /** The request it is compared with: as `continues`, plus the earlier request of the same setup. */
  comparedWith: number | null;
  /** Segments shared from the start with `comparedWith`, or null when there is none. */
  commonPrefixSegments: number | null;
  /**
   * The request's actual cache figures and cost: its recorded usage when the log records it (`basis:
   * "recorded"`), else the simulation as sent; the simulation is always beside it (`simulated`).
   */
  cache: {
    basis: CostBasis;
    read: number;
    write5m: number;
    write1h: number;
    uncached: number;
    hit: boolean;
    /** USD with the request's own model; null when the model has no pricing entry. */
    cost: number | null;
    /** `cost` minus what the fixes would avoid on this request (see cost.ts); null when unpriced. */
    optimizedCost: number | null;
    simulated: { read: number; write5m: number; write1h: number; uncached: number; cost: number | null };
  };
  /** Why this request read less than it could have, what it re-sent and what that cost (misses.ts); or null. */
  miss: Pick<RequestMiss, 'cause' | 'tokens' | 'cost' | 'block'> | null;
}

export type MissSummaryRecord = MissSummary;

export interface CostTotalsRecord {
  /** What was paid: recorded usage priced where the log records it, the simulation as sent elsewhere. */
  actual: number;
  /** `actual` minus what the fixes would avoid. */
  optimized: number;
  potentialSavings: number;
  savingsFraction: number;
  /** Requests whose model has no pricing entry: left out of every sum above. */
  unpricedRequests: number;
  /** Plain multiplication of the totals by `sessions`, not a separate estimate. */
  projection: { sessions: number; actual: number; optimized: number; savings: number };
  /** True when some request had no timestamp: such requests are assumed within every entry's TTL. */
  assumedWithinTtl: boolean;
  /** How many requests `actual` took from recorded usage and how many from the simulation. */
  basis: { recordedRequests: number; simulatedRequests: number };
  /** The simulation's own totals: as sent and optimized (USD). */
  simulated: { asSent: number; optimized: number };
}

/** A finding as written: its payload-derived `detail` stays out. */
export type FindingRecord = Omit<Finding, 'detail'>;

export interface NearDuplicateRecord {
  request: number;
  segments: number[];
  similarity: number;
}

export function requestCacheRecord(cache: CacheAnalysis, requestIndex: number): RequestCacheRecord {
  const link = cache.conversations.kind[requestIndex] ?? 'new';
  const compared = cache.conversations.continues[requestIndex] ?? null;
  return {
    conversation: cache.conversations.conversationOf[requestIndex] ?? 0,
    continues: link === 'continues' || link === 'edited' ? compared : null,
    link,
    comparedWith: compared,
    commonPrefixSegments: cache.prefixes[requestIndex]?.commonSegments ?? null,
    cache: cacheFigures(cache, requestIndex),
    miss: missRecord(cache.misses.requests[requestIndex] ?? null),
  };
}

function cacheFigures(cache: CacheAnalysis, requestIndex: number): RequestCacheRecord['cache'] {
  const billed: BilledRequest | undefined = cache.cost.billed.requests[requestIndex];
  return {
    basis: billed?.basis ?? 'simulated',
    read: billed?.read ?? 0,
    write5m: billed?.write5m ?? 0,
    write1h: billed?.write1h ?? 0,
    uncached: billed?.uncached ?? 0,
    hit: (billed?.read ?? 0) > 0,
    cost: billed?.cost.total ?? null,
    optimizedCost: billed?.optimizedCost ?? null,
    simulated: simulatedFigures(cache.cost.actual.simulation.requests[requestIndex], cache.cost.actual.costs[requestIndex]?.total ?? null),
  };
}

function simulatedFigures(simulated: RequestCacheResult | undefined, cost: number | null): RequestCacheRecord['cache']['simulated'] {
  return {
    read: simulated?.read ?? 0,
    write5m: simulated?.write5m ?? 0,
    write1h: simulated?.write1h ?? 0,
    uncached: simulated?.uncached ?? 0,
    cost,
  };
}

export function costTotalsRecord(cache: CacheAnalysis): CostTotalsRecord {
  const { actual, optimized, billed, optimizedCost, potentialSavings, savingsFraction, projection } = cache.cost;
  return {
    actual: billed.totals.total,
    optimized: optimizedCost,
    potentialSavings,
    savingsFraction,
    unpricedRequests: billed.totals.unpriced,
    projection: { ...projection },
    assumedWithinTtl: actual.simulation.assumedWithinTtl,
    basis: { recordedRequests: billed.totals.recordedRequests, simulatedRequests: billed.totals.simulatedRequests },
    simulated: { asSent: actual.totals.total, optimized: optimized.totals.total },
  };
}

export function findingsRecord(cache: CacheAnalysis): FindingRecord[] {
  return cache.findings.map(({ code, severity, requests, segmentPath, message, fix }) => ({
    code,
    severity,
    requests: [...requests],
    segmentPath,
    message,
    fix,
  }));
}

export function nearDuplicatesRecord(cache: CacheAnalysis): NearDuplicateRecord[] {
  return cache.nearDuplicates.map((group) => ({
    request: group.requestIndex,
    segments: [...group.segments],
    similarity: Math.round(group.similarity * 10_000) / 10_000,
  }));
}

function missRecord(miss: RequestMiss | null): RequestCacheRecord['miss'] {
  return miss === null ? null : { cause: miss.cause, tokens: miss.tokens, cost: miss.cost, block: miss.block };
}

/** The `misses` section: one row per cause that occurred, the costliest first. */
export function missesRecord(cache: CacheAnalysis): MissSummaryRecord[] {
  return cache.misses.summary.map(({ cause, count, tokens, cost }) => ({ cause, count, tokens, cost }));
}
