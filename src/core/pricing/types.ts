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
