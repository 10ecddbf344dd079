// One request as both simulations see it: blocks in serialization order with their lookback position, plus the
// cumulative token count and prefix key through each block. The scenario decides the identity (exact wire vs
// normalized) and the order of the tool list. A view is a few arrays of numbers, not an object per block: the
// bench's 3,000-request log has 127,500 blocks per scenario.

import type { ParsedRequest, Segment } from '../model.ts';
import { WireMemo } from '../text/wire-memo.ts';
import { leadingTokens } from '../tokens/framing.ts';
import { EMPTY_CHAIN, IdentityTable, extendHi, extendLo, keyOfLanes } from './chain.ts';
import { sortedTools } from './normalize.ts';
import { OptimizedIds } from './optimized-ids.ts';
import type { Scenario, SetupBreakpoint } from './types.ts';

export interface RequestView {
  /** segmentOf[i]: index into `request.segments` of block i (category, marker and cacheability live there). */
  segmentOf: number[];
  /** Lookback position of block i. */
  position: number[];
  /** Tokens before the first block (the request's own framing, tool-use system prompt, an unrecorded setup). */
  overhead: number;
  /** The whole prompt: overhead plus every block. */
  promptTokens: number;
  /** cumulative[i] = tokens of the prefix through block i, overhead included. */
  cumulative: number[];
  /** keys[i] names the prefix through block i (see chain.ts): 53-bit integers. */
  keys: number[];
  /**
   * The agent's own breakpoint inside an unrecorded setup (inferred.ts): the key of the setup through it and its
   * tokens; null when none was inferred.
   */
  setupBreakpoint: { key: number; tokens: number } | null;
}

/**
 * Builds views for one scenario. One builder per simulation run: it owns the identity table and the memo of
 * normalized identities, so each distinct wire string is normalized and numbered once.
 */
export class ViewBuilder {
  private readonly table = new IdentityTable();
  private readonly normalized = new Map<string, string>();
  private readonly identityIds: WireMemo;
  private lastToolOrder: ToolOrder | null = null;

  constructor(
    private readonly scenario: Scenario,
    /** Anthropic: tool_choice and thinking settings invalidate the messages' cache (not tools or system). */
    private readonly saltMessagesWithOptions: boolean,
  ) {
    const optimized = new OptimizedIds((key) => this.table.idOf(key), this.normalized);
    this.identityIds = new WireMemo((segment: Segment) => (scenario === 'optimized' ? optimized.idOf(segment.wire) : this.table.idOf(segment.wire)));
  }

  /**
   * `counts`: the request's tokens per segment, its overhead and the part of it each segment carries (framing).
   * `dropped`: segments the provider removes before caching and billing (see thinking.ts); left out here, their
   * framing moves to the next block kept. `setupVersion`: which version of an unrecorded setup (inferred.ts) leads
   * the prefix; 0 = the first. `setupBreakpoint`: the agent's breakpoint inside that setup, keyed by its own
   * version (the part before it outlives a change after it).
   */
  build(request: ParsedRequest, counts: ViewCounts, options: ViewOptions = {}): RequestView {
    const { tokens, overhead, framing = NO_FRAMING } = counts;
    const { dropped = NOTHING_DROPPED, setupVersion = 0, setupBreakpoint = null } = options;
    const segments = request.segments;
    // The actual scenario keeps the order as sent (null: slot i holds segment i, no index array per request).
    const order = this.scenario === 'optimized' ? this.toolOrder(segments) : null;
    // Plain arrays: thousands of small typed arrays each carry an external buffer the garbage collector tracks.
    const segmentOf: number[] = [];
    const position: number[] = [];
    const cumulative: number[] = [];
    const keys: number[] = [];
    // The chain state in two locals (see extendHi / extendLo): no state object per block.
    let hi = EMPTY_CHAIN.hi;
    let lo = EMPTY_CHAIN.lo;
    if (setupVersion > 0) {
      // The setup is not a block of the log, but it leads the prefix: another version keys every entry apart.
      const salt = this.table.idOf(`\u0000setup:${setupVersion}`);
      hi = extendHi(hi, salt);
      lo = extendLo(lo, salt);
    }
    const leading = leadingTokens(overhead, framing);
    let total = leading;
    // Framing of a dropped block, waiting for the next block kept.
    let pending = 0;
    let salted = !this.saltMessagesWithOptions;
    for (let slot = 0; slot < segments.length; slot++) {
      const index = order === null ? slot : (order[slot] ?? slot);
      const segment = segments[index];
      if (segment === undefined) continue;
      if (dropped.has(index)) {
        pending += framing[index] ?? 0;
        continue;
      }
      if (!salted && segment.messageIndex >= 0) {
        const salt = this.table.idOf(optionsSalt(request));
        hi = extendHi(hi, salt);
        lo = extendLo(lo, salt);
        salted = true;
      }
      const id = this.identityIds.get(segment);
      hi = extendHi(hi, id);
      lo = extendLo(lo, id);
      total += (tokens[index] ?? 0) + (framing[index] ?? 0) + pending;
      pending = 0;
      segmentOf.push(index);
      // The slot keeps its lookback position when a sorted tool moves into it.
      position.push(segments[slot]?.position ?? segment.position);
      cumulative.push(total);
      keys.push(keyOfLanes(hi, lo));
    }
    return {
      segmentOf,
      position,
      overhead: leading,
      promptTokens: total + pending,
      cumulative,
      keys,
      setupBreakpoint: this.setupKey(setupBreakpoint, leading),
    };
  }

