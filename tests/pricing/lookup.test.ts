import { describe, expect, it } from 'vitest';
import { effectivePricing, lookupModel } from '../../src/core/pricing/lookup.ts';
import { MODELS, PRICED_ON } from '../../src/core/pricing/table.ts';

describe('lookupModel id forms', () => {
  it.each([
    ['claude-sonnet-4-5', 'claude-sonnet-4-5', 'api'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', 'snapshot'],
    ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5', 'vertex'],
    ['anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5', 'bedrock'],
    ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 'claude-haiku-4-5', 'bedrock'],
    ['global.anthropic.claude-opus-5-5', 'claude-opus-5-5', 'bedrock'],
    ['eu.anthropic.claude-haiku-5-5', 'claude-haiku-5-5', 'bedrock'],
    ['apac.anthropic.claude-opus-4-6-v1:0', 'claude-opus-4-6', 'bedrock'],
    ['claude-opus-4-20250514', 'claude-opus-4-0', 'snapshot'],
    ['claude-3-5-haiku@20241022', 'claude-3-5-haiku', 'vertex'],
    ['claude-3-opus-latest', 'claude-3-opus', 'snapshot'],
    ['gpt-4o-2024-08-06', 'gpt-4o', 'snapshot'],
    ['GPT-5.6-Sol', 'gpt-5.6-sol', 'api'],
  ])('%s → %s (%s)', (id, canonical, via) => {
    const match = lookupModel(id);
    expect(match?.pricing.id).toBe(canonical);
    expect(match?.via).toBe(via);
    expect(match?.requestedId).toBe(id);
  });

  it.each(['claude-sonnet-4-7', 'gpt-4o-search-preview', 'o1-mini', 'gpt-5.1-codex-mini', 'anthropic.gpt-4o', 'claude-opus-4-6@20250101', 'gpt-6.3-sol', '', 'us.claude-opus-5'])(
    'reports %j as unknown instead of pricing it as another model',
    (id) => {
      expect(lookupModel(id)).toBeNull();
    },
  );
});

describe('price table', () => {
  it('holds the documented prices and cache rules', () => {
    const get = (id: string) => lookupModel(id)!.pricing;
    expect(get('claude-opus-5-5')).toMatchObject({ input: 4, cacheWrite5m: 5, cacheWrite1h: 8, cacheRead: 0.2, output: 20, minCacheableTokens: 512 });
    expect(get('claude-opus-4-6')).toMatchObject({ input: 5, cacheRead: 0.5, minCacheableTokens: 4096 });
    expect(get('claude-opus-4-7').minCacheableTokens).toBe(2048);
    expect(get('claude-fable-5-1')).toMatchObject({ cacheRead: 0.25, output: 50 });
    expect(get('claude-haiku-4-5')).toMatchObject({ input: 1, cacheWrite5m: 1.25, minCacheableTokens: 4096, tokenizer: 'claude-estimate' });
    expect(get('gpt-4o')).toMatchObject({ input: 2.5, cacheRead: 1.25, cacheWrite5m: null, cacheRounding: 128, explicitBreakpoints: false, minCacheableTokens: 1024 });
    expect(get('gpt-5.6-terra')).toMatchObject({ input: 2, cacheRead: 0.2, cacheWrite5m: 2.5, cacheRounding: 1, explicitBreakpoints: true });
    expect(get('gpt-6.2-astra')).toMatchObject({ input: 8, cacheRead: 0.8, cacheWrite5m: 10, output: 40 });
    // Rows added 2026-12-01 (docs/pricing.md names each source).
    expect(get('gpt-5.3-codex')).toMatchObject({ input: 1.75, cacheRead: 0.175, cacheWrite5m: null, output: 14, cacheRounding: 128 });
    expect(get('gpt-5.1-codex-max')).toMatchObject({ input: 1.25, cacheRead: 0.125, output: 10 });
    expect(get('gpt-5-nano-2025-08-07')).toMatchObject({ id: 'gpt-5-nano', input: 0.05, cacheRead: 0.005, output: 0.4 });
    expect(get('gpt-6-luna')).toMatchObject({ input: 0.1, cacheRounding: 1, explicitBreakpoints: true });
    expect(get('claude-sonnet-5-5').cacheReadBefore).toEqual({ date: '2026-10-07', cacheRead: 0.2 });
    expect(PRICED_ON).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('has unique ids and aliases', () => {
    const ids = MODELS.flatMap((m) => [m.id, ...m.aliases]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('applies the Haiku 5.5 >100K tier and the OpenAI >272K modifier to the whole request', () => {
    const haiku = lookupModel('claude-haiku-5-5')!.pricing;
    expect(effectivePricing(haiku, 100_000).input).toBe(0.1);
    expect(effectivePricing(haiku, 100_001)).toMatchObject({ input: 0.5, output: 2.5, cacheRead: 0.05, cacheWrite5m: 0.625, cacheWrite1h: 1 });
    const sol = lookupModel('gpt-6-sol')!.pricing;
    expect(effectivePricing(sol, 272_000).input).toBe(2);
    expect(effectivePricing(sol, 272_001)).toMatchObject({ input: 4, cacheRead: 0.4, cacheWrite5m: 5, output: 15 });
    // Sonnet 4 / 4.5 with the 1M-context beta: above 200K prompt tokens the whole request at 6 / 7.50 / 12 / 0.60 / 22.50.
    for (const id of ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-20250514', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0']) {
      const sonnet = lookupModel(id)!.pricing;
      expect(effectivePricing(sonnet, 200_000)).toMatchObject({ input: 3, output: 15 });
      expect(effectivePricing(sonnet, 200_001)).toMatchObject({ input: 6, cacheWrite5m: 7.5, cacheWrite1h: 12, cacheRead: 0.6, output: 22.5 });
    }
    // Sonnet 4.6 bills its whole 1M window at the standard rates.
    expect(effectivePricing(lookupModel('claude-sonnet-4-6')!.pricing, 500_000).input).toBe(3);
    const gpt4o = lookupModel('gpt-4o')!.pricing;
    expect(effectivePricing(gpt4o, 500_000).input).toBe(2.5);
  });
});
