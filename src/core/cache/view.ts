// One request as both simulations see it: blocks in serialization order with their identity, tokens, lookback
// position and marker, plus the cumulative token count and prefix key through each block. The scenario decides
// the identity (exact wire vs normalized) and the order of the tool list.

import type { CacheMarker, Category, ParsedRequest } from '../model.ts';
import { EMPTY_CHAIN, IdentityTable, chainKey, extendChain } from './chain.ts';
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
    const order =
      this.scenario === 'optimized' ? sortedTools(segments, this.normalized) : segments.map((_, index) => index);
    const blocks: SimBlock[] = [];
    const cumulative: number[] = [];
    const keys: number[] = [];
    let state = EMPTY_CHAIN;
    let total = overhead;
    let salted = !this.saltMessagesWithOptions;
    for (let slot = 0; slot < order.length; slot++) {
      const index = order[slot] ?? slot;
      const segment = segments[index];
      if (segment === undefined || dropped.has(index)) continue;
      if (!salted && segment.messageIndex >= 0) {
        state = extendChain(state, this.table.idOf(optionsSalt(request)));
        salted = true;
      }
      const identity =
        this.scenario === 'optimized' ? optimizedWire(segment, this.normalized) : segment.wire;
      state = extendChain(state, this.table.idOf(identity));
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
      keys.push(chainKey(state));
    }
    return { blocks, overhead, promptTokens: total, cumulative, keys };
  }
}

const NOTHING_DROPPED: ReadonlySet<number> = new Set();

// A NUL prefix keeps the salt from ever equalling a real block's JSON.
function optionsSalt(request: ParsedRequest): string {
  return `\u0000options:${request.options.toolChoice ?? ''}|${request.options.thinking ?? ''}`;
}
