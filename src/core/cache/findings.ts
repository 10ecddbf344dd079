// Rule-based findings: deterministic checks over the request sequence, the conversation pairing, the prefix
// comparisons, the cache simulation and the near-duplicate groups. Each is located (requests, segment path) and
// carries a concrete fix; a problem that recurs is reported once with its request ranges.
//
// Privacy: `message`, `fix` and `segmentPath` hold no payload text (paths, positions, counts, model ids only).
// Tool names and similar labels go to `detail`, which views show only when the user asks for content.
import type { ParsedRequest, Segment } from '../model.ts';
import type { ModelPricing } from '../pricing/types.ts';
import { LOOKBACK_POSITIONS, MAX_BREAKPOINTS } from './anthropic.ts';
import { setupSegmentIndices, type Conversations } from './conversations.ts';
import type { NearDuplicateGroup } from './near-duplicates.ts';
import { canonicalJson, normalizeVolatile } from './normalize.ts';
import { comparePrefix, prefixTokensThrough } from './prefix.ts';
import type { TtlWhatIf } from './misses.ts';
import type { CostComparison, RequestCacheResult, SimulationEventCode } from './types.ts';
import { formatCount, formatFraction, formatUsd } from '../text/format.ts';

export type Severity = 'error' | 'warning' | 'info';

export const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export type FindingCode =
  | 'volatile_value_in_prefix'
  | 'tools_reordered'
  | 'tool_schema_key_order'
  | 'model_changed'
  | 'prefix_below_minimum'
  | 'breakpoint_before_change'
  | 'no_breakpoint'
  | 'missing_tail_breakpoint'
  | 'too_many_breakpoints'
  | 'lookback_exceeded'
  | 'near_duplicate_content'
  | 'automatic_ttl_conflict'
  | 'automatic_no_eligible_block'
  | 'ttl_order'
  | 'entry_expired'
  | 'openai_explicit_no_breakpoint'
  | 'potential_savings'
  | 'idle_gap_ttl';

/** Every code with its severity; the order is the order of docs/cache.md and of findings that tie. */
export const FINDING_SEVERITY: Record<FindingCode, Severity> = {
  too_many_breakpoints: 'error',
  automatic_ttl_conflict: 'error',
  ttl_order: 'error',
  openai_explicit_no_breakpoint: 'warning',
  volatile_value_in_prefix: 'warning',
  tools_reordered: 'warning',
  tool_schema_key_order: 'warning',
  model_changed: 'warning',
  breakpoint_before_change: 'warning',
  no_breakpoint: 'warning',
  missing_tail_breakpoint: 'warning',
  lookback_exceeded: 'warning',
  prefix_below_minimum: 'warning',
  automatic_no_eligible_block: 'warning',
  entry_expired: 'info',
  near_duplicate_content: 'info',
  potential_savings: 'info',
  idle_gap_ttl: 'info',
};

const CODE_ORDER = Object.keys(FINDING_SEVERITY) as FindingCode[];

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** 0-based request indices the finding fired on, ascending. */
  requests: number[];
  /** JSON path of the block it is about in the first of those requests, or null for the whole request. */
  segmentPath: string | null;
  /** What is wrong, with request numbers (1-based, as every view shows them), paths, positions and counts. */
  message: string;
  /** What to change. */
  fix: string;
  /** Payload-derived labels (tool names) for views that show content on request; never written to JSON. */
  detail: string | null;
}

export interface FindingsInput {
  requests: readonly ParsedRequest[];
  conversations: Conversations;
  /** Per request, tokens of each segment, aligned with `segments`. */
  segmentTokens: readonly (readonly number[])[];
  overheadTokens: readonly number[];
  /** Per request, the overhead each segment carries (SimulationInput `framingTokens`). */
  framingTokens?: readonly (readonly number[])[];
  pricingOf: (requestIndex: number) => ModelPricing | null;
  /** The actual and optimized simulations with their costs (H7b's costScenarios). */
  costs: CostComparison;
  nearDuplicates: readonly NearDuplicateGroup[];
  /** Requests whose cache breakpoints the log does not record (rebuilt from a transcript). */
  breakpointsUnknown?: (requestIndex: number) => boolean;
  /** The 1-hour TTL what-if over the idle gaps that emptied 5-minute entries (misses.ts), when there were any. */
  ttlWhatIf?: TtlWhatIf | null;
}

