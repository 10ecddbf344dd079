// Findings raised from the actual-scenario simulation's diagnostics (breakpoints, TTLs, lookback, expiry).
import { isUsageOnly, type ParsedRequest } from '../../model.ts';
import type { ModelPricing } from '../../pricing/types.ts';
import { LOOKBACK_POSITIONS, MAX_BREAKPOINTS } from '../anthropic.ts';
import type { RequestCacheResult, SimulationEvent, SimulationEventCode } from '../types.ts';
import { formatCount } from '../../text/format.ts';
import type { FindingGroups, Occurrence, Render } from './groups.ts';
import type { FindingsInput } from './types.ts';

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
export function checkSimulationEvents(groups: FindingGroups, input: FindingsInput): void {
  const unknown = input.breakpointsUnknown ?? (() => false);
  // A request nothing later builds on gains nothing from a breakpoint (the write is never read): no advice to add one.
  const followed = new Set<number>();
  for (const compared of input.conversations.continues) if (compared !== null) followed.add(compared);
  for (const result of input.costs.actual.simulation.requests) {
    const r = result.requestIndex;
    const request = input.requests[r];
    // A usage-only call's blocks are inferred from its usage, not read: their diagnostics describe no real request.
    if (request === undefined || isUsageOnly(request)) continue;
    const pricing = input.pricingOf(r);
    // No advice to add a breakpoint where the log does not record them, nothing builds on the request, or its
    // prompt is below the model's minimum.
    const skipNoBreakpoint = unknown(r) || !followed.has(r) || result.promptTokens < (pricing?.minCacheableTokens ?? 0);
    for (const event of result.events) {
      if (EVENT_FINDINGS[event.code] === 'no_breakpoint' && skipNoBreakpoint) continue;
      groups.add(eventOccurrence({ request, result, event, pricing }));
    }
  }
}

/** One diagnostic as an occurrence of its finding. */
function eventOccurrence(at: {
  request: ParsedRequest;
  result: RequestCacheResult;
  event: SimulationEvent;
  pricing: ModelPricing | null;
}): Occurrence {
  const { request, result, event, pricing } = at;
  const code = EVENT_FINDINGS[event.code];
  const path = event.segment === null ? null : (request.segments[event.segment]?.path ?? null);
  const openai = result.provider === 'openai';
  // A rolling breakpoint moves every turn: message blocks group together, setup blocks by their path.
  const segment = event.segment === null ? undefined : request.segments[event.segment];
  const place = segment === undefined ? '' : segment.messageIndex < 0 ? segment.path : 'messages';
  return {
    code,
    key: `${place}\u0000${pricing?.id ?? request.model ?? ''}\u0000${result.provider}`,
    request: result.requestIndex,
    segmentPath: path,
    detail: null,
    render: openai && code === 'too_many_breakpoints' ? openaiTooMany : eventText(code, path, pricing, result),
    value: event.value,
    // OpenAI's explicit mode uses the latest 4 and ignores the rest: a waste, not a rejected request.
    ...(openai && code === 'too_many_breakpoints' && { severity: 'warning' as const }),
  };
}

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