  /**
   * The optimized scenario's order of the tool slots (slot → segment index; other slots are holes, kept as sent),
   * or null when fewer than two tools. Requests resend the same tool list: while a request's tools are the same
   * segments in the same slots as the last one sorted, its order is reused instead of sorted again.
   */
  private toolOrder(segments: readonly Segment[]): readonly (number | undefined)[] | null {
    const last = this.lastToolOrder;
    let same = last !== null;
    let tools = 0;
    for (let slot = 0; slot < segments.length; slot++) {
      const segment = segments[slot]!;
      if (segment.category !== 'tools') continue;
      if (same && (last!.slots[tools] !== slot || last!.tools[tools] !== segment)) same = false;
      tools++;
    }
    if (same && tools === last!.slots.length) return last!.order;
    if (tools < 2) return null;
    const sorted = sortedTools(segments, this.normalized);
    const next: ToolOrder = { slots: [], tools: [], order: [] };
    for (let slot = 0; slot < segments.length; slot++) {
      if (segments[slot]!.category !== 'tools') continue;
      next.slots.push(slot);
      next.tools.push(segments[slot]!);
      next.order[slot] = sorted[slot];
    }
    this.lastToolOrder = next;
    return next.order;
  }

  private setupKey(breakpoint: SetupBreakpoint | null, overhead: number): RequestView['setupBreakpoint'] {
    if (breakpoint === null || breakpoint.tokens <= 0) return null;
    // A key of its own: one salt from the empty chain, never a block's (block chains start with a block id).
    const salt = this.table.idOf(`\u0000setup-breakpoint:${breakpoint.version}`);
    return { key: keyOfLanes(extendHi(EMPTY_CHAIN.hi, salt), extendLo(EMPTY_CHAIN.lo, salt)), tokens: Math.min(breakpoint.tokens, overhead) };
  }
}

/** A request's tool slots, the segments in them, and the optimized order of those slots (see toolOrder). */
interface ToolOrder {
  slots: number[];
  tools: Segment[];
  order: (number | undefined)[];
}

/** One request's token counts as the view needs them (see SimulationInput). */
export interface ViewCounts {
  tokens: readonly number[];
  overhead: number;
  framing?: readonly number[] | undefined;
}

export interface ViewOptions {
  dropped?: ReadonlySet<number>;
  setupVersion?: number;
  setupBreakpoint?: SetupBreakpoint | null;
}

const NOTHING_DROPPED: ReadonlySet<number> = new Set();
const NO_FRAMING: readonly number[] = [];

// A NUL prefix keeps the salt from ever equalling a real block's JSON.
function optionsSalt(request: ParsedRequest): string {
  return `\u0000options:${request.options.toolChoice ?? ''}|${request.options.thinking ?? ''}`;
}