/** Share of the actual cost the optimized scenario saves at which missing_tail_breakpoint becomes a warning. */
export const SAVINGS_WARNING_FRACTION = 0.1;
/** Costs are shown to 4 decimals: a gap smaller than half a unit there is "the same cost". */
export const COST_ROUNDING = 0.00005;

export function findFindings(input: FindingsInput): Finding[] {
  const groups = new FindingGroups();
  const { requests, conversations } = input;
  const normalized = new NormalizedWires();

  for (let r = 0; r < requests.length; r++) {
    const compared = conversations.continues[r];
    const link = conversations.kind[r];
    if (compared === null || compared === undefined) continue;
    const older = requests[compared]!;
    const newer = requests[r]!;
    const explained = checkSetupChanges(groups, older, newer, r, normalized);
    if (link === 'continues' || link === 'edited') {
      checkModelChange(groups, input, older, newer, r, compared, link);
      checkBreakpointBeforeChange(groups, input, older, newer, r, compared, explained);
    } else if (link === 'same-setup') checkModelChange(groups, input, older, newer, r, compared, link);
  }
  checkSimulationEvents(groups, input);
  checkCostGap(groups, input);
  checkNearDuplicates(groups, input);
  checkIdleGaps(groups, input);
  return groups.findings();
}

/** True when the two sides differ in some way the rules below recognize (and report). */
type Explained = boolean;

/**
 * canonicalJson and normalizeVolatile of each distinct wire, once per findFindings call: a system prompt that
 * changes every request (the case these rules exist for) would otherwise be parsed, re-serialized and scanned by
 * three regexes twice per request, which showed as the top regex in profiles of the flagship example.
 */
class NormalizedWires {
  private readonly canonical = new Map<string, string>();
  private readonly volatileFree = new Map<string, string>();

  canonicalOf(wire: string): string {
    let known = this.canonical.get(wire);
    if (known === undefined) {
      known = canonicalJson(wire);
      this.canonical.set(wire, known);
    }
    return known;
  }

  /** normalizeVolatile(canonicalOf(wire)). */
  withoutVolatileValues(wire: string): string {
    let known = this.volatileFree.get(wire);
    if (known === undefined) {
      known = normalizeVolatile(this.canonicalOf(wire));
      this.volatileFree.set(wire, known);
    }
    return known;
  }
}

/**
 * System prompt, instructions and tool definitions compared between a request and the one it is compared with:
 * volatile values, a reordered tool list, schema key order drift. Returns whether a difference was explained.
 */
