import type { Provider } from '../model.ts';

/** Prices are USD per million tokens. */
export interface ModelPricing {
  /** Canonical API id, e.g. `claude-sonnet-4-5` or `gpt-4o`. */
  id: string;
  displayName: string;
  provider: Provider;
  input: number;
  output: number;
  cacheRead: number;
  /** Anthropic 5-minute write; OpenAI GPT-5.6+ cache write; null where writes are not billed separately. */
  cacheWrite5m: number | null;
  /** Anthropic 1-hour write; null where there is none. */
  cacheWrite1h: number | null;
  /** Shortest prefix that can be cached (Anthropic per model; OpenAI 1,024). */
  minCacheableTokens: number;
  tokenizer: 'o200k_base' | 'cl100k_base' | 'claude-estimate';
  /** OpenAI: cached tokens rounded down to this multiple (128 before GPT-5.6, 1 from it); Anthropic: 1. */
  cacheRounding: number;
  /** OpenAI GPT-5.6+: explicit/implicit breakpoint modes and billed writes. */
  explicitBreakpoints: boolean;
}

export interface ModelMatch {
  pricing: ModelPricing;
  /** The id as written in the request (snapshot, Bedrock or Vertex form). */
  requestedId: string;
}

/** Extra fields beyond the shared ModelPricing interface: tiers and modifiers some models have. */
export interface PricedModel extends ModelPricing {
  /** Other exact ids that name this model (dated snapshots); Bedrock/Vertex forms are derived in lookup.ts. */
  aliases: readonly string[];
  /** Vertex AI `@date` id when the model predates Vertex using the API id (pre-4.6 Claude). */
  vertexId: string | null;
  /** Bedrock base id (without geo prefix) when it is not `anthropic.<api id>`. */
  bedrockId: string | null;
  /** A higher tier applied to the whole request once the prompt passes `aboveTokens` (Haiku 5.5 >100K). */
  longPromptTier: LongPromptTier | null;
  /**
   * OpenAI long-context modifier: above `aboveTokens` input tokens, input and cache rates are multiplied by
   * `inputFactor` and output by `outputFactor`, for the whole request (GPT-6.x, gpt-5.6-sol).
   */
  longContextModifier: LongContextModifier | null;
  /** Cache-read price in effect before a dated price change, when one is documented. */
  cacheReadBefore: { date: string; cacheRead: number } | null;
  /** Who makes the model (Gemini rows use OpenAI-family cache mechanics, `provider`, but are Google's). */
  vendor: 'anthropic' | 'openai' | 'google';
  /** The date this row's prices were read from its source (docs/pricing.md). */
  pricedOn: string;
  /**
   * Bedrock bills this model 10% more on a regional endpoint (an in-Region id or a geographic `us.`/`eu.`/…
   * inference profile) than on the `global.` profile: Claude Sonnet 4.5, Haiku 4.5, Opus 4.5 and later.
   */
  bedrockRegionalPremium: boolean;
  /**
   * What fast mode (a response whose usage says `speed: "fast"`) multiplies every rate by, the cache rates
   * included; null where the table has no fast-mode price (a model without it, or one whose price is not known).
   */
  fastModeFactor: number | null;
}

export interface LongPromptTier {
  /** Prompt = input + cache reads + cache writes, strictly greater than this. */
  aboveTokens: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
}

export interface LongContextModifier {
  aboveTokens: number;
  inputFactor: number;
  outputFactor: number;
}
