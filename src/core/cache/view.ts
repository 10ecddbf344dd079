// One request as both simulations see it: blocks in serialization order with their identity, tokens, lookback
// position and marker, plus the cumulative token count and prefix key through each block. The scenario decides
// the identity (exact wire vs normalized) and the order of the tool list.

import type { CacheMarker, Category, ParsedRequest } from '../model.ts';
import { EMPTY_CHAIN, IdentityTable, extendHi, extendLo, keyOfLanes } from './chain.ts';
import { optimizedWire, sortedTools } from './normalize.ts';
import type { Scenario } from './types.ts';

export interface SimBlock {
  /** Index into `request.segments`. */
  segment: number;
  category: Category;
  tokens: number;
  position: number;
  marker: CacheMarker | null;
  cacheable: boolean;
}

export interface RequestView {
  blocks: SimBlock[];
  /** Tokens before the first block (framing, tool-use system prompt). */
  overhead: number;
  /** The whole prompt: overhead plus every block. */
  promptTokens: number;
  /** cumulative[i] = tokens of the prefix through blocks[i], overhead included. */
  cumulative: number[];
  /** keys[i] names the prefix through blocks[i] (see chain.ts). */
  keys: number[];
}

/**
 * Builds views for one scenario. One builder per simulation run: it owns the identity table and the memo of
 * normalized identities, so each distinct wire string is normalized and numbered once.
 */
export class ViewBuilder {
  private readonly table = new IdentityTable();
  private readonly normalized = new Map<string, string>();

  constructor(
    private readonly scenario: Scenario,
    /** Anthropic: tool_choice and thinking settings invalidate the messages' cache (not tools or system). */
    private readonly saltMessagesWithOptions: boolean,
  ) {}

  /** `dropped`: segments the provider removes before caching and billing (see thinking.ts); left out here. */
  build(
    request: ParsedRequest,
    tokens: readonly number[],
    overhead: number,
    dropped: ReadonlySet<number> = NOTHING_DROPPED,
  ): RequestView {
    const segments = request.segments;
    // The actual scenario keeps the order as sent (null: slot i holds segment i, no index array per request).
    const order = this.scenario === 'optimized' ? sortedTools(segments, this.normalized) : null;
    const blocks: SimBlock[] = [];
    const cumulative: number[] = [];
    const keys: number[] = [];
    // The chain state in two locals (see extendChain): no state object per block.
    let hi = EMPTY_CHAIN.hi;
    let lo = EMPTY_CHAIN.lo;
    let total = overhead;
    let salted = !this.saltMessagesWithOptions;
    for (let slot = 0; slot < segments.length; slot++) {
      const index = order === null ? slot : (order[slot] ?? slot);
      const segment = segments[index];
      if (segment === undefined || dropped.has(index)) continue;
      if (!salted && segment.messageIndex >= 0) {
        const salt = this.table.idOf(optionsSalt(request));
        hi = extendHi(hi, salt);
        lo = extendLo(lo, salt);
        salted = true;
      }
      const identity =
        this.scenario === 'optimized' ? optimizedWire(segment, this.normalized) : segment.wire;
      const id = this.table.idOf(identity);
      hi = extendHi(hi, id);
      lo = extendLo(lo, id);
      const blockTokens = tokens[index] ?? 0;
      total += blockTokens;
      blocks.push({
        segment: index,
        category: segment.category,
        tokens: blockTokens,
        // The slot keeps its lookback position when a sorted tool moves into it.
        position: segments[slot]?.position ?? segment.position,
        marker: segment.cacheMarker,
        cacheable: segment.cacheable,
      });
      cumulative.push(total);
      keys.push(keyOfLanes(hi, lo));
    }
    return { blocks, overhead, promptTokens: total, cumulative, keys };
  }
}

const NOTHING_DROPPED: ReadonlySet<number> = new Set();

// A NUL prefix keeps the salt from ever equalling a real block's JSON.
function optionsSalt(request: ParsedRequest): string {
  return `\u0000options:${request.options.toolChoice ?? ''}|${request.options.thinking ?? ''}`;
}
