// Observed vs simulated for requests that carry the provider's recorded usage (transcripts above all).
//
// A transcript does not hold everything the agent sent: pi and Claude Code leave out the system prompt and the
// tool definitions, Codex the tool definitions. That part is UNKNOWN; it is never invented. What the evidence does
// give is its size at one request: recorded prompt − reconstructed prompt on the first request of a conversation
// (per model, since another model tokenizes it differently). That "setup inferred from recorded usage" is then
// added to every later request of the same conversation and model, and the agreement of
// reconstructed + setup with the recorded prompt on those later requests measures how well the rest was rebuilt.
//
// Beside it: recorded cache reads and writes vs both simulations, the hit rate per model, the cost of the recorded
// usage vs the simulated cost, and whether idle gaps longer than the cache TTL really emptied the cache.
import type { ParsedRequest } from '../model.ts';
import { providerOf } from '../model.ts';
import { priceRecorded } from '../cache/cost.ts';
import { hasUnrecordedSetup } from '../cache/inferred.ts';
import { predecessors } from '../cache/predecessors.ts';
import { compareObserved, recordedFigures } from '../cache/observed.ts';
import type { Conversations } from '../cache/conversations.ts';
import type { ScenarioReport } from '../cache/types.ts';
import type { ModelPricing } from '../pricing/types.ts';
import { RedactionEstimator } from './redaction.ts';
import { errorStats, type ErrorStats } from './stats.ts';

/** A cache entry counts as still read when the next request reads at least this share of the prompt before it. */
export const READ_KEPT_SHARE = 0.5;
const MINUTE_MS = 60_000;
const TTL_MS = { '5m': 5 * MINUTE_MS, '1h': 60 * MINUTE_MS } as const;

export interface AgreementInput {
  requests: readonly ParsedRequest[];
  /** Per request, reconstructed prompt tokens (segments + overhead). */
  reconstructed: readonly number[];
  /** Per request, tokens per segment (for the redaction estimate). */
  segmentTokens: readonly (readonly number[])[];
  conversations: Conversations;
  /** Requests at which the history was compacted (the cache analysis' `compactions`). */
  compactions: readonly number[];
  pricingOf: (requestIndex: number) => ModelPricing | null;
  actual: ScenarioReport;
  optimized: ScenarioReport;
}

/** One request with recorded usage. */
export interface RequestAgreement {
  request: number;
  conversation: number;
  /** input + cache read + cache writes, as the provider recorded them. */
  recordedPrompt: number;
  reconstructed: number;
  /** Tokens added for redacted text (see redaction.ts); an estimate, 0 when the request has no placeholder. */
  redactedEstimate: number;
  /** The transcript lacks the system prompt and/or the tools: the `setup` below stands for them. */
  setupUnrecorded: boolean;
  /**
   * Unrecorded setup inferred from recorded usage for this request's conversation and model; 0 when nothing is
   * missing; null when no request of its conversation and model has recorded a non-empty prompt yet.
   */
  setup: number | null;
  /** This request is the one `setup` was inferred from (its own agreement is exact by construction). */
  setupSource: boolean;
  /** reconstructed + redactedEstimate + setup, or null when setup is unknown. */
  predicted: number | null;
  /** |predicted − recorded| ÷ recorded on requests after the setup source; null elsewhere. */
  absError: number | null;
}

export interface CacheSplit {
  read: number;
  write5m: number;
  write1h: number;
}

export interface ConversationAgreement {
  conversation: number;
  /** Input file of its first request. */
  file: number;
  requests: number;
  recordedRequests: number;
  setupUnrecorded: boolean;
  /** Setup inferred on its first recorded request (first model), or null. */
  setup: number | null;
  setupSource: number | null;
  errors: ErrorStats;
  recorded: { prompt: number; read: number; write5m: number; write1h: number; output: number };
  /** The same requests' cache figures in the simulation as sent and in the optimized one. */
  simulated: CacheSplit;
  optimized: CacheSplit;
  /** USD of the recorded usage; null when some recorded request's model has no price. */
  recordedCost: number | null;
  simulatedCost: number | null;
}

export interface CacheAgreement {
  /** Requests with recorded usage compared. */
  compared: number;
  /** Both read from the cache or both did not. */
  readAgreements: number;
  readAgreementRate: number | null;
  writeAgreements: number;
}

