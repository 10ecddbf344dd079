// The dated price and cache-rule table. Every figure comes from the provider reference
// (docs/pricing.md names the sources); an id that is not here is reported as unknown, never guessed.
import { GEMINI_MODELS } from './gemini.ts';
import type { LongContextModifier, PricedModel } from './types.ts';

export type { LongContextModifier, LongPromptTier, PricedModel } from './types.ts';

/** The date the figures below were checked against the providers' pages. */
export const PRICED_ON = '2026-11-10';

type ClaudeRow = [
  id: string,
  displayName: string,
  prices: [input: number, write5m: number, write1h: number, read: number, output: number],
  minCacheableTokens: number,
  extra?: Partial<Pick<PricedModel, 'aliases' | 'vertexId' | 'bedrockId' | 'longPromptTier' | 'cacheReadBefore' | 'fastModeFactor'>>,
];

/**
 * The ids of a Claude model released on `date` (YYYYMMDD) under `name`: the dated API id (and, for `latest`, the
 * -latest alias), the Vertex AI id and the Bedrock id, all spelled from the two as the providers do.
 */
function released(name: string, date: string, options: { latest?: boolean } = {}): Pick<PricedModel, 'aliases' | 'vertexId' | 'bedrockId'> {
  return {
    aliases: options.latest === true ? [`${name}-${date}`, `${name}-latest`] : [`${name}-${date}`],
    vertexId: `${name}@${date}`,
    bedrockId: `anthropic.${name}-${date}-v1:0`,
  };
}

/** Claude models released with Bedrock's global/regional endpoint split (Anthropic's pricing page, [AP]). */
const REGIONAL_PREMIUM_BEFORE_4_5 = new Set(['claude-opus-4-1', 'claude-opus-4-0', 'claude-sonnet-4-0', 'claude-3-5-haiku', 'claude-3-5-sonnet', 'claude-3-7-sonnet', 'claude-3-haiku', 'claude-3-opus']);

/** Sonnet 4 / 4.5 above 200K prompt tokens: input and output at 6 / 22.50, the cache rates at their usual multiples. */
const SONNET_4_LONG_CONTEXT = { aboveTokens: 200_000, input: 6, cacheWrite5m: 7.5, cacheWrite1h: 12, cacheRead: 0.6, output: 22.5 };