function checkSetupChanges(
  groups: FindingGroups,
  older: ParsedRequest,
  newer: ParsedRequest,
  r: number,
  normalized: NormalizedWires,
): Explained {
  let explained = false;
  const olderByPath = new Map<string, Segment>();
  for (const index of setupSegmentIndices(older)) {
    const segment = older.segments[index]!;
    if (segment.category !== 'tools') olderByPath.set(segment.path, segment);
  }
  const olderTools = older.segments.filter((s) => s.category === 'tools');
  const newerTools = newer.segments.filter((s) => s.category === 'tools');
  const olderToolByName = new Map(olderTools.map((s) => [s.toolName ?? s.path, s]));

  for (const index of setupSegmentIndices(newer)) {
    const segment = newer.segments[index]!;
    const before =
      segment.category === 'tools' ? olderToolByName.get(segment.toolName ?? segment.path) : olderByPath.get(segment.path);
    if (before === undefined || before.wire === segment.wire) continue;
    if (normalized.canonicalOf(before.wire) === normalized.canonicalOf(segment.wire)) {
      if (segment.category !== 'tools') continue;
      explained = true;
      groups.add({
        code: 'tool_schema_key_order',
        key: segment.path,
        request: r,
        segmentPath: segment.path,
        detail: segment.toolName,
        render: (when) => ({
          message: `Tool definition ${segment.path} serializes its keys in a different order than the request it follows (${when}); the cache compares bytes, so tools, system and messages all miss.`,
          fix: 'Serialize tool schemas with a stable key order (build them once, or sort keys) so the bytes never change between requests.',
        }),
      });
    } else if (normalized.withoutVolatileValues(before.wire) === normalized.withoutVolatileValues(segment.wire)) {
      explained = true;
      const where = segment.category === 'tools' ? 'A tool definition' : 'The system prompt';
      const model = newer.model ?? '';
      groups.add({
        code: 'volatile_value_in_prefix',
        key: segment.path,
        request: r,
        segmentPath: segment.path,
        detail: null,
        render: (when) => ({
          message: `${where} (${segment.path}) contains a value that changes every request: a timestamp, UUID or epoch number (${when}). Everything after it misses the cache.`,
          fix: volatileFix(newer, model),
        }),
      });
    }
  }

  const reorder = toolReorder(olderTools, newerTools);
  if (reorder !== null) {
    explained = true;
    const positions = reorder.first === reorder.last ? `position ${reorder.first + 1}` : `positions ${reorder.first + 1}–${reorder.last + 1}`;
    groups.add({
      code: 'tools_reordered',
      key: positions,
      request: r,
      segmentPath: newerTools[reorder.first]?.path ?? null,
      detail: `[${reorder.before.join(', ')}] → [${reorder.after.join(', ')}]`,
      render: (when) => ({
        message: `Tools reordered at ${positions} of the tool list (${when}): the same tools in another order are a different prefix, so nothing after them is read from the cache.`,
        fix: 'Send the tool list in a deterministic order (e.g. sorted by name), not the iteration order of a map or set.',
      }),
    });
  }
  return explained;
}

/** The smallest window where two tool lists with the same names differ in order, or null. */
function toolReorder(
  older: readonly Segment[],
  newer: readonly Segment[],
): { first: number; last: number; before: string[]; after: string[] } | null {
  if (older.length !== newer.length || older.length < 2) return null;
  const namesBefore = older.map((s) => s.toolName ?? s.path);
  const namesAfter = newer.map((s) => s.toolName ?? s.path);
  // Same order (the usual case) is answered before sorting and joining both lists.
  let first = 0;
  while (first < namesBefore.length && namesBefore[first] === namesAfter[first]) first++;
  if (first === namesBefore.length) return null;
  if ([...namesBefore].sort().join('\u0000') !== [...namesAfter].sort().join('\u0000')) return null;
  let last = namesBefore.length - 1;
  while (namesBefore[last] === namesAfter[last]) last--;
  return { first, last, before: namesBefore.slice(first, last + 1), after: namesAfter.slice(first, last + 1) };
}

/** Models that keep the cache valid when a change moves into a `{"role":"system"}` message inside messages. */
const MID_CONVERSATION_SYSTEM_MODELS = [
  /^claude-opus-4-8/,
  /^claude-opus-5(?!\d)/,
  /^claude-fable-5/,
  /^claude-mythos-5/,
];

function acceptsMidConversationSystem(model: string): boolean {
  const id = model.replace(/^(?:us|eu|apac|global)\./, '').replace(/^anthropic\./, '');
  return MID_CONVERSATION_SYSTEM_MODELS.some((pattern) => pattern.test(id));
}

function volatileFix(request: ParsedRequest, model: string): string {
  const base =
    'Keep the prefix byte-identical: drop the value, round it (e.g. to the day), or move it after the last cache breakpoint';
  if (request.format !== 'anthropic-messages') return `${base}, e.g. into the latest user message.`;
  if (acceptsMidConversationSystem(model)) {
    return `${base}: on ${model} a {"role":"system"} message at the end of messages carries it without invalidating the cache.`;
  }
  return `${base}, e.g. into the latest user message (${model || 'this model'} does not keep the cache across a mid-conversation system message).`;
}

