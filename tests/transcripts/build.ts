// Hand-built (synthetic) inputs for the agreement and summary tests: requests, a conversation pairing and
// simulation reports whose figures are chosen so every expected value can be worked out by hand.
import type { Conversations, ConversationLink } from '../../src/core/cache/conversations.ts';
import type { RequestCacheResult, RequestCost, ScenarioReport, SimulationEventCode } from '../../src/core/cache/types.ts';
import type { ParsedRequest, RecordedUsage, RequestNote } from '../../src/core/model.ts';
import type { ModelPricing } from '../../src/core/pricing/types.ts';
import { chatMessage, request } from '../tokens/build.ts';

/** Synthetic prices (USD per million tokens), round numbers so costs are easy to compute by hand. */
export const SYNTHETIC_PRICING: ModelPricing = {
  id: 'synthetic-claude',
  displayName: 'Synthetic Claude',
  provider: 'anthropic',
  input: 3,
  output: 15,
  cacheRead: 0.3,
  cacheWrite5m: 3.75,
  cacheWrite1h: 6,
  minCacheableTokens: 1024,
  tokenizer: 'claude-estimate',
  cacheRounding: 1,
  explicitBreakpoints: false,
};

export const MISSING_SYSTEM: RequestNote = { code: 'transcript_missing_system', message: 'synthetic' };

export function usage(input: number, cacheRead: number, cacheWrite5m: number, cacheWrite1h: number, output: number): RecordedUsage {
  return { input, cacheRead, cacheWrite5m, cacheWrite1h, output };
}

export function transcriptRequest(index: number, extra: Partial<ParsedRequest>): ParsedRequest {
  return request('anthropic-messages', 'synthetic-claude', [chatMessage(0, 'user', `synthetic turn ${index}`)], {
    index,
    line: index + 1,
    notes: [MISSING_SYSTEM],
    ...extra,
  });
}

export function oneConversation(count: number, kinds?: ConversationLink[]): Conversations {
  return {
    conversationOf: Array.from({ length: count }, () => 0),
    continues: Array.from({ length: count }, (_, r) => (r === 0 ? null : r - 1)),
    kind: kinds ?? Array.from({ length: count }, (_, r) => (r === 0 ? 'new' : 'continues')),
    count: 1,
  };
}

export interface SimulatedSpec {
  read: number;
  write5m?: number;
  prompt?: number;
  cost: number | null;
  events?: SimulationEventCode[];
}

export function report(specs: readonly SimulatedSpec[]): ScenarioReport {
  const requests: RequestCacheResult[] = specs.map((spec, r) => ({
    requestIndex: r,
    provider: 'anthropic',
    cacheScope: 'synthetic-claude',
    promptTokens: spec.prompt ?? 0,
    read: spec.read,
    write5m: spec.write5m ?? 0,
    write1h: 0,
    uncached: Math.max(0, (spec.prompt ?? 0) - spec.read - (spec.write5m ?? 0)),
    hit: spec.read > 0,
    breakpoints: [],
    hitSegment: null,
    rejected: false,
    promptCacheKey: false,
    events: (spec.events ?? []).map((code) => ({ code, segment: null, value: null })),
  }));
  const costs: RequestCost[] = specs.map((spec, r) => ({
    requestIndex: r,
    pricedAs: spec.cost === null ? null : 'synthetic-claude',
    input: null,
    cacheRead: null,
    cacheWrite: null,
    output: null,
    total: spec.cost,
    outputTokens: 0,
    outputRecorded: false,
    longContextTier: false,
  }));
  const total = costs.reduce((sum, c) => sum + (c.total ?? 0), 0);
  return {
    simulation: {
      scenario: 'actual',
      requests,
      totals: { requests: specs.length, promptTokens: 0, read: 0, write5m: 0, write1h: 0, uncached: 0, hits: 0, rejected: 0, promptCacheKeys: 0 },
      assumedWithinTtl: false,
    },
    costs,
    totals: { total, priced: costs.filter((c) => c.total !== null).length, unpriced: costs.filter((c) => c.total === null).length, outputRecorded: 0 },
  };
}
