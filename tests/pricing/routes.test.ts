// Route id forms (Bedrock regional/global, ARNs, LiteLLM routes, OpenRouter, Azure, Vertex resources) and the
// prices they resolve to, each worked out from docs/pricing.md: Bedrock regional endpoints are +10% for Claude 4.5
// and later, `global.` is the list price; every other route is the list price.
import { describe, expect, it } from 'vitest';
import { lookupModel } from '../../src/core/pricing/lookup.ts';

describe('route id forms', () => {
  it.each([
    ['converse/jp.anthropic.claude-haiku-4-5-20251001-v1:0', 'claude-haiku-4-5', 'bedrock'],
    ['bedrock/converse/us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5', 'bedrock'],
    ['arn:aws:bedrock:eu-west-1::foundation-model/anthropic.claude-3-7-sonnet-20250219-v1:0', 'claude-3-7-sonnet', 'bedrock'],
    ['au.anthropic.claude-sonnet-4-6', 'claude-sonnet-4-6', 'bedrock'],
    ['us-gov.anthropic.claude-3-haiku-20240307-v1:0', 'claude-3-haiku', 'bedrock'],
    // Sonnet 3.5's second release: Bedrock -v2:0 on its dated id, Vertex name-v2@date.
    ['us.anthropic.claude-3-5-sonnet-20241022-v2:0', 'claude-3-5-sonnet', 'bedrock'],
    ['anthropic.claude-3-5-sonnet-20240620-v1:0', 'claude-3-5-sonnet', 'bedrock'],
    ['claude-3-5-sonnet-v2@20241022', 'claude-3-5-sonnet', 'vertex'],
    ['claude-3-5-sonnet@20240620', 'claude-3-5-sonnet', 'vertex'],
    ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet', 'snapshot'],
    ['anthropic/claude-3.5-sonnet', 'claude-3-5-sonnet', 'openrouter'],
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5', 'openrouter'],
    ['anthropic/claude-3.7-sonnet:thinking', 'claude-3-7-sonnet', 'openrouter'],
    ['anthropic/claude-opus-4', 'claude-opus-4-0', 'openrouter'],
    ['openrouter/anthropic/claude-opus-4.7', 'claude-opus-4-7', 'openrouter'],
    ['openai/gpt-4.1-mini', 'gpt-4.1-mini', 'openrouter'],
    ['google/gemini-2.5-pro', 'gemini-2.5-pro', 'openrouter'],
    ['azure/gpt-4o-2024-08-06', 'gpt-4o', 'azure'],
    ['vertex_ai/claude-sonnet-4-5@20250929', 'claude-sonnet-4-5', 'vertex'],
    ['publishers/anthropic/models/claude-haiku-4-5@20251001', 'claude-haiku-4-5', 'vertex'],
    ['models/gemini-2.5-flash', 'gemini-2.5-flash', 'api'],
    ['gemini-3-pro', 'gemini-3-pro-preview', 'snapshot'],
  ])('%s → %s (%s)', (id, canonical, via) => {
    const match = lookupModel(id);
    expect(match?.pricing.id).toBe(canonical);
    expect(match?.via).toBe(via);
  });

  it.each(['anthropic/claude-sonnet-4.5:free', 'jp.claude-haiku-4-5', 'google/gemini-9-ultra', 'azure/my-deployment', 'openai/gpt-4.5-preview', 'gemini-2.5-flash-preview-05-20'])(
    'leaves %j unknown',
    (id) => expect(lookupModel(id)).toBeNull(),
  );
});

describe('route prices', () => {
  it('bills Bedrock regional endpoints of Claude 4.5+ at +10%, the global profile at the list price', () => {
    // Haiku 4.5 list: 1 / 1.25 / 2 / 0.1 / 5 → regional 1.1 / 1.375 / 2.2 / 0.11 / 5.5.
    const regional = lookupModel('converse/jp.anthropic.claude-haiku-4-5-20251001-v1:0')!;
    expect(regional.pricing).toMatchObject({ id: 'claude-haiku-4-5', input: 1.1, cacheWrite5m: 1.375, cacheWrite1h: 2.2, cacheRead: 0.11, output: 5.5 });
    expect(regional.routeNote).toBe('Bedrock regional endpoint, +10%');
    const inRegion = lookupModel('anthropic.claude-sonnet-4-5-20250929-v1:0')!;
    expect(inRegion.pricing).toMatchObject({ input: 3.3, output: 16.5, cacheRead: 0.33 });
    const global = lookupModel('global.anthropic.claude-haiku-4-5-20251001-v1:0')!;
    expect(global.pricing).toMatchObject({ input: 1, output: 5, cacheRead: 0.1 });
    expect(global.routeNote).toBeNull();
    // Haiku 5.5's >100K tier is scaled too: 0.5 → 0.55 input, 2.5 → 2.75 output.
    expect(lookupModel('eu.anthropic.claude-haiku-5-5')!.pricing.longPromptTier).toMatchObject({ input: 0.55, output: 2.75 });
  });

  it('keeps the list price for models from before the split, and on Vertex, OpenRouter and Azure', () => {
    expect(lookupModel('us.anthropic.claude-sonnet-4-20250514-v1:0')!.pricing).toMatchObject({ input: 3, output: 15 });
    expect(lookupModel('claude-sonnet-4-5@20250929')!.pricing).toMatchObject({ input: 3, output: 15 });
    expect(lookupModel('anthropic/claude-sonnet-4.5')!.pricing).toMatchObject({ input: 3, output: 15 });
    expect(lookupModel('azure/gpt-4o')!.pricing).toMatchObject({ input: 2.5, cacheRead: 1.25, output: 10 });
  });

  it('prices every Gemini model with its caching discount and a long-context tier where it has one', () => {
    expect(lookupModel('gemini-2.5-pro')!.pricing).toMatchObject({ input: 1.25, cacheRead: 0.125, output: 10, cacheWrite5m: null, vendor: 'google', pricedOn: '2026-07-24' });
    expect(lookupModel('gemini-2.5-pro')!.pricing.longPromptTier).toMatchObject({ aboveTokens: 200_000, input: 2.5, cacheRead: 0.25, output: 15 });
    expect(lookupModel('gemini-2.5-flash')!.pricing).toMatchObject({ input: 0.3, cacheRead: 0.03, output: 2.5 });
    expect(lookupModel('gemini-2.0-flash')!.pricing).toMatchObject({ input: 0.1, cacheRead: 0.025, output: 0.4 });
    expect(lookupModel('gemini-3-pro-preview')!.pricing).toMatchObject({ input: 2, cacheRead: 0.2, output: 12, minCacheableTokens: 4096 });
  });
});