// [AP] table §2 of the reference; minimum cacheable lengths from [AC]/[SK].
const CLAUDE_ROWS: ClaudeRow[] = [
  ['claude-fable-5-2', 'Claude Fable 5.2', [8, 10, 16, 0.2, 40], 512],
  ['claude-mythos-5-2', 'Claude Mythos 5.2', [8, 10, 16, 0.2, 40], 512],
  ['claude-fable-5-1', 'Claude Fable 5.1', [10, 12.5, 20, 0.25, 50], 512],
  ['claude-mythos-5-1', 'Claude Mythos 5.1', [10, 12.5, 20, 0.25, 50], 512],
  ['claude-fable-5', 'Claude Fable 5', [10, 12.5, 20, 1, 50], 512],
  ['claude-mythos-5', 'Claude Mythos 5', [10, 12.5, 20, 1, 50], 512],
  // Fast mode (docs/pricing.md): $30/$150 on Opus 4.6 and 4.7, $10/$50 on Opus 4.8 and Opus 5, $8/$40 on Opus 5.5.
  ['claude-opus-5-5', 'Claude Opus 5.5', [4, 5, 8, 0.2, 20], 512, { fastModeFactor: 2 }],
  ['claude-opus-5', 'Claude Opus 5', [5, 6.25, 10, 0.5, 25], 512, { fastModeFactor: 2 }],
  ['claude-opus-4-8', 'Claude Opus 4.8', [5, 6.25, 10, 0.5, 25], 1024, { fastModeFactor: 2 }],
  ['claude-opus-4-7', 'Claude Opus 4.7', [5, 6.25, 10, 0.5, 25], 2048, { fastModeFactor: 6 }],
  ['claude-opus-4-6', 'Claude Opus 4.6', [5, 6.25, 10, 0.5, 25], 4096, { bedrockId: 'anthropic.claude-opus-4-6-v1:0', fastModeFactor: 6 }],
  ['claude-opus-4-5', 'Claude Opus 4.5', [5, 6.25, 10, 0.5, 25], 4096, released('claude-opus-4-5', '20251101')],
  ['claude-opus-4-1', 'Claude Opus 4.1', [15, 18.75, 30, 1.5, 75], 1024, released('claude-opus-4-1', '20250805')],
  ['claude-opus-4-0', 'Claude Opus 4', [15, 18.75, 30, 1.5, 75], 1024, released('claude-opus-4', '20250514')],
  ['claude-sonnet-5-5', 'Claude Sonnet 5.5', [2, 2.5, 4, 0.1, 10], 512, { cacheReadBefore: { date: '2026-10-07', cacheRead: 0.2 } }],
  ['claude-sonnet-5', 'Claude Sonnet 5', [2, 2.5, 4, 0.2, 10], 1024],
  ['claude-sonnet-4-6', 'Claude Sonnet 4.6', [3, 3.75, 6, 0.3, 15], 1024],
  // Sonnet 4 / 4.5 with the 1M-context beta: a prompt above 200K is billed whole at the long-context rates.
  ['claude-sonnet-4-5', 'Claude Sonnet 4.5', [3, 3.75, 6, 0.3, 15], 1024, { ...released('claude-sonnet-4-5', '20250929'), longPromptTier: SONNET_4_LONG_CONTEXT }],
  ['claude-sonnet-4-0', 'Claude Sonnet 4', [3, 3.75, 6, 0.3, 15], 1024, { ...released('claude-sonnet-4', '20250514'), longPromptTier: SONNET_4_LONG_CONTEXT }],
  ['claude-haiku-5-5', 'Claude Haiku 5.5', [0.1, 0.125, 0.2, 0.01, 0.5], 512, { longPromptTier: { aboveTokens: 100_000, input: 0.5, cacheWrite5m: 0.625, cacheWrite1h: 1, cacheRead: 0.05, output: 2.5 } }],
  ['claude-haiku-4-5', 'Claude Haiku 4.5', [1, 1.25, 2, 0.1, 5], 4096, released('claude-haiku-4-5', '20251001')],
  ['claude-3-5-haiku', 'Claude Haiku 3.5', [0.8, 1, 1.6, 0.08, 4], 2048, released('claude-3-5-haiku', '20241022', { latest: true })],
  // Retired 2025-10-28; old logs still name it. $3 / $15 at both releases (20240620, 20241022 'v2'), cache at the reference's multipliers (write 1.25x / 2x, read 0.1x).
  ['claude-3-5-sonnet', 'Claude Sonnet 3.5', [3, 3.75, 6, 0.3, 15], 1024, { ...released('claude-3-5-sonnet', '20240620', { latest: true }), aliases: ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-latest'] }],
  ['claude-3-7-sonnet', 'Claude Sonnet 3.7', [3, 3.75, 6, 0.3, 15], 1024, released('claude-3-7-sonnet', '20250219', { latest: true })],
  ['claude-3-haiku', 'Claude Haiku 3', [0.25, 0.3, 0.5, 0.03, 1.25], 2048, released('claude-3-haiku', '20240307')],
  ['claude-3-opus', 'Claude Opus 3', [15, 18.75, 30, 1.5, 75], 1024, released('claude-3-opus', '20240229', { latest: true })],
];

type OpenAIRow = [
  id: string,
  displayName: string,
  prices: [input: number, cachedInput: number, cacheWrite: number | null, output: number],
  extra?: Partial<Pick<PricedModel, 'aliases' | 'longContextModifier' | 'tokenizer' | 'pricedOn'>>,
];

/** Rows read on 2026-12-01 from the sources docs/pricing.md names; the rest of the table keeps PRICED_ON. */
const READ_2026_12_01 = { pricedOn: '2026-12-01' };

// Reference §3: GPT-5.6 and later bill cache writes, round cached tokens to 1 and take explicit breakpoints.
const LONG_CONTEXT_272K: LongContextModifier = { aboveTokens: 272_000, inputFactor: 2, outputFactor: 1.5 };
const OPENAI_ROWS: OpenAIRow[] = [
  ['gpt-6.2-sol', 'GPT-6.2 Sol', [2, 0.1, 2.5, 10], { longContextModifier: LONG_CONTEXT_272K }],
  // Cache prices not published for these two: derived from the documented GPT-5.6+ rule (read ≈ 0.1×, write 1.25×).
  ['gpt-6.2-astra', 'GPT-6.2 Astra', [8, 0.8, 10, 40], { longContextModifier: LONG_CONTEXT_272K }],
  ['gpt-6.1-sol', 'GPT-6.1 Sol', [2, 0.1, 2.5, 10], { longContextModifier: LONG_CONTEXT_272K }],
  ['gpt-6.1-terra', 'GPT-6.1 Terra', [1, 0.1, 1.25, 5], { longContextModifier: LONG_CONTEXT_272K }],
  ['gpt-6-astra', 'GPT-6 Astra', [10, 1, 12.5, 50], { longContextModifier: LONG_CONTEXT_272K }],
  ['gpt-6-sol', 'GPT-6 Sol', [2, 0.2, 2.5, 10], { longContextModifier: LONG_CONTEXT_272K }],
  ['gpt-6-luna', 'GPT-6 Luna', [0.1, 0.01, 0.125, 0.5], { longContextModifier: LONG_CONTEXT_272K }],
  ['gpt-5.6-sol', 'GPT-5.6 Sol', [4, 0.4, 5, 20], { longContextModifier: LONG_CONTEXT_272K }],
  ['gpt-5.6-terra', 'GPT-5.6 Terra', [2, 0.2, 2.5, 12]],
  ['gpt-5.6-luna', 'GPT-5.6 Luna', [0.2, 0.02, 0.25, 1.2]],
  ['gpt-5.5', 'GPT-5.5', [5, 0.5, null, 30]],
  ['gpt-5.4', 'GPT-5.4', [2.5, 0.25, null, 15]],
  ['gpt-5.4-mini', 'GPT-5.4 mini', [0.75, 0.075, null, 4.5]],
  ['gpt-5.2', 'GPT-5.2', [1.75, 0.175, null, 14]],
  // The Codex models and gpt-5-nano (docs/pricing.md names each row's source and its date).
  ['gpt-5.3-codex', 'GPT-5.3-Codex', [1.75, 0.175, null, 14], READ_2026_12_01],
  ['gpt-5.2-codex', 'GPT-5.2-Codex', [1.75, 0.175, null, 14], READ_2026_12_01],
  ['gpt-5.1-codex-max', 'GPT-5.1-Codex-Max', [1.25, 0.125, null, 10], READ_2026_12_01],
  ['gpt-5.1-codex', 'GPT-5.1-Codex', [1.25, 0.125, null, 10], READ_2026_12_01],
  ['gpt-5-codex', 'GPT-5-Codex', [1.25, 0.125, null, 10], READ_2026_12_01],
  ['gpt-5-nano', 'GPT-5 nano', [0.05, 0.005, null, 0.4], { aliases: ['gpt-5-nano-2025-08-07'], ...READ_2026_12_01 }],
  ['gpt-5', 'GPT-5', [1.25, 0.125, null, 10], { aliases: ['gpt-5-2025-08-07'] }],
  ['gpt-5-mini', 'GPT-5 mini', [0.25, 0.025, null, 2], { aliases: ['gpt-5-mini-2025-08-07'] }],
  ['gpt-4.1', 'GPT-4.1', [2, 0.5, null, 8], { aliases: ['gpt-4.1-2025-04-14'] }],
  ['gpt-4.1-mini', 'GPT-4.1 mini', [0.4, 0.1, null, 1.6], { aliases: ['gpt-4.1-mini-2025-04-14'] }],
  ['gpt-4.1-nano', 'GPT-4.1 nano', [0.1, 0.025, null, 0.4], { aliases: ['gpt-4.1-nano-2025-04-14'] }],
  ['gpt-4o', 'GPT-4o', [2.5, 1.25, null, 10], { aliases: ['gpt-4o-2024-08-06', 'gpt-4o-2024-11-20'] }],
  ['gpt-4o-mini', 'GPT-4o mini', [0.15, 0.075, null, 0.6], { aliases: ['gpt-4o-mini-2024-07-18'] }],
  ['o1', 'o1', [15, 7.5, null, 60], { aliases: ['o1-2024-12-17'] }],
  ['o3', 'o3', [2, 0.5, null, 8], { aliases: ['o3-2025-04-16'] }],
  ['o4-mini', 'o4-mini', [1.1, 0.275, null, 4.4], { aliases: ['o4-mini-2025-04-16'] }],
];

/** OpenAI models whose cache rules follow GPT-5.6: billed writes, no 128-token rounding, explicit breakpoints. */
function isGpt56OrLater(id: string): boolean {
  return /^gpt-(5\.6|6)/.test(id);
}

function claudeModel(row: ClaudeRow): PricedModel {
  const [id, displayName, [input, write5m, write1h, read, output], minCacheableTokens, extra = {}] = row;
  return {
    id,
    displayName,
    provider: 'anthropic',
    input,
    output,
    cacheRead: read,
    cacheWrite5m: write5m,
    cacheWrite1h: write1h,
    minCacheableTokens,
    tokenizer: 'claude-estimate',
    cacheRounding: 1,
    explicitBreakpoints: false,
    aliases: extra.aliases ?? [],
    vertexId: extra.vertexId ?? null,
    bedrockId: extra.bedrockId ?? null,
    longPromptTier: extra.longPromptTier ?? null,
    longContextModifier: null,
    cacheReadBefore: extra.cacheReadBefore ?? null,
    vendor: 'anthropic',
    pricedOn: PRICED_ON,
    bedrockRegionalPremium: !REGIONAL_PREMIUM_BEFORE_4_5.has(id),
    fastModeFactor: extra.fastModeFactor ?? null,
  };
}

function openaiModel(row: OpenAIRow): PricedModel {
  const [id, displayName, [input, cachedInput, cacheWrite, output], extra = {}] = row;
  const newCache = isGpt56OrLater(id);
  return {
    id,
    displayName,
    provider: 'openai',
    input,
    output,
    cacheRead: cachedInput,
    cacheWrite5m: cacheWrite,
    cacheWrite1h: null,
    minCacheableTokens: 1024,
    tokenizer: extra.tokenizer ?? 'o200k_base',
    cacheRounding: newCache ? 1 : 128,
    explicitBreakpoints: newCache,
    aliases: extra.aliases ?? [],
    vertexId: null,
    bedrockId: null,
    longPromptTier: null,
    longContextModifier: extra.longContextModifier ?? null,
    cacheReadBefore: null,
    vendor: 'openai',
    pricedOn: extra.pricedOn ?? PRICED_ON,
    bedrockRegionalPremium: false,
    fastModeFactor: null,
  };
}

/** Every priced model. */
export const MODELS: readonly PricedModel[] = [...CLAUDE_ROWS.map(claudeModel), ...OPENAI_ROWS.map(openaiModel), ...GEMINI_MODELS];
