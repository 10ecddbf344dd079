// Misses from recorded usage alone, for the folder's usage pass (src/core/folder/usage-pass.ts), where no request
// is rebuilt and no cache simulated: a request whose cache read falls short of what the request before it in the
// same conversation had cached (its read plus its writes, or its whole prompt when it cached nothing) paid the
// difference as a write or as uncached input instead of a read. Within MISS_TOLERANCE it is framing, not a miss,
// as in the full analysis (misses.ts); the first request of a conversation (a cold start) misses what it did not
// read, as there. Causes need the rebuilt requests and the simulation: this rule prices misses, it does not
// explain them.
import { recordedPromptTokens } from '../model.ts';
import type { ModelPricing } from '../pricing/types.ts';
import type { PricedRequest } from './cost.ts';
import { MISS_TOLERANCE, missCost } from './misses.ts';

export interface UsageMissInput {
  requests: readonly PricedRequest[];
  /** Per request, the conversation it belongs to (any number; requests of one conversation in order). */
  conversationOf: (request: number) => number;
  pricingOf: (request: number) => ModelPricing | null;
}

export interface UsageMiss {
  /** Prompt tokens written again or sent uncached that a read of what came before would have covered. */
  tokens: number;
  /** USD paid for them over reading them; null when the model has no price. */
  cost: number | null;
}

/** Per request, its miss by the usage rule, or null (no recorded usage, nothing before it, or it read enough). */
export function usageMisses(input: UsageMissInput): (UsageMiss | null)[] {
  /** Per conversation, what its last request with a billed prompt had cached. */
  const cachedBefore = new Map<number, number>();
  return input.requests.map((request, r): UsageMiss | null => {
    const usage = request.recorded;
    if (usage === null) return null;
    const prompt = recordedPromptTokens(usage);
    if (prompt === 0) return null; // an aborted call: nothing was billed, nothing missed, nothing passed on
    const conversation = input.conversationOf(r);
    const before = cachedBefore.get(conversation);
    const cached = usage.cacheRead + usage.cacheWrite5m + usage.cacheWrite1h;
    cachedBefore.set(conversation, cached > 0 ? cached : prompt);
    // A cold start: nothing before it to read, so what it did not read it wrote (the full analysis' cold_start).
    const potential = before === undefined ? prompt : Math.min(prompt, before);
    if (before !== undefined && usage.cacheRead >= potential - MISS_TOLERANCE) return null;
    const tokens = potential - usage.cacheRead;
    if (tokens <= 0) return null;
    const row = { read: usage.cacheRead, write5m: usage.cacheWrite5m, write1h: usage.cacheWrite1h, uncached: usage.input };
    return { tokens, cost: missCost(request, row, tokens, input.pricingOf(r)) };
  });
}