export interface ModelHitRate {
  model: string | null;
  /** Requests with a non-empty recorded prompt. */
  requests: number;
  /** Requests that read anything from the cache. */
  recordedHits: number;
  simulatedHits: number;
  optimizedHits: number;
  /** Σ cache reads ÷ Σ prompt; null when the prompt sum is 0. */
  recordedReadShare: number | null;
  simulatedReadShare: number | null;
  optimizedReadShare: number | null;
}

export interface TtlAgreement {
  /** Consecutive Anthropic requests of one conversation, both recorded and timestamped. */
  pairs: number;
  /** Gap longer than the TTL the earlier request wrote with (1h when it wrote 1-hour entries, else 5m). */
  beyondTtl: number;
  /** ... and the later request indeed read less than READ_KEPT_SHARE of the earlier prompt. */
  beyondTtlMissed: number;
  withinTtl: number;
  /** ... and the later request read at least READ_KEPT_SHARE of the earlier prompt. */
  withinTtlKept: number;
  /** (beyondTtlMissed + withinTtlKept) ÷ pairs: how often the TTL model predicts the recorded outcome. */
  agreementRate: number | null;
  /** Entries the simulations saw expire by the real timestamps (`entry_expired`). */
  simulatedExpiries: { actual: number; optimized: number };
}

export interface TranscriptAgreement {
  /** Requests with recorded usage. */
  recordedRequests: number;
  /** Of those, requests rebuilt without their system prompt or tools. */
  setupUnrecordedRequests: number;
  /** Reconstructed (+ inferred setup, + redaction estimate) vs recorded prompt, on requests after each setup source. */
  promptErrors: ErrorStats;
  /** The same without the inferred setup: how much of the prompt the transcript alone accounts for. */
  reconstructedOnlyErrors: ErrorStats;
  redaction: { requests: number; placeholders: number; hiddenChars: number; estimatedTokens: number };
  /** Did-it-read-the-cache agreement against the simulation as sent (inferred breakpoints), and the optimized one. */
  cacheActual: CacheAgreement;
  cacheOptimized: CacheAgreement;
  models: ModelHitRate[];
  cost: {
    /** Requests with recorded usage whose model has a price. */
    priced: number;
    unpriced: number;
    recorded: number;
    simulated: number;
    optimized: number;
  };
  ttl: TtlAgreement;
  /** Requests at which the history was compacted: a compaction record, or a shrink (cache/predecessors.ts). */
  compactions: number[];
  /** Per request with recorded usage, in request order. */
  requests: RequestAgreement[];
  conversations: ConversationAgreement[];
}

function cacheAgreement(requests: readonly ParsedRequest[], report: ScenarioReport): CacheAgreement {
  const { compared, readAgreements, readAgreementRate, writeAgreements } = compareObserved(requests, report.simulation);
  return { compared, readAgreements, readAgreementRate, writeAgreements };
}

export function transcriptAgreement(input: AgreementInput): TranscriptAgreement {
  const { requests, conversations } = input;
  const redactions = new RedactionEstimator();
  const setupByGroup = new Map<string, { tokens: number; source: number }>();
  const rows: RequestAgreement[] = [];
  const redaction = { requests: 0, placeholders: 0, hiddenChars: 0, estimatedTokens: 0 };

  requests.forEach((request, r) => {
    if (request.recorded === null) return;
    const recordedPrompt = recordedFigures(request.recorded).prompt;
    const reconstructed = input.reconstructed[r] ?? 0;
    const hidden = redactions.estimate(request, input.segmentTokens[r] ?? []);
    if (hidden.placeholders > 0) {
      redaction.requests++;
      redaction.placeholders += hidden.placeholders;
      redaction.hiddenChars += hidden.hiddenChars;
      redaction.estimatedTokens += hidden.extraTokens;
    }
    const rebuilt = reconstructed + hidden.extraTokens;
    const conversation = conversations.conversationOf[r] ?? 0;
    const unrecorded = hasUnrecordedSetup(request);
    let setup: number | null = 0;
    let setupSource = false;
    if (unrecorded) {
      const group = `${conversation}\u0000${request.model ?? ''}`;
      let known = setupByGroup.get(group);
      // An aborted call records 0 tokens: it says nothing about the setup, so wait for one that does.
      if (known === undefined && recordedPrompt > 0) {
        known = { tokens: recordedPrompt - rebuilt, source: r };
        setupByGroup.set(group, known);
        setupSource = true;
      }
      setup = known?.tokens ?? null;
    }
    const predicted = setup === null ? null : rebuilt + setup;
    rows.push({
      request: r,
      conversation,
      recordedPrompt,
      reconstructed,
      redactedEstimate: hidden.extraTokens,
      setupUnrecorded: unrecorded,
      setup,
      setupSource,
      predicted,
      absError: predicted !== null && !setupSource && recordedPrompt > 0 ? Math.abs(predicted - recordedPrompt) / recordedPrompt : null,
    });
  });

  const predecessorOf = predecessors(requests, conversations);
  const rebuiltOnly = rows.filter((row) => row.recordedPrompt > 0).map((row) => Math.abs(row.reconstructed + row.redactedEstimate - row.recordedPrompt) / row.recordedPrompt);
  return {
    recordedRequests: rows.length,
    setupUnrecordedRequests: rows.filter((row) => row.setupUnrecorded).length,
    promptErrors: errorStats(absErrorsOf(rows)),
    reconstructedOnlyErrors: errorStats(rebuiltOnly),
    redaction,
    cacheActual: cacheAgreement(requests, input.actual),
    cacheOptimized: cacheAgreement(requests, input.optimized),
    models: modelHitRates(input),
    cost: costAgreement(input),
    ttl: ttlAgreement(input, predecessorOf),
    compactions: [...input.compactions],
    requests: rows,
    conversations: conversationAgreements(input, rows),
  };
}

