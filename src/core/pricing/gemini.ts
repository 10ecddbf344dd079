// Gemini models (Gemini API / Vertex AI list prices, USD per MTok). Gemini logs reach ctxray rebuilt as Chat
// Completions (Gemini CLI), so a row carries OpenAI-family cache mechanics: implicit prefix caching with no write
// fee and no breakpoints. Thinking tokens are billed as output (Google's pricing page: "output price including
// thinking tokens"); the importers add them to the recorded output. Cached input is the caching discount (90% on
// 2.5 and later, 75% on 2.0); cache storage (per MTok-hour, explicit caches only) is not in a request's log and is
// not priced. docs/pricing.md names the source and its date.
import type { LongPromptTier, PricedModel } from './types.ts';

/** The date the Gemini rows were read (LiteLLM's table as synced on 2026-07-24; see docs/pricing.md). */
export const GEMINI_PRICED_ON = '2026-07-24';

type GeminiRow = [
  id: string,
  displayName: string,
  prices: [input: number, cachedInput: number, output: number],
  minCacheableTokens: number,
  extra?: { aliases?: string[]; above200k?: [input: number, cachedInput: number, output: number] },
];

// Implicit-caching minimums from the provider reference §4: 2,048 tokens on 2.5, 4,096 on 3.x (2.0: 2,048 ⚠).
const GEMINI_ROWS: GeminiRow[] = [
  ['gemini-3.6-flash', 'Gemini 3.6 Flash', [1.5, 0.15, 7.5], 4096],
  ['gemini-3.5-flash', 'Gemini 3.5 Flash', [1.5, 0.15, 9], 4096],
  ['gemini-3.5-flash-lite', 'Gemini 3.5 Flash-Lite', [0.3, 0.03, 2.5], 4096],
  ['gemini-3.1-pro-preview', 'Gemini 3.1 Pro', [2, 0.2, 12], 4096, { aliases: ['gemini-3.1-pro', 'gemini-3.1-pro-preview-customtools'], above200k: [4, 0.4, 18] }],
  ['gemini-3.1-flash-lite-preview', 'Gemini 3.1 Flash-Lite', [0.25, 0.025, 1.5], 4096, { aliases: ['gemini-3.1-flash-lite'] }],
  // Gemini CLI records the routed model as `gemini-3-pro` (the fixture from codemie-ai/codemie-code): the same model.
  ['gemini-3-pro-preview', 'Gemini 3 Pro', [2, 0.2, 12], 4096, { aliases: ['gemini-3-pro'], above200k: [4, 0.4, 18] }],
  ['gemini-3-flash-preview', 'Gemini 3 Flash', [0.5, 0.05, 3], 4096, { aliases: ['gemini-3-flash'] }],
  ['gemini-2.5-pro', 'Gemini 2.5 Pro', [1.25, 0.125, 10], 2048, { above200k: [2.5, 0.25, 15] }],
  ['gemini-2.5-flash', 'Gemini 2.5 Flash', [0.3, 0.03, 2.5], 2048],
  ['gemini-2.5-flash-lite', 'Gemini 2.5 Flash-Lite', [0.1, 0.01, 0.4], 2048],
  ['gemini-2.0-flash', 'Gemini 2.0 Flash', [0.1, 0.025, 0.4], 2048],
  ['gemini-2.0-flash-lite', 'Gemini 2.0 Flash-Lite', [0.075, 0.01875, 0.3], 2048],
];

/** Above 200K prompt tokens (cached included) the whole request is billed at the long-context rates. */
function longTier([input, cachedInput, output]: [number, number, number]): LongPromptTier {
  return { aboveTokens: 200_000, input, output, cacheRead: cachedInput, cacheWrite5m: input, cacheWrite1h: input };
}

function geminiModel(row: GeminiRow): PricedModel {
  const [id, displayName, [input, cachedInput, output], minCacheableTokens, extra = {}] = row;
  return {
    id,
    displayName,
    provider: 'openai',
    vendor: 'google',
    input,
    output,
    cacheRead: cachedInput,
    cacheWrite5m: null,
    cacheWrite1h: null,
    minCacheableTokens,
    tokenizer: 'o200k_base',
    cacheRounding: 1,
    explicitBreakpoints: false,
    aliases: extra.aliases ?? [],
    vertexId: null,
    bedrockId: null,
    longPromptTier: extra.above200k ? longTier(extra.above200k) : null,
    longContextModifier: null,
    cacheReadBefore: null,
    pricedOn: GEMINI_PRICED_ON,
    bedrockRegionalPremium: false,
    fastModeFactor: null,
  };
}

export const GEMINI_MODELS: readonly PricedModel[] = GEMINI_ROWS.map(geminiModel);
