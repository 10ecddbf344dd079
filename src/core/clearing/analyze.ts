// Orchestration of the clearing analysis: inputs → journals replayed one by one (a journal contributes only if
// its whole replay succeeds) → results matched against the sidecar and classified → per-conversation simulation
// → per-API model and gate → the `ctxray.clearing/1` record. Pure: the caller passes file contents, sidecar bytes
// and an initialized sql.js, so this runs in the web worker and the CLI alike.
//
// The steps live in run/: journals.ts (the journal pass), pending.ts (results between replay and classification),
// classify.ts (bounds and counts per result), api-record.ts (one API's verdict and evidence).

import type { SqlJsStatic } from 'sql.js';
import type { GlobalCode, SupportedApi } from './codes.ts';
import {
  parseAgentConfig,
  parseAppAllowlist,
  parseRoutes,
  type AgentConfig,
  type AllowlistEntry,
  type InputError,
  type Route,
} from './inputs.ts';
import { checkOffline, openSidecar, SidecarQueryError, type SidecarReader } from './sidecar.ts';
import { emptyCategories, newAccumulator, type ApiAccumulator } from './accumulate.ts';
import { simulateConversation } from './simulate.ts';
import { overallVerdict } from './gate.ts';
import { CLEARING_SCHEMA, type ApiRecord, type ClearingRecord } from './record.ts';
import {
  BATCH_SEPARATION_RUNS,
  CONVERSATION_BUDGET_BYTES,
  DEFAULT_RETRIEVAL_RATE,
  PRESSURE_FLOOR,
  PROTECTED_RECENT_STARTS,
  PROTECTED_RECENT_TURNS,
  RETRIEVAL_CALL_OUTPUT_TOKENS,
  RETRIEVAL_SENSITIVITIES,
} from './thresholds.ts';
import { addCategories, apiRecord, withYield } from './run/api-record.ts';
import { classify, identityContext } from './run/classify.ts';
import { emptyJournalPass, readJournals, type JournalDiagnostic, type JournalPass, type JournalSource } from './run/journals.ts';
import { PLACEHOLDER_TOKENS, type Contribution } from './run/pending.ts';
import type { QualificationStatus } from './run/qualification-status.ts';

export type { QualificationStatus } from './run/qualification-status.ts';
export type { JournalDiagnostic, JournalSource } from './run/journals.ts';

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

export interface ClearingOutcome {
  record: ClearingRecord;
  diagnostics: JournalDiagnostic[];
}

/** The parsed optional inputs and the sidecar opened, with what was wrong recorded in `inputErrors`/`globalCodes`. */
interface ReadInputs {
  routes: Route[] | null;
  agentConfig: AgentConfig | null;
  allowlist: AllowlistEntry[];
  suppliedRate: number | undefined;
  retrievalRate: number;
  sensitivities: number[];
  sidecar: SidecarReader | null;
}

function readInputs(input: ClearingInput, inputErrors: InputError[], globalCodes: Set<GlobalCode>): ReadInputs {
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
  const sidecar = readSidecar(input.sidecar, inputErrors, globalCodes, input.SQL);
  return { routes: routes.ok ? routes.value : null, agentConfig, allowlist, suppliedRate, retrievalRate, sensitivities, sidecar };
}

function readSidecar(
  supplied: ClearingInput['sidecar'],
  inputErrors: InputError[],
  globalCodes: Set<GlobalCode>,
  SQL: SqlJsStatic,
): SidecarReader | null {
  if (supplied === null) {
    if (!inputErrors.some((error) => error.input === 'sidecar')) inputErrors.push({ input: 'sidecar', reason: 'missing', at: '' });
    return null;
  }
  const offline = checkOffline(supplied.bytes, supplied.companionPresent);
  if (!offline.ok && 'code' in offline) globalCodes.add('SIDECAR_NOT_OFFLINE');
  else if (!offline.ok) inputErrors.push({ input: 'sidecar', reason: offline.reason, at: 'header' });
  else {
    const opened = openSidecar(SQL, supplied.bytes);
    if (opened.ok) return opened.reader;
    inputErrors.push({ input: 'sidecar', reason: opened.reason, at: opened.at });
  }
  return null;
}

/** The journal pass, or the empty pass when the sidecar failed under a query (then it is invalid input). */
function journalPass(input: ClearingInput, sidecar: SidecarReader, accumulators: Map<string, ApiAccumulator>, inputErrors: InputError[]): JournalPass {
  try {
    return readJournals(input.journals, sidecar, (api) => accumulators.has(api));
  } catch (error) {
    if (!(error instanceof SidecarQueryError)) throw error;
    // Nothing read so far counts (no journal is blamed for it, no contribution or skip survives), exactly as if it
    // had been refused on open.
    inputErrors.push({ input: 'sidecar', reason: 'sidecar_corrupt', at: 'query' });
    return emptyJournalPass();
  } finally {
    sidecar.close();
  }
}