function absErrorsOf(rows: readonly RequestAgreement[]): number[] {
  const errors: number[] = [];
  for (const row of rows) if (row.absError !== null) errors.push(row.absError);
  return errors;
}

function modelHitRates(input: AgreementInput): ModelHitRate[] {
  interface Sums { rate: ModelHitRate; prompt: number; read: number; simPrompt: number; simRead: number; optRead: number; optPrompt: number }
  const byModel = new Map<string | null, Sums>();
  input.requests.forEach((request, r) => {
    // All-zero usage is an aborted call nobody billed: left out, as in compareObserved.
    if (request.recorded === null || recordedFigures(request.recorded).prompt === 0) return;
    const simulated = input.actual.simulation.requests[r];
    const optimized = input.optimized.simulation.requests[r];
    let sums = byModel.get(request.model);
    if (sums === undefined) {
      sums = {
        rate: { model: request.model, requests: 0, recordedHits: 0, simulatedHits: 0, optimizedHits: 0, recordedReadShare: null, simulatedReadShare: null, optimizedReadShare: null },
        prompt: 0, read: 0, simPrompt: 0, simRead: 0, optRead: 0, optPrompt: 0,
      };
      byModel.set(request.model, sums);
    }
    const figures = recordedFigures(request.recorded);
    sums.rate.requests++;
    if (figures.read > 0) sums.rate.recordedHits++;
    if (simulated?.hit === true) sums.rate.simulatedHits++;
    if (optimized?.hit === true) sums.rate.optimizedHits++;
    sums.prompt += figures.prompt;
    sums.read += figures.read;
    sums.simPrompt += simulated?.promptTokens ?? 0;
    sums.simRead += simulated?.read ?? 0;
    sums.optPrompt += optimized?.promptTokens ?? 0;
    sums.optRead += optimized?.read ?? 0;
  });
  const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);
  return [...byModel.values()].map((sums) => ({
    ...sums.rate,
    recordedReadShare: share(sums.read, sums.prompt),
    simulatedReadShare: share(sums.simRead, sums.simPrompt),
    optimizedReadShare: share(sums.optRead, sums.optPrompt),
  }));
}

function costAgreement(input: AgreementInput): TranscriptAgreement['cost'] {
  const cost = { priced: 0, unpriced: 0, recorded: 0, simulated: 0, optimized: 0 };
  input.requests.forEach((request, r) => {
    const recorded = priceRecorded(request, input.pricingOf(r));
    if (recorded === null) return;
    const simulated = input.actual.costs[r]?.total ?? null;
    const optimized = input.optimized.costs[r]?.total ?? null;
    if (recorded.total === null || simulated === null || optimized === null) {
      cost.unpriced++;
      return;
    }
    cost.priced++;
    cost.recorded += recorded.total;
    cost.simulated += simulated;
    cost.optimized += optimized;
  });
  return cost;
}