/**
 * A request on another model than the request it is compared with. Caches are per model (the simulation's
 * `cacheScope`: the priced id, so a dated snapshot and its alias are one model). Within a conversation that is
 * always a loss; between two conversations sharing a setup, only when the shared prefix was large enough to be
 * cached and this request did not read it.
 */
function checkModelChange(
  groups: FindingGroups,
  input: FindingsInput,
  older: ParsedRequest,
  newer: ParsedRequest,
  r: number,
  compared: number,
  link: 'continues' | 'edited' | 'same-setup',
): void {
  if (older.model === null || newer.model === null) return;
  const simulated = input.costs.actual.simulation.requests;
  const olderScope = simulated[compared]?.cacheScope ?? older.model;
  const newerScope = simulated[r]?.cacheScope ?? newer.model;
  if (olderScope === newerScope) return;
  if (link === 'same-setup' && !lostSharedPrefix(input, older, newer, r)) return;
  const from = older.model;
  const to = newer.model;
  const where = link === 'same-setup' ? 'between conversations that share a setup' : 'mid-conversation';
  const lost = link === 'same-setup' ? 'the shared setup is re-sent uncached' : 'the whole prompt is re-sent uncached';
  groups.add({
    code: 'model_changed',
    key: `${from}\u0000${to}`,
    request: r,
    segmentPath: null,
    detail: null,
    render: (when) => ({
      message: `Model changed ${where} from ${from} to ${to} (${when}, first after request ${compared + 1}); caches are per model, so ${lost}.`,
      fix: 'Keep a conversation on one model; send side tasks (titles, summaries, classification) as separate short requests instead of switching the conversation.',
    }),
  });
}

/** Whether the prefix two requests share was cacheable on the newer request's model and it read less than that. */
function lostSharedPrefix(input: FindingsInput, older: ParsedRequest, newer: ParsedRequest, r: number): boolean {
  const common = comparePrefix(older.segments, newer.segments).commonSegments;
  if (common === 0) return false;
  const shared = prefixTokensThrough(input, r, common);
  const minimum = input.pricingOf(r)?.minCacheableTokens ?? 1024;
  return shared >= minimum && (input.costs.actual.simulation.requests[r]?.read ?? 0) < shared;
}

/**
 * A request whose breakpoints all sit after the first block that changed since the request it continues: the
 * unchanged prefix before the change is never written where this request could read it. Skipped when the change
 * is already explained by a volatile value, a reorder or key-order drift (those findings carry the fix).
 */
function checkBreakpointBeforeChange(
  groups: FindingGroups,
  input: FindingsInput,
  older: ParsedRequest,
  newer: ParsedRequest,
  r: number,
  compared: number,
  explained: Explained,
): void {
  if (explained || newer.format !== 'anthropic-messages') return;
  const simulated = input.costs.actual.simulation.requests[r];
  if (simulated === undefined || simulated.hit || simulated.rejected || simulated.breakpoints.length === 0) return;
  const { firstChange } = comparePrefix(older.segments, newer.segments);
  if (firstChange === null || firstChange === 0 || firstChange >= newer.segments.length) return;
  if (simulated.breakpoints.some((bp) => bp.segment < firstChange)) return;
  const stableTokens = prefixTokensThrough(input, r, firstChange);
  const minimum = input.pricingOf(r)?.minCacheableTokens ?? 0;
  if (stableTokens < minimum) return;
  const changed = newer.segments[firstChange]!;
  const stable = newer.segments[firstChange - 1]!;
  groups.add({
    code: 'breakpoint_before_change',
    key: changed.path,
    request: r,
    segmentPath: changed.path,
    detail: null,
    render: (when) => ({
      message: `Every cache breakpoint sits after ${changed.path}, which differs from the request it follows (${when}, first after request ${compared + 1}); the ≈${formatCount(stableTokens)} unchanged tokens before it are never read.`,
      fix: `Add a cache_control breakpoint on ${stable.path}, the last block that stays the same, or move the changing block after the breakpoint.`,
    }),
  });
}

