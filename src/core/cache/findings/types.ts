// The findings' public shapes: codes with their severities, a finding, what the checks read.
//
// Privacy: `message`, `fix` and `segmentPath` hold no payload text (paths, positions, counts, model ids only).
// Tool names and similar labels go to `detail`, which views show only when the user asks for content.
import type { ParsedRequest } from '../../model.ts';
import type { ModelPricing } from '../../pricing/types.ts';
import type { Conversations } from '../conversations.ts';
import type { NearDuplicateGroup } from '../near-duplicates.ts';
import type { TtlWhatIf } from '../misses.ts';
import type { CostComparison } from '../types.ts';

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