function ttlAgreement(input: AgreementInput, predecessorOf: readonly (number | null)[]): TtlAgreement {
  const ttl: TtlAgreement = {
    pairs: 0,
    beyondTtl: 0,
    beyondTtlMissed: 0,
    withinTtl: 0,
    withinTtlKept: 0,
    agreementRate: null,
    simulatedExpiries: { actual: expiriesIn(input.actual), optimized: expiriesIn(input.optimized) },
  };
  input.requests.forEach((request, r) => {
    const before = predecessorOf[r];
    if (before === null || before === undefined) return;
    const earlier = input.requests[before]!;
    if (providerOf(request.format) !== 'anthropic' || earlier.recorded === null || request.recorded === null) return;
    if (request.timestamp === null || earlier.timestamp === null) return;
    const earlierPrompt = recordedFigures(earlier.recorded).prompt;
    if (earlierPrompt === 0 || recordedFigures(request.recorded).prompt === 0) return;
    const limit = earlier.recorded.cacheWrite1h > 0 ? TTL_MS['1h'] : TTL_MS['5m'];
    const kept = request.recorded.cacheRead >= READ_KEPT_SHARE * earlierPrompt;
    ttl.pairs++;
    if (request.timestamp - earlier.timestamp > limit) {
      ttl.beyondTtl++;
      if (!kept) ttl.beyondTtlMissed++;
    } else {
      ttl.withinTtl++;
      if (kept) ttl.withinTtlKept++;
    }
  });
  ttl.agreementRate = ttl.pairs > 0 ? (ttl.beyondTtlMissed + ttl.withinTtlKept) / ttl.pairs : null;
  return ttl;
}

function expiriesIn(report: ScenarioReport): number {
  let count = 0;
  for (const result of report.simulation.requests) for (const event of result.events) if (event.code === 'entry_expired') count++;
  return count;
}

function addSplit(split: CacheSplit, result: { read: number; write5m: number; write1h: number } | undefined): void {
  if (result === undefined) return;
  split.read += result.read;
  split.write5m += result.write5m;
  split.write1h += result.write1h;
}

function conversationAgreements(input: AgreementInput, rows: readonly RequestAgreement[]): ConversationAgreement[] {
  const list: ConversationAgreement[] = [];
  const errorsOf: number[][] = [];
  const costComplete: boolean[] = [];
  const ensure = (conversation: number, request: ParsedRequest): ConversationAgreement => {
    let entry = list[conversation];
    if (entry === undefined) {
      entry = {
        conversation,
        file: request.file,
        requests: 0,
        recordedRequests: 0,
        setupUnrecorded: false,
        setup: null,
        setupSource: null,
        errors: errorStats([]),
        recorded: { prompt: 0, read: 0, write5m: 0, write1h: 0, output: 0 },
        simulated: { read: 0, write5m: 0, write1h: 0 },
        optimized: { read: 0, write5m: 0, write1h: 0 },
        recordedCost: 0,
        simulatedCost: 0,
      };
      list[conversation] = entry;
      errorsOf[conversation] = [];
      costComplete[conversation] = true;
    }
    return entry;
  };
  input.requests.forEach((request, r) => {
    const entry = ensure(input.conversations.conversationOf[r] ?? 0, request);
    entry.requests++;
  });
  for (const row of rows) {
    const request = input.requests[row.request]!;
    const entry = ensure(row.conversation, request);
    const usage = request.recorded!;
    entry.recordedRequests++;
    entry.setupUnrecorded ||= row.setupUnrecorded;
    if (row.setupSource && entry.setupSource === null) {
      entry.setup = row.setup;
      entry.setupSource = row.request;
    }
    if (row.absError !== null) errorsOf[row.conversation]!.push(row.absError);
    entry.recorded.prompt += row.recordedPrompt;
    entry.recorded.read += usage.cacheRead;
    entry.recorded.write5m += usage.cacheWrite5m;
    entry.recorded.write1h += usage.cacheWrite1h;
    entry.recorded.output += usage.output;
    addSplit(entry.simulated, input.actual.simulation.requests[row.request]);
    addSplit(entry.optimized, input.optimized.simulation.requests[row.request]);
    const recordedCost = priceRecorded(request, input.pricingOf(row.request))?.total ?? null;
    const simulatedCost = input.actual.costs[row.request]?.total ?? null;
    if (recordedCost === null || simulatedCost === null) costComplete[row.conversation] = false;
    else {
      entry.recordedCost = (entry.recordedCost ?? 0) + recordedCost;
      entry.simulatedCost = (entry.simulatedCost ?? 0) + simulatedCost;
    }
  }
  // Conversation numbers are dense (0..count-1); a sparse slot cannot occur, but filter to keep the type honest.
  return list
    .filter((entry): entry is ConversationAgreement => entry !== undefined)
    .map((entry) => ({
      ...entry,
      errors: errorStats(errorsOf[entry.conversation] ?? []),
      ...((entry.recordedRequests === 0 || costComplete[entry.conversation] === false) && { recordedCost: null, simulatedCost: null }),
    }));
}
