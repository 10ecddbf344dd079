// Classification of a contribution's results: why each is outside the upper or the lower bound (kind, name,
// identity, retention, policy), counted per API, and turned into the entries the simulation walks.
import type { ExclusionReason, ResultCategory } from '../codes.ts';
import type { AgentConfig, AllowlistEntry } from '../inputs.ts';
import { categoryOf, identityProven, inventoryCovers, inventoryFor, isExcludedName, type IdentityContext } from '../identity.ts';
import type { ApiAccumulator, ResultEntry } from '../accumulate.ts';
import type { RetentionMatch } from '../sidecar.ts';
import type { ConversationData } from '../simulate.ts';
import { SUMMARY_TOKENS_PER_CLEARED_RESULT } from '../thresholds.ts';
import { PLACEHOLDER_TOKENS, type Contribution, type PendingResult } from './pending.ts';

/** Attestations are contradicted by any call outside the attested inventory (configuration changed). */
export function identityContext(
  config: AgentConfig | null,
  allowlist: AllowlistEntry[],
  contributions: Contribution[],
): IdentityContext {
  const namesByRun = new Map<string, Set<string>>();
  const allNames = new Set<string>();
  for (const contribution of contributions) {
    for (const { fact } of contribution.results) {
      if (fact.origin !== null || fact.toolName === '') continue; // MCP-origin calls are proven by the allowlist
      allNames.add(fact.toolName);
      if (fact.runId === null) continue;
      const names = namesByRun.get(fact.runId) ?? new Set<string>();
      names.add(fact.toolName);
      namesByRun.set(fact.runId, names);
    }
  }
  const contradictedRuns = new Set<string>();
  let periodContradicted = false;
  if (config?.kind === 'period') periodContradicted = !inventoryCovers(config.inventory, allNames);
  if (config?.kind === 'per_run') {
    for (const [runId, names] of namesByRun) {
      const inventory = inventoryFor(config, runId);
      if (inventory !== undefined && !inventoryCovers(inventory, names)) contradictedRuns.add(runId);
    }
  }
  return { config, allowlist, contradictedRuns, periodContradicted };
}

/** One result's category and exclusions: from both bounds (static) and from the lower bound only. */
interface Exclusions {
  category: ResultCategory;
  staticExclusion: ExclusionReason | null;
  lowerExclusion: ExclusionReason | null;
  proven: boolean;
}

function exclusionsOf(pending: PendingResult, seen: { duplicate: boolean; keepAll: boolean; identity: IdentityContext }): Exclusions {
  const { fact, retention } = pending;
  const netTokens = fact.tokens - PLACEHOLDER_TOKENS;
  let staticExclusion: ExclusionReason | null = null;
  if (seen.duplicate) staticExclusion = 'already_counted';
  else if (fact.kind !== 'plain_text') staticExclusion = fact.kind;
  else if (isExcludedName(fact.toolName)) staticExclusion = 'excluded_name';
  else if (netTokens <= 0) staticExclusion = 'no_net_saving';

  const proven = fact.kind === 'plain_text' && identityProven(seen.identity, fact.toolName, fact.runId, fact.origin);
  let lowerExclusion: ExclusionReason | null = null;
  if (staticExclusion === null) {
    if (!proven) lowerExclusion = 'identity_unproven';
    else if (retention?.status === 'redacted') lowerExclusion = 'redacted';
    else if (retention?.status === 'truncated') lowerExclusion = 'truncated';
    else if (retention?.status !== 'exact') lowerExclusion = 'retention_unmatched';
    else if (seen.keepAll) lowerExclusion = 'policy_keep_all';
  }
  return { category: categoryOf(fact.toolName, fact.origin), staticExclusion, lowerExclusion, proven };
}

/** Adds one result to its API's category, candidate, retention and structured-scan counts. */
function countResult(accumulator: ApiAccumulator, pending: PendingResult, exclusions: Exclusions): void {
  const { fact, retention } = pending;
  const { category, staticExclusion, lowerExclusion, proven } = exclusions;
  const counts = accumulator.categories[category];
  counts.results++;
  counts.originalBytes += pending.originalBytes;
  if (staticExclusion === null) counts.upperBound++;
  if (staticExclusion === null && lowerExclusion === null) counts.lowerBound++;
  if (fact.kind === 'plain_text' && !isExcludedName(fact.toolName)) {
    accumulator.candidates++;
    if (proven) accumulator.provenCandidates++;
  }
  if (proven) countRetention(accumulator, retention);
  if (
    retention?.status === 'redacted' &&
    category === 'web' &&
    pending.jsonEnvelope &&
    (retention.redactionReason === 'credential' || retention.redactionReason === 'private_evidence')
  ) {
    accumulator.structuredScanLosses++;
  }
}

/** Turns pending results into simulation entries and fills the per-API identity/retention/category counts. */
export function classify(
  contribution: Contribution,
  identity: IdentityContext,
  accumulators: Map<string, ApiAccumulator>,
): ConversationData {
  const entries: ResultEntry[] = [];
  const duplicateRuns = new Set(contribution.boundaries.filter((b) => b.skip === 'duplicate').map((b) => b.runOrdinal));
  for (const pending of contribution.results) {
    const { fact } = pending;
    // A result of a run first seen in another journal was counted there: it stays in context, nothing more.
    const duplicate = duplicateRuns.has(fact.runOrdinal);
    const accumulator = fact.api === null || duplicate ? undefined : accumulators.get(fact.api);
    const exclusions = exclusionsOf(pending, { duplicate, keepAll: contribution.keepAll, identity });
    if (accumulator !== undefined) countResult(accumulator, pending, exclusions);
    entries.push({
      pathIndex: fact.pathIndex,
      runOrdinal: fact.runOrdinal,
      startOrdinal: fact.startOrdinal,
      category: exclusions.category,
      staticExclusion: exclusions.staticExclusion,
      lowerExclusion: exclusions.lowerExclusion,
      netTokens: Math.max(0, fact.tokens - PLACEHOLDER_TOKENS),
      originalBytes: pending.originalBytes,
      escapedTokens: pending.escapedTokens,
      escapedBytes: pending.escapedBytes,
      summaryTokens: Math.min(fact.tokens, SUMMARY_TOKENS_PER_CLEARED_RESULT),
    });
  }
  return {
    ordinal: contribution.ordinal,
    duplicateRuns,
    boundaries: contribution.boundaries,
    requests: contribution.replay.requests,
    results: entries,
    contextStart: contribution.replay.contextStart,
  };
}

function countRetention(accumulator: ApiAccumulator, retention: RetentionMatch | null): void {
  const counts = accumulator.retention;
  counts.proven++;
  const status = retention?.status ?? 'missing';
  if (retention?.truncatedFlag) counts.truncated++;
  switch (status) {
    case 'exact':
      counts.matched++;
      counts.exact++;
      break;
    case 'redacted':
      counts.matched++;
      counts.redacted++;
      break;
    case 'truncated':
      counts.matched++;
      break;
    case 'missing':
      counts.missing++;
      break;
    case 'not_finalized':
      counts.notFinalized++;
      break;
    case 'tombstoned':
      counts.tombstoned++;
      break;
    case 'integrity_mismatch':
      counts.integrityMismatch++;
      break;
  }
}