/** Each contribution classified and simulated; observed compactions counted under the API that answered next. */
function simulateContributions(contributions: Contribution[], inputs: ReadInputs, accumulators: Map<string, ApiAccumulator>): void {
  // Attestations are contradicted by any call outside the attested inventory (configuration changed).
  const identity = identityContext(inputs.agentConfig, inputs.allowlist, contributions);
  for (const contribution of contributions) {
    const conversation = classify(contribution, identity, accumulators);
    simulateConversation(conversation, accumulators);
    for (const compaction of contribution.replay.compactions) {
      // The route decides the cohort.
      const request = contribution.replay.requests.find((candidate) => candidate.pathIndex > compaction.pathIndex);
      const accumulator = request?.api ? accumulators.get(request.api) : undefined;
      if (!accumulator) continue;
      accumulator.compactions++;
      accumulator.summaryTokens.push(compaction.summaryTokens);
      if (compaction.drainTokens !== null) accumulator.drainTokens.push(compaction.drainTokens);
    }
  }
}

export function analyzeClearing(input: ClearingInput): ClearingOutcome {
  const inputErrors: InputError[] = [...(input.inputErrors ?? [])];
  const globalCodes = new Set<GlobalCode>();
  const inputs = readInputs(input, inputErrors, globalCodes);
  if (input.journals.length === 0) globalCodes.add('NO_JOURNALS');

  const accumulators = new Map<string, ApiAccumulator>();
  for (const route of inputs.routes ?? []) accumulators.set(route.api, newAccumulator(route));
  let pass = emptyJournalPass();
  const { sidecar } = inputs;
  if (inputs.routes !== null && sidecar !== null && inputErrors.length === 0) {
    pass = journalPass(input, sidecar, accumulators, inputErrors);
    if (pass.contributions.length === 0 && inputErrors.length === 0) globalCodes.add('NO_JOURNALS');
  } else sidecar?.close();
  if (inputErrors.length > 0) globalCodes.add('INPUT_INVALID');
  const changed = typeof input.snapshotChanged === 'function' ? input.snapshotChanged() : input.snapshotChanged;
  if (changed) globalCodes.add('SNAPSHOT_CHANGED');

  simulateContributions(pass.contributions, inputs, accumulators);
  const incomplete = globalCodes.size > 0;
  const apis: ApiRecord[] = [];
  const context = { qualification: input.qualification, retrievalRate: inputs.retrievalRate, sensitivities: inputs.sensitivities, incomplete };
  for (const [api, accumulator] of accumulators) apis.push(apiRecord(api as SupportedApi, accumulator, context));
  const record = clearingRecord({ input, inputs, inputErrors, globalCodes, pass, apis, accumulators });
  return { record, diagnostics: pass.diagnostics };
}

/** The `ctxray.clearing/1` record from the parts the run produced. */
function clearingRecord(parts: {
  input: ClearingInput;
  inputs: ReadInputs;
  inputErrors: InputError[];
  globalCodes: Set<GlobalCode>;
  pass: JournalPass;
  apis: ApiRecord[];
  accumulators: Map<string, ApiAccumulator>;
}): ClearingRecord {
  const { input, inputs, inputErrors, globalCodes, pass, apis } = parts;
  const overallCategories = emptyCategories();
  for (const accumulator of parts.accumulators.values()) addCategories(overallCategories, accumulator.categories);
  const overall = withYield(overallCategories);
  const incomplete = globalCodes.size > 0;
  const { skippedBoundaries } = pass;
  return {
    schema: CLEARING_SCHEMA,
    verdict: incomplete ? 'DEFER' : overallVerdict(apis.map((entry) => entry.verdict)),
    complete: !incomplete,
    codes: [...globalCodes],
    inputErrors: inputErrors.map(({ input: name, reason, at }) => ({ input: name, reason, at })),
    qualification: input.qualification.ok
      ? { status: 'current', piAiVersion: input.qualification.piAiVersion }
      : { status: 'unqualified', piAiVersion: null },
    journals: { selected: input.journals.length, contributing: pass.contributions.length, skippedJournals: pass.skippedJournals },
    boundaries: {
      total: pass.boundaryTotal,
      evaluated: pass.boundaryTotal - Object.values(skippedBoundaries).reduce((sum, count) => sum + count, 0),
      skippedBoundaries,
    },
    sidecar: {
      rows: inputs.sidecar?.rowCount ?? 0,
      checkpointedConversations: pass.checkpointed,
      keepAllConversations: pass.keepAllConversations,
    },
    assumptions: assumptions(inputs, apis),
    categories: overall,
    webYield: overall.web.yield,
    apis,
  };
}

function assumptions(inputs: ReadInputs, apis: ApiRecord[]): ClearingRecord['assumptions'] {
  const requests = apis.reduce((sum, api) => sum + api.usage.requests, 0);
  const fallbackRequests = apis.reduce((sum, api) => sum + api.usage.fallbackRequests, 0);
  return {
    modeledNotObserved: true,
    retrievalRate: inputs.retrievalRate,
    retrievalRateSource: inputs.suppliedRate === undefined ? 'default-pending-lookup-pilot' : 'supplied',
    retrievalSensitivities: inputs.sensitivities,
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
  };
}