/** Findings raised from a simulation diagnostic. */
type EventFindingCode =
  | 'too_many_breakpoints'
  | 'automatic_ttl_conflict'
  | 'automatic_no_eligible_block'
  | 'prefix_below_minimum'
  | 'lookback_exceeded'
  | 'ttl_order'
  | 'entry_expired'
  | 'openai_explicit_no_breakpoint'
  | 'no_breakpoint';

const EVENT_FINDINGS: Record<SimulationEventCode, EventFindingCode> = {
  too_many_breakpoints: 'too_many_breakpoints',
  automatic_ttl_conflict: 'automatic_ttl_conflict',
  automatic_no_eligible_block: 'automatic_no_eligible_block',
  breakpoint_below_minimum: 'prefix_below_minimum',
  lookback_exceeded: 'lookback_exceeded',
  ttl_order: 'ttl_order',
  entry_expired: 'entry_expired',
  explicit_no_breakpoint: 'openai_explicit_no_breakpoint',
  no_breakpoint: 'no_breakpoint',
};

/** Diagnostics the actual-scenario simulation raised, one finding per code and location. */
function checkSimulationEvents(groups: FindingGroups, input: FindingsInput): void {
  const unknown = input.breakpointsUnknown ?? (() => false);
  // A request nothing later builds on gains nothing from a breakpoint (the write is never read): no advice to add one.
  const followed = new Set<number>();
  for (const compared of input.conversations.continues) if (compared !== null) followed.add(compared);
  for (const result of input.costs.actual.simulation.requests) {
    const r = result.requestIndex;
    const request = input.requests[r];
    if (request === undefined) continue;
    for (const event of result.events) {
      const code = EVENT_FINDINGS[event.code];
      const path = event.segment === null ? null : (request.segments[event.segment]?.path ?? null);
      const pricing = input.pricingOf(r);
      if (code === 'no_breakpoint' && (unknown(r) || !followed.has(r) || result.promptTokens < (pricing?.minCacheableTokens ?? 0))) continue;
      const openai = result.provider === 'openai';
      const text = eventText(code, path, pricing, result);
      // A rolling breakpoint moves every turn: message blocks group together, setup blocks by their path.
      const segment = event.segment === null ? undefined : request.segments[event.segment];
      const place = segment === undefined ? '' : segment.messageIndex < 0 ? segment.path : 'messages';
      groups.add({
        code,
        key: `${place}\u0000${pricing?.id ?? request.model ?? ''}\u0000${result.provider}`,
        request: r,
        segmentPath: path,
        detail: null,
        render: openai && code === 'too_many_breakpoints' ? openaiTooMany : text,
        value: event.value,
        // OpenAI's explicit mode uses the latest 4 and ignores the rest: a waste, not a rejected request.
        ...(openai && code === 'too_many_breakpoints' && { severity: 'warning' as const }),
      });
    }
  }
}

type Render = (when: string, values: readonly number[]) => { message: string; fix: string };

const openaiTooMany: Render = (when, values) => ({
  message: `${Math.max(...values)} prompt_cache_breakpoint markers in explicit mode (${when}); only the latest ${MAX_BREAKPOINTS} are used, the rest are ignored.`,
  fix: `Keep at most ${MAX_BREAKPOINTS} breakpoints: one after the stable prefix and one on the latest turn.`,
});

