// Time-range summaries over many transcripts (or logs) analyzed together: totals per UTC day and per model, the
// conversations that cost the most and the findings whose requests cost the most. Each request counts as billed
// when its usage was recorded (recorded prompt, cache figures, output, and their cost at the model's prices), and
// as simulated otherwise; every total says how many of its requests were recorded.
import type { ParsedRequest } from '../model.ts';
import { priceRecorded } from '../cache/cost.ts';
import type { Conversations } from '../cache/conversations.ts';
import type { Finding, FindingCode, Severity } from '../cache/findings.ts';
import type { ScenarioReport } from '../cache/types.ts';
import type { ModelPricing } from '../pricing/types.ts';
import { isoTime, utcDay } from './time.ts';

/** How many conversations and finding codes the summary lists. */
export const SUMMARY_TOP = 10;

export interface SummaryInput {
  requests: readonly ParsedRequest[];
  /** Per request, reconstructed prompt tokens. */
  reconstructed: readonly number[];
  conversations: Conversations;
  pricingOf: (requestIndex: number) => ModelPricing | null;
  actual: ScenarioReport;
  findings: readonly Finding[];
}

export interface SummaryTotals {
  requests: number;
  /** Requests whose figures come from recorded usage (the rest are simulated). */
  recordedRequests: number;
  promptTokens: number;
  cacheRead: number;
  cacheWrite: number;
  /** Recorded output tokens (a request without recorded usage adds 0). */
  output: number;
  /** USD over priced requests. */
  cost: number;
  unpricedRequests: number;
}

export interface DayTotals extends SummaryTotals {
  /** UTC date YYYY-MM-DD, or null for requests without a timestamp. */
  day: string | null;
}

export interface ModelTotals extends SummaryTotals {
  model: string | null;
}

export interface ConversationTotals extends SummaryTotals {
  conversation: number;
  /** Input file of its first request (an index, never a name). */
  file: number;
  /** ISO times of its first and last timestamped request, or null. */
  start: string | null;
  end: string | null;
  models: (string | null)[];
}

export interface FindingTotals {
  code: FindingCode;
  severity: Severity;
  /** Findings with this code (one per located problem). */
  findings: number;
  /** Distinct requests they fired on. */
  requests: number;
  /** USD of those requests, counted once each (recorded where recorded, else simulated). */
  cost: number;
}

export interface TimeRangeSummary {
  /** ISO times of the first and last timestamped request, or null when none has one. */
  start: string | null;
  end: string | null;
  totals: SummaryTotals;
  days: DayTotals[];
  models: ModelTotals[];
  topConversations: ConversationTotals[];
  topFindings: FindingTotals[];
}

interface RequestFigures {
  recorded: boolean;
  prompt: number;
  read: number;
  write: number;
  output: number;
  cost: number | null;
}

const emptyTotals = (): SummaryTotals => ({ requests: 0, recordedRequests: 0, promptTokens: 0, cacheRead: 0, cacheWrite: 0, output: 0, cost: 0, unpricedRequests: 0 });

function add(totals: SummaryTotals, figures: RequestFigures): void {
  totals.requests++;
  if (figures.recorded) totals.recordedRequests++;
  totals.promptTokens += figures.prompt;
  totals.cacheRead += figures.read;
  totals.cacheWrite += figures.write;
  totals.output += figures.output;
  if (figures.cost === null) totals.unpricedRequests++;
  else totals.cost += figures.cost;
}

function figuresOf(input: SummaryInput, r: number): RequestFigures {
  const request = input.requests[r]!;
  const usage = request.recorded;
  if (usage !== null) {
    const write = usage.cacheWrite5m + usage.cacheWrite1h;
    return {
      recorded: true,
      prompt: usage.input + usage.cacheRead + write,
      read: usage.cacheRead,
      write,
      output: usage.output,
      cost: priceRecorded(request, input.pricingOf(r))?.total ?? null,
    };
  }
  const simulated = input.actual.simulation.requests[r];
  return {
    recorded: false,
    // The simulated prompt: the same one its read and write come from, an inferred unrecorded setup included.
    prompt: simulated?.promptTokens ?? input.reconstructed[r] ?? 0,
    read: simulated?.read ?? 0,
    write: (simulated?.write5m ?? 0) + (simulated?.write1h ?? 0),
    output: 0,
    cost: input.actual.costs[r]?.total ?? null,
  };
}

