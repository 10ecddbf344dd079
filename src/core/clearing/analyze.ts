// Orchestration of the clearing analysis: inputs → journals replayed one by one (a journal contributes only if
// its whole replay succeeds) → results matched against the sidecar and classified → per-conversation simulation
// → per-API model and gate → the `ctxray.clearing/1` record. Pure: the caller passes file contents, sidecar bytes
// and an initialized sql.js, so this runs in the web worker and the CLI alike.

import type { SqlJsStatic } from 'sql.js';
import {
  BOUNDARY_SKIP_REASONS,
  JOURNAL_SKIP_REASONS,
  RESULT_CATEGORIES,
  type BoundarySkipReason,
  type ExclusionReason,
  type GlobalCode,
  type JournalSkipReason,
  type ResultCategory,
  type SupportedApi,
} from './codes.ts';
import {
  parseAgentConfig,
  parseAppAllowlist,
  parseRoutes,
  type AgentConfig,
  type AllowlistEntry,
  type InputError,
} from './inputs.ts';
import { headerSkip, parseJournal, readHeader, type JournalSkip } from './journal/parse.ts';
import { ReplayError, replayJournal, type JournalReplay, type ResultFact } from './journal/replay.ts';
import { checkOffline, openSidecar, SidecarQueryError, type RetentionMatch, type SidecarReader } from './sidecar.ts';
import { categoryOf, identityProven, inventoryCovers, inventoryFor, isExcludedName, type IdentityContext } from './identity.ts';
import {
  emptyCategories,
  newAccumulator,
  type ApiAccumulator,
  type CategoryCounts,
  type ResultEntry,
} from './accumulate.ts';
import { simulateConversation, type ConversationData, type SimBoundary } from './simulate.ts';
import { allUncachedInformational, pressureInputs, rateModel } from './cost-model.ts';
import { criteriaFor, overallVerdict, retentionCoverage, verdictFor, type QualificationForApi } from './gate.ts';
import { CLEARING_SCHEMA, type ApiRecord, type ClearingRecord, type Histogram, type Stats } from './record.ts';
import {
  BATCH_SEPARATION_RUNS,
  CLEARED_PLACEHOLDER,
  CONVERSATION_BUDGET_BYTES,
  DEFAULT_RETRIEVAL_RATE,
  PRESSURE_FLOOR,
  PROTECTED_RECENT_STARTS,
  PROTECTED_RECENT_TURNS,
  RETENTION_COVERAGE_FLOOR,
  RETRIEVAL_CALL_OUTPUT_TOKENS,
  RETRIEVAL_SENSITIVITIES,
  SUMMARY_TOKENS_PER_CLEARED_RESULT,
  heuristicTokens,
} from './thresholds.ts';
import { utf8Length } from '../text/utf8.ts';

/** What the qualification check (src/core/clearing/qualification-record.ts) returns, structurally. */
export type QualificationStatus =
  | { ok: true; piAiVersion: string; apis: Record<string, { unintendedDifferences: number; qualified: boolean }> }
  | { ok: false; code: 'PAYLOAD_UNQUALIFIED'; why: string };

/**
 * A journal read on demand, so only one journal's text is in memory at a time: the header line for the
 * duplicate pre-pass, then the whole text when its turn comes. null = could not be read.
 */
export interface JournalSource {
  firstLine(): string | null;
  text(): string | null;
}

export interface ClearingInput {
  SQL: SqlJsStatic;
  /** Journals in a deterministic order (the CLI sorts by path): contents, sources read on demand, or null. */
  journals: (string | null | JournalSource)[];
  /** Sidecar bytes and whether any -wal/-shm/-journal companion exists next to it; null when unavailable. */
  sidecar: { bytes: Uint8Array; companionPresent: boolean } | null;
  /** Parsed JSON of each input; undefined for the optional ones when not supplied. */
  routes: unknown;
  qualification: QualificationStatus;
  agentConfig?: unknown;
  appAllowlist?: unknown;
  /** Supplied --retrieval-rate (0–1); undefined → 5%, pending lookup-pilot evidence. */
  retrievalRate?: number;
  /** Whether the inputs changed while being read; a function is asked after every journal has been read. */
  snapshotChanged?: boolean | (() => boolean);
  /** Problems the caller already found (unreadable files, JSON syntax). */
  inputErrors?: InputError[];
}