function eventText(
  code: EventFindingCode,
  path: string | null,
  pricing: ModelPricing | null,
  result: RequestCacheResult,
): Render {
  const at = path === null ? '' : ` at ${path}`;
  // For lookback and expiry the event names the block where the earlier entry ends, not a breakpoint.
  const ending = path === null ? '' : ` (ending at ${path})`;
  const modelName = pricing?.displayName ?? 'this model';
  switch (code) {
    case 'too_many_breakpoints':
      return (when, values) => ({
        message: `${Math.max(...values)} cache breakpoints in one request (${when}); the API allows ${MAX_BREAKPOINTS}, automatic caching included, and answers 400.`,
        fix: `Keep at most ${MAX_BREAKPOINTS} cache_control markers: one on the stable prefix (system/tools) and one rolling on the latest turn is enough; remove markers left on older turns.`,
      });
    case 'automatic_ttl_conflict':
      return (when) => ({
        message: `Top-level cache_control has a different TTL from the marker already on the last block${at} (${when}); the API answers 400.`,
        fix: 'Give the top-level cache_control the same ttl as the explicit marker on the last block, or drop one of them.',
      });
    case 'automatic_no_eligible_block':
      return (when) => ({
        message: `Top-level cache_control but no block that can carry a breakpoint (${when}), so nothing is cached.`,
        fix: 'Automatic caching needs a cacheable last block (not thinking or empty text); end the request with a text, tool_use or tool_result block.',
      });
    case 'prefix_below_minimum':
      return (when, values) => ({
        message: `Cache breakpoint${at} covers a prefix of ≈${formatCount(Math.max(...values))} tokens, below ${modelName}'s ${formatCount(pricing?.minCacheableTokens ?? 0)}-token minimum (${when}); it silently never caches.`,
        fix: `Place the breakpoint where the prefix reaches ${formatCount(pricing?.minCacheableTokens ?? 0)} tokens (a later block), or drop it.`,
      });
    case 'lookback_exceeded':
      return (when, values) => ({
        message: `A cache entry an earlier request wrote${ending} lies ${Math.max(...values)} positions before the next breakpoint, beyond the ${LOOKBACK_POSITIONS}-position lookback, so it is not read (${when}).`,
        fix: `Add a breakpoint at most ${LOOKBACK_POSITIONS} blocks after the previous one, e.g. a rolling breakpoint on the latest turn of every request.`,
      });
    case 'ttl_order':
      return (when) => ({
        message: `A 1-hour breakpoint${at} comes after a 5-minute one (${when}); every 1h entry must precede every 5m entry.`,
        fix: 'Put the ttl "1h" markers on earlier blocks than the 5-minute ones (stable prefix 1h, rolling tail 5m).',
      });
    case 'entry_expired':
      return (when) => ({
        message: `The longest matching cache entry${ending} had expired by the time of the request (${when}).`,
        fix: 'If requests are minutes apart, use ttl "1h" on the stable prefix, or keep the cache warm with a request inside the TTL.',
      });
    case 'openai_explicit_no_breakpoint':
      return (when) => ({
        message: `prompt_cache_options.mode is "explicit" but the request has no prompt_cache_breakpoint (${when}), so nothing is cached.`,
        fix: 'Add "prompt_cache_breakpoint":{"mode":"explicit"} to the last stable content part, or use the implicit mode.',
      });
    case 'no_breakpoint':
      return (when) => ({
        message: `No cache breakpoint at all (${when}): nothing is ever written to the cache, so every request pays full price for its ≈${formatCount(result.promptTokens)}+ token prompt.`,
        fix: 'Add a top-level "cache_control":{"type":"ephemeral"} (automatic caching on the growing tail), or a marker on the last system block and one on the latest message.',
      });
  }
}

/**
 * The simulation's own actual-vs-optimized gap: requests that would cost less with a trailing breakpoint get
 * missing_tail_breakpoint; if the gap remains unexplained by any finding, potential_savings says so. Either way
 * the findings never say "nothing to fix" while the optimized cost is lower.
 */
