// Hand-built ParsedRequests and pricing entries for the cache simulation tests (synthetic data).
import { wireIdOf } from '../wire-ids.ts';
import type {
  CacheMarker,
  Category,
  ParsedRequest,
  RecordedUsage,
  RequestOptions,
  Segment,
  WireFormat,
} from '../../src/core/model.ts';
import type { ModelPricing } from '../../src/core/pricing/types.ts';
import { simulateCache } from '../../src/core/cache/simulate.ts';
import type { Scenario, SimulationResult } from '../../src/core/cache/types.ts';
import { emptyOptions } from '../../src/core/formats/request-parts.ts';

export interface BlockSpec {
  /** Identity text (the block's wire JSON in real data). */
  id: string;
  tokens: number;
  marker?: CacheMarker['ttl'];
  category?: Category;
  /** Defaults to the block's index in the request. */
  position?: number;
  cacheable?: boolean;
  /** Defaults to 0 (a message); tools/system use -1. */
  messageIndex?: number;
  toolName?: string;
  /** Defaults from the category: user and tool_result → user; assistant, thinking, tool_call → assistant. */
  role?: string | null;
}

function roleOf(category: Category | undefined): string | null {
  if (category === undefined || category === 'user' || category === 'tool_result') return 'user';
  if (category === 'assistant' || category === 'thinking' || category === 'tool_call') return 'assistant';
  return null;
}

export interface RequestSpec {
  blocks: BlockSpec[];
  model?: string;
  format?: WireFormat;
  topLevel?: CacheMarker['ttl'];
  timestamp?: number;
  overhead?: number;
  options?: Partial<RequestOptions>;
  recorded?: RecordedUsage;
}

export interface BuiltInput {
  requests: ParsedRequest[];
  segmentTokens: number[][];
  overheadTokens: number[];
}

export function buildRequests(specs: readonly RequestSpec[]): BuiltInput {
  const requests = specs.map((spec, index): ParsedRequest => {
    const segments = spec.blocks.map(
      (block, i): Segment => ({
        category: block.category ?? 'user',
        path: `messages[${i}].content[0]`,
        text: block.id,
        wire: block.id,
        bytes: block.id.length,
        hash: '0000000000000000',
        wireId: wireIdOf(block.id),
        cacheMarker: block.marker === undefined ? null : { ttl: block.marker },
        position: block.position ?? i,
        messageIndex: block.messageIndex ?? (block.category === 'tools' || block.category === 'system' ? -1 : i),
        role: block.role === undefined ? roleOf(block.category) : block.role,
        toolName: block.toolName ?? null,
        callId: null,
        media: null,
        cacheable: block.cacheable ?? true,
      }),
    );
    return {
      index,
      line: index + 1,
      file: 0,
      format: spec.format ?? 'anthropic-messages',
      model: spec.model ?? 'claude-sonnet-4-5',
      segments,
      messageCount: segments.length,
      topLevelCacheMarker: spec.topLevel === undefined ? null : { ttl: spec.topLevel },
      unknownShapes: [],
      notes: [],
      customId: null,
      timestamp: spec.timestamp ?? null,
      recorded: spec.recorded ?? null,
      options: { ...emptyOptions(), ...spec.options },
    };
  });
  return {
    requests,
    segmentTokens: specs.map((spec) => spec.blocks.map((b) => b.tokens)),
    overheadTokens: specs.map((spec) => spec.overhead ?? 0),
  };
}

function pricing(fields: Partial<ModelPricing> & Pick<ModelPricing, 'id' | 'provider'>): ModelPricing {
  return {
    displayName: fields.id,
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheWrite5m: 3.75,
    cacheWrite1h: 6,
    minCacheableTokens: 1024,
    tokenizer: fields.provider === 'anthropic' ? 'claude-estimate' : 'o200k_base',
    cacheRounding: 1,
    explicitBreakpoints: false,
    ...fields,
  };
}

/** Sonnet 4.5 as the reference prices it: $3 in, $3.75 5m write, $6 1h write, $0.30 read, $15 out; 1,024 min. */
export const SONNET_45 = pricing({ id: 'claude-sonnet-4-5', provider: 'anthropic' });
/** Opus 5.5: $4 in, $5/$8 writes, $0.20 read (0.05×), $20 out, 512 min. */
export const OPUS_55 = pricing({
  id: 'claude-opus-5-5',
  provider: 'anthropic',
  input: 4,
  output: 20,
  cacheRead: 0.2,
  cacheWrite5m: 5,
  cacheWrite1h: 8,
  minCacheableTokens: 512,
});
/** gpt-4o: $2.50 in, $1.25 cached, $10 out, no write fee, 1,024 min, 128 rounding. */
export const GPT_4O = pricing({
  id: 'gpt-4o',
  provider: 'openai',
  input: 2.5,
  output: 10,
  cacheRead: 1.25,
  cacheWrite5m: null,
  cacheWrite1h: null,
  cacheRounding: 128,
});
/** gpt-5.6-terra: $2 in, $0.20 cached, $2.50 write, $12 out, explicit breakpoints, no rounding. */
export const GPT_56_TERRA = pricing({
  id: 'gpt-5.6-terra',
  provider: 'openai',
  input: 2,
  output: 12,
  cacheRead: 0.2,
  cacheWrite5m: 2.5,
  cacheWrite1h: null,
  explicitBreakpoints: true,
});

const KNOWN = new Map([SONNET_45, OPUS_55, GPT_4O, GPT_56_TERRA].map((p) => [p.id, p]));

export function pricingByModel(requests: readonly ParsedRequest[]): (i: number) => ModelPricing | null {
  return (i) => KNOWN.get(requests[i]?.model ?? '') ?? null;
}

export function simulate(specs: readonly RequestSpec[], scenario: Scenario = 'actual'): SimulationResult {
  const built = buildRequests(specs);
  return simulateCache({ ...built, pricingOf: pricingByModel(built.requests), scenario });
}

/** The four token figures of each request, for compact assertions. */
export function figures(result: SimulationResult): { read: number; write5m: number; write1h: number; uncached: number }[] {
  return result.requests.map(({ read, write5m, write1h, uncached }) => ({ read, write5m, write1h, uncached }));
}
