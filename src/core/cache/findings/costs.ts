// Findings about what the requests cost: idle gaps past the TTL, the actual-vs-optimized gap, near-duplicate content.
import type { ParsedRequest } from '../../model.ts';
import { formatCount, formatFraction, formatUsd } from '../../text/format.ts';
import type { CostComparison } from '../types.ts';
import type { FindingGroups, Occurrence } from './groups.ts';
import { COST_ROUNDING, SAVINGS_WARNING_FRACTION, type FindingCode, type FindingsInput, type Severity } from './types.ts';

/** Observed idle gaps that emptied 5-minute entries, with the 1-hour TTL trade-off priced on what was paid. */
export function checkIdleGaps(groups: FindingGroups, input: FindingsInput): void {
  const whatIf = input.ttlWhatIf;
  if (whatIf === null || whatIf === undefined) return;
  const net = whatIf.saved - whatIf.extraWrites;
  const paid = input.costs.billed.totals.total;
  const severity: Severity = net > 0 && paid > 0 && net / paid >= SAVINGS_WARNING_FRACTION ? 'warning' : 'info';
  addPerRequest(groups, whatIf.requests, {
    code: 'idle_gap_ttl',
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

/** One occurrence per request of a finding about the whole request (no block, no detail), folded into one finding. */
function addPerRequest(groups: FindingGroups, requests: readonly number[], finding: Pick<Occurrence, 'code' | 'severity' | 'render'>): void {
  for (const request of requests) {
    groups.add({ code: finding.code, key: '', request, segmentPath: null, detail: null, severity: finding.severity, render: finding.render });
  }
}

/**
 * The simulation's own actual-vs-optimized gap: requests that would cost less with a trailing breakpoint get
 * missing_tail_breakpoint; if the gap remains unexplained by any finding, potential_savings says so. Either way
 * the findings never say "nothing to fix" while the optimized cost is lower.
 */
export function checkCostGap(groups: FindingGroups, input: FindingsInput): void {
  const { potentialSavings, savingsFraction } = input.costs;
  if (potentialSavings < COST_ROUNDING) return;
  // Where the log does not record breakpoints, the actual scenario's "no breakpoint" is an assumption, not a fact.
  const unknown = input.breakpointsUnknown ?? (() => false);
  const percent = formatFraction(savingsFraction);
  const summary = `fixing the findings would lower the actual cost by ${percent} (${formatUsd(input.costs.billed.totals.total)} → ${formatUsd(input.costs.optimizedCost)})`;
  const severity: Severity = savingsFraction >= SAVINGS_WARNING_FRACTION ? 'warning' : 'info';

  addPerRequest(groups, taillessRequests(input, unknown), {
    code: 'missing_tail_breakpoint',
    severity,
    render: (when) => ({
      message: `No cache breakpoint on the conversation tail (${when}): each turn re-sends the history after the last breakpoint uncached; ${summary}.`,
      fix: 'Add a rolling breakpoint on the latest block of every request (top-level "cache_control":{"type":"ephemeral"} does this), next to the one on the stable prefix.',
    }),
  });
  if (!COST_EXPLAINING.some((code) => groups.has(code))) {
    const saving = input.costs.actual.costs.flatMap((_, r) => (!unknown(r) && cheaperOptimized(input.costs, r) ? [r] : []));
    addPerRequest(groups, saving, {
      code: 'potential_savings',
      severity,
      render: (when) => ({
        message: `The optimized scenario costs less (${when}): ${summary}, though no rule that explains the difference matched.`,
        fix: 'Compare the actual and optimized cache tables for these requests: normalized values, sorted keys and tools, and a tail breakpoint make the difference.',
      }),
    });
  }
}

/** Anthropic requests with breakpoints but none on their last cacheable block, that would cost less with one. */
function taillessRequests(input: FindingsInput, unknown: (r: number) => boolean): number[] {
  const tailless: number[] = [];
  for (const result of input.costs.actual.simulation.requests) {
    const r = result.requestIndex;
    const request = input.requests[r];
    if (request === undefined || request.format !== 'anthropic-messages' || result.rejected || unknown(r)) continue;
    if (result.breakpoints.length === 0) continue; // no_breakpoint covers it
    const lastCacheable = lastCacheableSegment(request);
    if (lastCacheable === null || result.breakpoints.some((bp) => bp.segment === lastCacheable)) continue;
    if (cheaperOptimized(input.costs, r)) tailless.push(r);
  }
  return tailless;
}

/** Whether request r costs less in the optimized scenario than in the actual one (both priced). */
function cheaperOptimized(costs: CostComparison, r: number): boolean {
  const before = costs.actual.costs[r]?.total;
  const after = costs.optimized.costs[r]?.total;
  return before !== null && before !== undefined && after !== null && after !== undefined && before - after >= COST_ROUNDING / 10;
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
export function checkNearDuplicates(groups: FindingGroups, input: FindingsInput): void {
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