/** Observed idle gaps that emptied 5-minute entries, with the 1-hour TTL trade-off priced on what was paid. */
function checkIdleGaps(groups: FindingGroups, input: FindingsInput): void {
  const whatIf = input.ttlWhatIf;
  if (whatIf === null || whatIf === undefined) return;
  const net = whatIf.saved - whatIf.extraWrites;
  const paid = input.costs.billed.totals.total;
  const severity: Severity = net > 0 && paid > 0 && net / paid >= SAVINGS_WARNING_FRACTION ? 'warning' : 'info';
  for (const r of whatIf.requests) {
    groups.add({
      code: 'idle_gap_ttl',
      key: '',
      request: r,
      segmentPath: null,
      detail: null,
      severity,
      render: (when) => ({
        message:
          `${whatIf.gaps} idle gap${whatIf.gaps === 1 ? '' : 's'} over 5 minutes (${when}) re-wrote ${formatCount(whatIf.tokens)} tokens: ${formatUsd(whatIf.cost)}; ` +
          `a 1-hour TTL would have cost ${formatUsd(whatIf.extraWrites)} more in writes and saved ${formatUsd(whatIf.saved)}.`,
        fix:
          net > 0
            ? 'Write the rolling breakpoint with a 1-hour TTL (`cache_control: {"type": "ephemeral", "ttl": "1h"}`; pi: `cacheRetention: "long"`) when pauses exceed 5 minutes.'
            : 'Keep the 5-minute TTL: 1-hour writes would cost more than these pauses lose.',
      }),
    });
  }
}

function checkCostGap(groups: FindingGroups, input: FindingsInput): void {
  const { actual, optimized, potentialSavings, savingsFraction } = input.costs;
  if (potentialSavings < COST_ROUNDING) return;
  // Where the log does not record breakpoints, the actual scenario's "no breakpoint" is an assumption, not a fact.
  const unknown = input.breakpointsUnknown ?? (() => false);
  const percent = formatFraction(savingsFraction);
  const summary = `fixing the findings would lower the actual cost by ${percent} (${formatUsd(input.costs.billed.totals.total)} → ${formatUsd(input.costs.optimizedCost)})`;
  const severity: Severity = savingsFraction >= SAVINGS_WARNING_FRACTION ? 'warning' : 'info';

  const tailless: number[] = [];
  for (const result of actual.simulation.requests) {
    const r = result.requestIndex;
    const request = input.requests[r];
    if (request === undefined || request.format !== 'anthropic-messages' || result.rejected || unknown(r)) continue;
    if (result.breakpoints.length === 0) continue; // no_breakpoint covers it
    const lastCacheable = lastCacheableSegment(request);
    if (lastCacheable === null || result.breakpoints.some((bp) => bp.segment === lastCacheable)) continue;
    const before = actual.costs[r]?.total;
    const after = optimized.costs[r]?.total;
    if (before === null || before === undefined || after === null || after === undefined || before - after < COST_ROUNDING / 10) continue;
    tailless.push(r);
  }
  for (const r of tailless) {
    groups.add({
      code: 'missing_tail_breakpoint',
      key: '',
      request: r,
      segmentPath: null,
      detail: null,
      severity,
      render: (when) => ({
        message: `No cache breakpoint on the conversation tail (${when}): each turn re-sends the history after the last breakpoint uncached; ${summary}.`,
        fix: 'Add a rolling breakpoint on the latest block of every request (top-level "cache_control":{"type":"ephemeral"} does this), next to the one on the stable prefix.',
      }),
    });
  }
  if (!COST_EXPLAINING.some((code) => groups.has(code))) {
    const saving: number[] = [];
    actual.costs.forEach((cost, r) => {
      const after = optimized.costs[r]?.total;
      if (unknown(r)) return;
      if (cost.total !== null && after !== null && after !== undefined && cost.total - after >= COST_ROUNDING / 10) saving.push(r);
    });
    for (const r of saving) {
      groups.add({
        code: 'potential_savings',
        key: '',
        request: r,
        segmentPath: null,
        detail: null,
        severity,
        render: (when) => ({
          message: `The optimized scenario costs less (${when}): ${summary}, though no rule that explains the difference matched.`,
          fix: 'Compare the actual and optimized cache tables for these requests: normalized values, sorted keys and tools, and a tail breakpoint make the difference.',
        }),
      });
    }
  }
}

/** Findings whose fix the optimized scenario models: one of them accounts for a cost gap. */
const COST_EXPLAINING: readonly FindingCode[] = [
  'volatile_value_in_prefix',
  'tools_reordered',
  'tool_schema_key_order',
  'missing_tail_breakpoint',
  'no_breakpoint',
];

function lastCacheableSegment(request: ParsedRequest): number | null {
  for (let i = request.segments.length - 1; i >= 0; i--) if (request.segments[i]!.cacheable) return i;
  return null;
}

