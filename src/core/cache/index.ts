// The cache analysis of one input, in order: conversations (who continues whom), the prefix each request shares
// with the request it is compared with, the cache simulation and cost in both scenarios, near-duplicate content
// in each conversation's last request, and the findings drawn from all of them.
import type { Conversations } from './conversations.ts';
import { findConversations } from './conversations.ts';
import { findFindings, type Finding } from './findings.ts';
import { inferFromUsage, type InferredFromUsage } from './inferred.ts';
import { findMisses, ttlWhatIf, type MissAnalysis } from './misses.ts';
import { findCompactions, predecessors } from './predecessors.ts';
import { costScenarios, withTtlWhatIf } from './cost.ts';
import { findNearDuplicates, type NearDuplicateCut, type NearDuplicateGroup } from './near-duplicates.ts';
import { comparePrefix, type PrefixComparison } from './prefix.ts';
import type { CostComparison, SimulationInput } from './types.ts';

export interface CacheAnalysisInput extends Omit<SimulationInput, 'scenario'> {
  /**
   * Requests rebuilt from a transcript: the log does not say where the agent put its cache breakpoints, so no
   * finding claims they are missing. Default: none.
   */
  breakpointsUnknown?: (requestIndex: number) => boolean;
  /** Requests whose file records where the agent compacted its history (so no shrink stands for one). Default: none. */
  compactionsRecorded?: (requestIndex: number) => boolean;
}

export interface CacheAnalysis {
  conversations: Conversations;
  /** Per request: its prefix against the request it is compared with (`conversations.continues`), or null. */
  prefixes: (PrefixComparison | null)[];
  cost: CostComparison;
  /** Breakpoints and setup sizes inferred from recorded usage for logs that do not record them (inferred.ts). */
  inferred: InferredFromUsage;
  /**
   * Requests at which the history was compacted: the call after each compaction record where the format writes
   * them, else a request that shrank while continuing its conversation (predecessors.ts `findCompactions`).
   */
  compactions: number[];
  /** Every request's cache miss with its cause and price, and the per-cause summary (misses.ts). */
  misses: MissAnalysis;
  nearDuplicates: NearDuplicateGroup[];
  /** Where the near-duplicate search stopped for its work budget; null when it compared everything. */
  nearDuplicatesCut: NearDuplicateCut | null;
  findings: Finding[];
  /** How many requests come from transcripts that do not record cache breakpoints (see `breakpointsUnknown`). */
  requestsWithUnknownBreakpoints: number;
}

export function analyzeCache(input: CacheAnalysisInput): CacheAnalysis {
  const conversations = findConversations(input.requests);
  const prefixes = conversations.continues.map((compared, r) =>
    compared === null ? null : comparePrefix(input.requests[compared]!.segments, input.requests[r]!.segments),
  );
  const breakpointsUnknown = input.breakpointsUnknown ?? (() => false);
  const reconstructed = input.requests.map((_, r) => sum(input.segmentTokens[r]) + (input.overheadTokens[r] ?? 0));
  const inferred = inferFromUsage({ requests: input.requests, reconstructed, conversations, breakpointsUnknown });
  const compactions = findCompactions({
    requests: input.requests,
    reconstructed,
    predecessorOf: predecessors(input.requests, conversations),
    conversations,
    prefixes,
    compactionsRecorded: input.compactionsRecorded ?? (() => false),
  });
  // The unrecorded setup leads every request's prefix, so it is simulated as tokens before the first block.
  const overheadTokens = input.overheadTokens.map((tokens, r) => tokens + (inferred.setupTokens[r] ?? 0));
  const pricedCost = costScenarios({
    ...input,
    overheadTokens,
    inferredMarkerOf: (r) => inferred.markers[r] ?? null,
    setupVersionOf: (r) => inferred.setupVersions[r] ?? 0,
    setupBreakpointOf: (r) => {
      const tokens = inferred.setupBreakpointTokens[r] ?? 0;
      return tokens > 0 ? { version: inferred.setupBreakpointVersions[r] ?? 0, tokens } : null;
    },
    warmTokensOf: (r) => inferred.warmTokens[r] ?? 0,
  });
  const misses = findMisses({ ...input, overheadTokens, conversations, prefixes, cost: pricedCost, inferred, compactions });
  const whatIf = ttlWhatIf(misses, { ...input, cost: pricedCost });
  const cost = withTtlWhatIf(pricedCost, whatIf);
  const { groups: nearDuplicates, cut: nearDuplicatesCut } = findNearDuplicates(input.requests, conversations);
  const findings = findFindings({ ...input, breakpointsUnknown, conversations, costs: cost, nearDuplicates, ttlWhatIf: whatIf });
  const unknownCount = input.requests.filter((_, i) => breakpointsUnknown(i)).length;
  return {
    conversations,
    prefixes,
    cost,
    inferred,
    compactions,
    misses,
    nearDuplicates,
    nearDuplicatesCut,
    findings,
    requestsWithUnknownBreakpoints: unknownCount,
  };
}

function sum(values: readonly number[] | undefined): number {
  let total = 0;
  for (const value of values ?? []) total += value;
  return total;
}

export type { Conversations, ConversationLink } from './conversations.ts';
export type { Finding, FindingCode, Severity } from './findings.ts';
export type { MissCause, MissSummary, RequestMiss } from './misses.ts';
export { FINDING_SEVERITY, SEVERITY_RANK, describeRequests } from './findings.ts';
export type { NearDuplicateCut, NearDuplicateGroup } from './near-duplicates.ts';
export type { PrefixComparison } from './prefix.ts';
export { diffSegments } from './prefix.ts';
export type { DiffHunk } from './myers.ts';