/** Sorts by cost, most expensive first; ties keep their first-seen order (Array.prototype.sort is stable). */
const byCostDescending = <T extends { cost: number }>(a: T, b: T): number => b.cost - a.cost;

export function timeRangeSummary(input: SummaryInput, top: number = SUMMARY_TOP): TimeRangeSummary {
  const totals = emptyTotals();
  const days = new Map<string | null, DayTotals>();
  const models = new Map<string | null, ModelTotals>();
  const conversations = new Map<number, ConversationTotals & { first: number | null; last: number | null }>();
  const figures: RequestFigures[] = [];
  let first: number | null = null;
  let last: number | null = null;

  input.requests.forEach((request, r) => {
    const f = figuresOf(input, r);
    figures.push(f);
    add(totals, f);
    const time = request.timestamp;
    if (time !== null) {
      first = first === null ? time : Math.min(first, time);
      last = last === null ? time : Math.max(last, time);
    }
    const day = utcDay(time);
    let dayTotals = days.get(day);
    if (dayTotals === undefined) days.set(day, (dayTotals = { day, ...emptyTotals() }));
    add(dayTotals, f);
    let modelTotals = models.get(request.model);
    if (modelTotals === undefined) models.set(request.model, (modelTotals = { model: request.model, ...emptyTotals() }));
    add(modelTotals, f);
    const c = input.conversations.conversationOf[r] ?? 0;
    let conversation = conversations.get(c);
    if (conversation === undefined) {
      conversation = { conversation: c, file: request.file, start: null, end: null, models: [], first: null, last: null, ...emptyTotals() };
      conversations.set(c, conversation);
    }
    add(conversation, f);
    if (!conversation.models.includes(request.model)) conversation.models.push(request.model);
    if (time !== null) {
      conversation.first = conversation.first === null ? time : Math.min(conversation.first, time);
      conversation.last = conversation.last === null ? time : Math.max(conversation.last, time);
    }
  });

  const dayList = [...days.values()].sort((a, b) => (a.day === b.day ? 0 : a.day === null ? 1 : b.day === null ? -1 : a.day < b.day ? -1 : 1));
  const topConversations = [...conversations.values()]
    .sort(byCostDescending)
    .slice(0, top)
    .map(({ first: start, last: end, ...rest }) => ({ ...rest, start: isoTime(start), end: isoTime(end) }));
  return {
    start: isoTime(first),
    end: isoTime(last),
    totals,
    days: dayList,
    models: [...models.values()].sort(byCostDescending),
    topConversations,
    topFindings: findingTotals(input.findings, figures).slice(0, top),
  };
}

/** Per finding code: its findings, the distinct requests they fired on and what those requests cost. */
function findingTotals(findings: readonly Finding[], figures: readonly RequestFigures[]): FindingTotals[] {
  const byCode = new Map<FindingCode, { totals: FindingTotals; seen: Set<number> }>();
  for (const finding of findings) {
    let entry = byCode.get(finding.code);
    if (entry === undefined) {
      entry = { totals: { code: finding.code, severity: finding.severity, findings: 0, requests: 0, cost: 0 }, seen: new Set() };
      byCode.set(finding.code, entry);
    }
    entry.totals.findings++;
    for (const r of finding.requests) {
      if (entry.seen.has(r)) continue;
      entry.seen.add(r);
      entry.totals.requests++;
      entry.totals.cost += figures[r]?.cost ?? 0;
    }
  }
  return [...byCode.values()].map((entry) => entry.totals).sort(byCostDescending);
}