/**
 * One finding for all near-duplicate groups (each conversation's last request is scanned once, so they are
 * distinct occurrences of one problem); the groups themselves are listed in the report's duplicates section.
 */
function checkNearDuplicates(groups: FindingGroups, input: FindingsInput): void {
  for (const group of input.nearDuplicates) {
    const request = input.requests[group.requestIndex];
    if (request === undefined) continue;
    const tokens = input.segmentTokens[group.requestIndex] ?? [];
    // Every copy after the first is the repeat.
    let repeated = 0;
    for (const segment of group.segments.slice(1)) repeated += tokens[segment] ?? 0;
    const paths = group.segments.map((s) => request.segments[s]?.path ?? `#${s}`);
    groups.add({
      code: 'near_duplicate_content',
      key: '',
      request: group.requestIndex,
      segmentPath: paths[0] ?? null,
      detail: null,
      value: repeated,
      render: (when, values) => ({
        message:
          values.length === 1
            ? `${paths.length} blocks with near-identical content (Jaccard ≥ ${group.similarity.toFixed(2)}) in ${when}: ${paths.join(', ')}; ≈${formatCount(repeated)} tokens repeated.`
            : `${values.length} groups of blocks with near-identical content (Jaccard ≥ 0.85) in the last request of their conversation (${when}); ≈${formatCount(values.reduce((a, b) => a + b, 0))} tokens repeated.`,
        fix: 'Refer back to the earlier copy instead of fetching the same file or output again, or clear the older tool result once it is superseded.',
      }),
    });
  }
}

/** "request 3", "requests 2–24, 23×", "requests 2–4, 7, 9–10, 6×" (1-based). */
export function describeRequests(indices: readonly number[]): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  if (sorted.length === 1) return `request ${sorted[0]! + 1}`;
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    ranges.push(i === j ? `${sorted[i]! + 1}` : `${sorted[i]! + 1}–${sorted[j]! + 1}`);
    i = j + 1;
  }
  return `requests ${ranges.join(', ')}, ${sorted.length}×`;
}

interface Occurrence {
  code: FindingCode;
  /** Occurrences with the same code and key are one finding. */
  key: string;
  request: number;
  segmentPath: string | null;
  detail: string | null;
  severity?: Severity;
  value?: number | null;
  render: Render;
}

/** Collects occurrences and folds recurring ones into one finding each, in a deterministic order. */
class FindingGroups {
  private readonly byKey = new Map<string, { first: Occurrence; requests: number[]; values: number[] }>();

  add(occurrence: Occurrence): void {
    const key = `${occurrence.code}\u0000${occurrence.key}`;
    const group = this.byKey.get(key);
    const value = occurrence.value ?? null;
    if (group === undefined) {
      this.byKey.set(key, { first: occurrence, requests: [occurrence.request], values: value === null ? [] : [value] });
      return;
    }
    if (group.requests[group.requests.length - 1] !== occurrence.request) group.requests.push(occurrence.request);
    if (value !== null) group.values.push(value);
  }

  has(code: FindingCode): boolean {
    for (const { first } of this.byKey.values()) if (first.code === code) return true;
    return false;
  }

  findings(): Finding[] {
    const findings: Finding[] = [];
    for (const { first, requests, values } of this.byKey.values()) {
      const sorted = [...new Set(requests)].sort((a, b) => a - b);
      const { message, fix } = first.render(describeRequests(sorted), values.length > 0 ? values : [0]);
      findings.push({
        code: first.code,
        severity: first.severity ?? FINDING_SEVERITY[first.code],
        requests: sorted,
        segmentPath: first.segmentPath,
        message,
        fix,
        detail: first.detail,
      });
    }
    return findings.sort(
      (a, b) =>
        SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
        a.requests[0]! - b.requests[0]! ||
        CODE_ORDER.indexOf(a.code) - CODE_ORDER.indexOf(b.code) ||
        compareText(a.segmentPath ?? '', b.segmentPath ?? ''),
    );
  }
}