/** A located note for the terminal: which journal (1-based position), line and field; never content. */
export interface JournalDiagnostic {
  journal: number;
  reason: JournalSkipReason;
  line: number | null;
  field: string | null;
}

export interface ClearingOutcome {
  record: ClearingRecord;
  diagnostics: JournalDiagnostic[];
}

const PLACEHOLDER_TOKENS = heuristicTokens(CLEARED_PLACEHOLDER.length);

/** A result between replay and classification: identity-bearing fields live only here, in memory. */
interface PendingResult {
  fact: Omit<ResultFact, 'text'>;
  retention: RetentionMatch | null;
  originalBytes: number;
  escapedBytes: number;
  escapedTokens: number;
  jsonEnvelope: boolean;
}

interface Contribution {
  ordinal: number;
  replay: Omit<JournalReplay, 'results'>;
  results: PendingResult[];
  boundaries: SimBoundary[];
  keepAll: boolean;
}

function zeroCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const key of keys) out[key] = 0;
  return out;
}

function isJsonEnvelope(text: string): boolean {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Retention lookups happen during the journal pass, so result texts can be dropped right after. */
function pendingResults(replay: JournalReplay, sidecar: SidecarReader): PendingResult[] {
  return replay.results.map((result) => {
    const { text, ...fact } = result;
    if (text === null) {
      return { fact, retention: null, originalBytes: 0, escapedBytes: 0, escapedTokens: 0, jsonEnvelope: false };
    }
    const escaped = JSON.stringify(text);
    return {
      fact,
      retention: result.runId === null ? null : sidecar.match(replay.sessionId, result.runId, result.callId, text),
      originalBytes: utf8Length(text),
      escapedBytes: utf8Length(escaped),
      escapedTokens: heuristicTokens(escaped.length),
      jsonEnvelope: isJsonEnvelope(text),
    };
  });
}

function histogram(values: (number | null)[], bounds: number[]): Histogram {
  const counts = new Array<number>(bounds.length + 1).fill(0);
  let unknown = 0;
  for (const value of values) {
    if (value === null) {
      unknown++;
      continue;
    }
    let bin = bounds.findIndex((bound) => value < bound);
    if (bin === -1) bin = bounds.length;
    counts[bin] = (counts[bin] as number) + 1;
  }
  return { binUpperBounds: bounds, counts, unknown };
}

function stats(values: number[]): Stats {
  if (values.length === 0) return { count: 0, mean: null, min: null, max: null };
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    sum += value;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return { count: values.length, mean: sum / values.length, min, max };
}

/** Request-gap bins in ms: 1 min, 5 min, 10 min, 1 h, 24 h, then longer. */
const GAP_BINS_MS = [60_000, 300_000, 600_000, 3_600_000, 86_400_000];

function withYield(categories: Record<ResultCategory, CategoryCounts>) {
  const out = {} as Record<ResultCategory, CategoryCounts & { yield: number | null }>;
  for (const category of RESULT_CATEGORIES) {
    const counts = categories[category];
    out[category] = { ...counts, yield: counts.results > 0 ? counts.admitted / counts.results : null };
  }
  return out;
}

function addCategories(into: Record<ResultCategory, CategoryCounts>, from: Record<ResultCategory, CategoryCounts>): void {
  for (const category of RESULT_CATEGORIES) {
    const target = into[category];
    const source = from[category];
    target.results += source.results;
    target.upperBound += source.upperBound;
    target.lowerBound += source.lowerBound;
    target.admitted += source.admitted;
    target.originalBytes += source.originalBytes;
    target.admittedNetTokens += source.admittedNetTokens;
  }
}

export function analyzeClearing(input: ClearingInput): ClearingOutcome {
  const inputErrors: InputError[] = [...(input.inputErrors ?? [])];
  const globalCodes = new Set<GlobalCode>();
  const diagnostics: JournalDiagnostic[] = [];

  const routes = parseRoutes(input.routes);
  if (!routes.ok && !inputErrors.some((error) => error.input === 'routes')) inputErrors.push(routes.error);
  let agentConfig: AgentConfig | null = null;
  if (input.agentConfig !== undefined) {
    const parsed = parseAgentConfig(input.agentConfig);
    if (parsed.ok) agentConfig = parsed.value;
    else inputErrors.push(parsed.error);
  }
  let allowlist: AllowlistEntry[] = [];
  if (input.appAllowlist !== undefined) {
    const parsed = parseAppAllowlist(input.appAllowlist);
    if (parsed.ok) allowlist = parsed.value;
    else inputErrors.push(parsed.error);
  }
  const suppliedRate = input.retrievalRate;
  if (suppliedRate !== undefined && !(Number.isFinite(suppliedRate) && suppliedRate >= 0 && suppliedRate <= 1)) {
    inputErrors.push({ input: 'arguments', reason: 'value_out_of_range', at: '--retrieval-rate' });
  }
  const retrievalRate = suppliedRate !== undefined && Number.isFinite(suppliedRate) ? suppliedRate : DEFAULT_RETRIEVAL_RATE;
  const sensitivities = [...new Set<number>([...RETRIEVAL_SENSITIVITIES, retrievalRate])].sort((a, b) => a - b);

  let sidecar: SidecarReader | null = null;
  if (input.sidecar === null) {
    if (!inputErrors.some((error) => error.input === 'sidecar')) {
      inputErrors.push({ input: 'sidecar', reason: 'missing', at: '' });
    }
  } else {
    const offline = checkOffline(input.sidecar.bytes, input.sidecar.companionPresent);
    if (!offline.ok && 'code' in offline) globalCodes.add('SIDECAR_NOT_OFFLINE');
    else if (!offline.ok) inputErrors.push({ input: 'sidecar', reason: offline.reason, at: 'header' });
    else {
      const opened = openSidecar(input.SQL, input.sidecar.bytes);
      if (opened.ok) sidecar = opened.reader;
      else inputErrors.push({ input: 'sidecar', reason: opened.reason, at: opened.at });
    }
  }
  if (input.journals.length === 0) globalCodes.add('NO_JOURNALS');

  const skippedJournals = zeroCounts(JOURNAL_SKIP_REASONS);
  const skippedBoundaries = zeroCounts(BOUNDARY_SKIP_REASONS);
  const accumulators = new Map<string, ApiAccumulator>();
  if (routes.ok) for (const route of routes.value) accumulators.set(route.api, newAccumulator(route));

  const contributions: Contribution[] = [];
  let boundaryTotal = 0;
  let checkpointed = 0;
  let keepAllConversations = 0;
  const analyzable = routes.ok && sidecar !== null && inputErrors.length === 0;
  if (analyzable && sidecar !== null) try {
    // Pre-pass on headers: a session id in two files makes every such file a duplicate.
    const headerLine = (source: string | null | JournalSource) =>
      source === null || typeof source === 'string' ? source : source.firstLine();
    const headers = input.journals.map((source) => {
      const line = headerLine(source);
      return line === null ? null : readHeader(line);
    });
    const idCounts = new Map<string, number>();
    for (const header of headers) {
      if (header !== null) idCounts.set(header.sessionId, (idCounts.get(header.sessionId) ?? 0) + 1);
    }
    const boundaryOwner = new Map<string, number>();
    input.journals.forEach((source, index) => {
      const header = headers[index] ?? null;
      const recordSkip = (found: JournalSkip) => {
        skippedJournals[found.reason]++;
        diagnostics.push({ journal: index + 1, ...found });
      };
      // Header-only skips first, so a skipped journal's body is never read.
      const early = headerSkip(header);
      if (early) return recordSkip(early);
      if ((idCounts.get(header?.sessionId ?? '') ?? 0) > 1) return recordSkip({ reason: 'duplicate', line: 1, field: 'id' });
      const text = source === null || typeof source === 'string' ? source : source.text();
      if (text === null) return recordSkip({ reason: 'invalid', line: null, field: 'unreadable' });
      const parsed = parseJournal(text);
      if (!parsed.ok) return recordSkip(parsed.skip);
      let replay: JournalReplay;
      let results: PendingResult[];
      try {
        replay = replayJournal(parsed.journal);
        results = pendingResults(replay, sidecar);
      } catch (error) {
        if (error instanceof SidecarQueryError) throw error;
        if (error instanceof ReplayError) return recordSkip({ reason: error.reason, line: error.line, field: error.field });
        return recordSkip({ reason: 'invalid', line: null, field: 'replay' });
      }
      // Boundary skips are decided only now, after the whole replay succeeded.
      const localKeys = new Set<string>();
      const boundaries: SimBoundary[] = replay.boundaries.map((boundary) => {
        let skip: BoundarySkipReason | null = null;
        if (boundary.api === null) skip = 'owner_missing';
        else if (!accumulators.has(boundary.api)) skip = 'unsupported_api';
        else if (!localKeys.has(boundary.key) && boundaryOwner.has(boundary.key)) skip = 'duplicate';
        localKeys.add(boundary.key);
        return { ...boundary, skip };
      });
      for (const boundary of boundaries) {
        boundaryTotal++;
        if (boundary.skip !== null) skippedBoundaries[boundary.skip]++;
        if (!boundaryOwner.has(boundary.key)) boundaryOwner.set(boundary.key, index);
      }
      const keepAll = sidecar.policy(replay.sessionId) === 'keep_all';
      if (keepAll) keepAllConversations++;
      if (sidecar.checkpoints(replay.sessionId) > 0) checkpointed++;
      const { results: _dropped, ...rest } = replay;
      contributions.push({ ordinal: contributions.length, replay: rest, results, boundaries, keepAll });
    });
    if (contributions.length === 0) globalCodes.add('NO_JOURNALS');
  } catch (error) {
    if (!(error instanceof SidecarQueryError)) throw error;
    // The sidecar failed under a query: it is invalid input, and nothing read so far counts (no journal is blamed
    // for it, no contribution or skip survives), exactly as if it had been refused on open.
    inputErrors.push({ input: 'sidecar', reason: 'sidecar_corrupt', at: 'query' });
    contributions.length = 0;
    diagnostics.length = 0;
    for (const reason of JOURNAL_SKIP_REASONS) skippedJournals[reason] = 0;
    for (const reason of BOUNDARY_SKIP_REASONS) skippedBoundaries[reason] = 0;
    boundaryTotal = 0;
    checkpointed = 0;
    keepAllConversations = 0;
  } finally {
    sidecar.close();
  }
  if (inputErrors.length > 0) globalCodes.add('INPUT_INVALID');
  const changed = typeof input.snapshotChanged === 'function' ? input.snapshotChanged() : input.snapshotChanged;
  if (changed) globalCodes.add('SNAPSHOT_CHANGED');

  // Attestations are contradicted by any call outside the attested inventory (configuration changed).
  const identity = identityContext(agentConfig, allowlist, contributions);
  const overallCategories = emptyCategories();
  for (const contribution of contributions) {
    const conversation = classify(contribution, identity, accumulators);
    simulateConversation(conversation, accumulators);
    for (const compaction of contribution.replay.compactions) {
      // Observed compactions are reported under the API that answered next; the route decides the cohort.
      const request = contribution.replay.requests.find((candidate) => candidate.pathIndex > compaction.pathIndex);
      const accumulator = request?.api ? accumulators.get(request.api) : undefined;
      if (!accumulator) continue;
      accumulator.compactions++;
      accumulator.summaryTokens.push(compaction.summaryTokens);
      if (compaction.drainTokens !== null) accumulator.drainTokens.push(compaction.drainTokens);
    }
  }

  const incomplete = globalCodes.size > 0;
  const apis: ApiRecord[] = [];
  for (const [api, accumulator] of accumulators) {
    addCategories(overallCategories, accumulator.categories);
    apis.push(apiRecord(api as SupportedApi, accumulator, input.qualification, retrievalRate, sensitivities, incomplete));
  }
  const overall = withYield(overallCategories);
  const requests = apis.reduce((sum, api) => sum + api.usage.requests, 0);
  const fallbackRequests = apis.reduce((sum, api) => sum + api.usage.fallbackRequests, 0);
  const record: ClearingRecord = {
    schema: CLEARING_SCHEMA,
    verdict: incomplete ? 'DEFER' : overallVerdict(apis.map((entry) => entry.verdict)),
    complete: !incomplete,
    codes: [...globalCodes],
    inputErrors: inputErrors.map(({ input: name, reason, at }) => ({ input: name, reason, at })),
    qualification: input.qualification.ok
      ? { status: 'current', piAiVersion: input.qualification.piAiVersion }
      : { status: 'unqualified', piAiVersion: null },
    journals: { selected: input.journals.length, contributing: contributions.length, skippedJournals },
    boundaries: {
      total: boundaryTotal,
      evaluated: boundaryTotal - Object.values(skippedBoundaries).reduce((sum, count) => sum + count, 0),
      skippedBoundaries,
    },
    sidecar: { rows: sidecar?.rowCount ?? 0, checkpointedConversations: checkpointed, keepAllConversations },
    assumptions: {
      modeledNotObserved: true,
      retrievalRate,
      retrievalRateSource: suppliedRate === undefined ? 'default-pending-lookup-pilot' : 'supplied',
      retrievalSensitivities: sensitivities,
      budgetBytesPerConversation: CONVERSATION_BUDGET_BYTES,
      batchSeparationCompletedRuns: BATCH_SEPARATION_RUNS,
      protectedRecentTurns: PROTECTED_RECENT_TURNS,
      protectedRecentToolStarts: PROTECTED_RECENT_STARTS,
      pressureFloor: PRESSURE_FLOOR,
      placeholderTokens: PLACEHOLDER_TOKENS,
      retrievalCallOutputTokens: RETRIEVAL_CALL_OUTPUT_TOKENS,
      estimate: 'latest-valid-usage-plus-trailing-heuristic',
      qualityImprovementInferred: false,
      usage: {
        requests,
        fallbackRequests,
        fallbackShare: requests > 0 ? fallbackRequests / requests : 0,
        fallbackLabel: 'uncached-character-heuristic',
      },
    },
    categories: overall,
    webYield: overall.web.yield,
    apis,
  };
  return { record, diagnostics };
}

function identityContext(
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

/** Turns pending results into simulation entries and fills the per-API identity/retention/category counts. */
function classify(
  contribution: Contribution,
  identity: IdentityContext,
  accumulators: Map<string, ApiAccumulator>,
): ConversationData {
  const entries: ResultEntry[] = [];
  const duplicateRuns = new Set(contribution.boundaries.filter((b) => b.skip === 'duplicate').map((b) => b.runOrdinal));
  for (const pending of contribution.results) {
    const { fact, retention } = pending;
    // A result of a run first seen in another journal was counted there: it stays in context, nothing more.
    const duplicate = duplicateRuns.has(fact.runOrdinal);
    const accumulator = fact.api === null || duplicate ? undefined : accumulators.get(fact.api);
    const category = categoryOf(fact.toolName, fact.origin);
    const netTokens = fact.tokens - PLACEHOLDER_TOKENS;
    let staticExclusion: ExclusionReason | null = null;
    if (duplicate) staticExclusion = 'already_counted';
    else if (fact.kind !== 'plain_text') staticExclusion = fact.kind;
    else if (isExcludedName(fact.toolName)) staticExclusion = 'excluded_name';
    else if (netTokens <= 0) staticExclusion = 'no_net_saving';

    const proven = fact.kind === 'plain_text' && identityProven(identity, fact.toolName, fact.runId, fact.origin);
    let lowerExclusion: ExclusionReason | null = null;
    if (staticExclusion === null) {
      if (!proven) lowerExclusion = 'identity_unproven';
      else if (retention?.status === 'redacted') lowerExclusion = 'redacted';
      else if (retention?.status === 'truncated') lowerExclusion = 'truncated';
      else if (retention?.status !== 'exact') lowerExclusion = 'retention_unmatched';
      else if (contribution.keepAll) lowerExclusion = 'policy_keep_all';
    }
    if (accumulator !== undefined) {
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
    entries.push({
      pathIndex: fact.pathIndex,
      runOrdinal: fact.runOrdinal,
      startOrdinal: fact.startOrdinal,
      category,
      staticExclusion,
      lowerExclusion,
      netTokens: Math.max(0, netTokens),
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

function qualificationFor(status: QualificationStatus, api: SupportedApi): QualificationForApi {
  if (!status.ok) return { unintendedDifferences: null, qualified: false };
  const entry = Object.prototype.hasOwnProperty.call(status.apis, api) ? status.apis[api] : undefined;
  if (entry === undefined) return { unintendedDifferences: null, qualified: false };
  return { unintendedDifferences: entry.unintendedDifferences, qualified: entry.qualified };
}

function apiRecord(
  api: SupportedApi,
  accumulator: ApiAccumulator,
  qualification: QualificationStatus,
  retrievalRate: number,
  sensitivities: number[],
  incomplete: boolean,
): ApiRecord {
  const models = sensitivities.map((rate) => rateModel(accumulator, rate));
  const atSupplied = models.find((model) => model.retrievalRate === retrievalRate) ?? rateModel(accumulator, retrievalRate);
  const gateInputs = {
    api,
    accumulator,
    atSuppliedRate: atSupplied,
    sensitivities: models,
    qualification: qualificationFor(qualification, api),
    snapshotIncomplete: incomplete,
  };
  const criteria = criteriaFor(gateInputs);
  const { verdict, codes } = verdictFor(gateInputs, criteria);
  const pressure = pressureInputs(accumulator, retrievalRate);
  const categories = withYield(accumulator.categories);
  const a = accumulator;
  return {
    api,
    verdict,
    codes,
    criteria,
    evidence: {
      conversations: a.conversations.size,
      boundariesEvaluated: a.boundariesEvaluated,
      pressuredBoundaries: a.pressured,
      coldPressuredBoundaries: a.coldPressured,
      admittingBoundaries: a.admittingBoundaries,
      batches: a.batches,
    },
    usage: {
      requests: a.requests,
      fallbackRequests: a.fallbackRequests,
      fallbackShare: a.requests > 0 ? a.fallbackRequests / a.requests : 0,
      fallbackLabel: 'uncached-character-heuristic',
    },
    identity: { plainTextCandidates: a.candidates, provenCandidates: a.provenCandidates },
    retention: { ...a.retention, coverage: retentionCoverage(a), coverageFloor: RETENTION_COVERAGE_FLOOR },
    categories,
    webYield: categories.web.yield,
    exclusionUnit: 'result-boundary-occurrence',
    exclusions: a.exclusions,
    structuredScanLosses: a.structuredScanLosses,
    escapedBytes: a.admittedEscapedBytes,
    escapedToOriginalRatio: a.admittedOriginalBytes > 0 ? a.admittedEscapedBytes / a.admittedOriginalBytes : null,
    observed: {
      compactions: a.compactions,
      drainTokens: stats(a.drainTokens),
      summaryTokens: stats(a.summaryTokens),
      requestGapMs: histogram(a.gapsMs, GAP_BINS_MS),
    },
    model: {
      modeled: true,
      growthTokens: a.growthTokens,
      triggerTokens: a.route.triggerTokens,
      drainTokens: a.route.drainTokens,
      admittedNetTokens: a.admittedNetTokens,
      expectedRetrievedTokens: a.admittedEscapedTokens,
      offPressure: pressure.offPressure,
      summaryFits: pressure.summaryFits,
      sensitivities: models,
    },
    allUncachedInformational: allUncachedInformational(a, retrievalRate),
    warmInformational: { enabled: false, pressuredBoundaries: a.warmPressured, fullPrefixRewriteTokens: a.warmRewriteTokens },
    upperBoundInformational: {
      boundaries: a.upperBoundBoundaries,
      netTokens: a.upperBoundNetTokens,
      boundariesAtLeastAdmission: a.upperBoundAtLeastAdmission,
    },
  };
}

