// Runs the cache simulation over a whole input, in file order: each request goes to its provider's rules, and
// each provider keeps one cache per model (a model only reads what was cached on that model).

import { providerOf } from '../model.ts';
import type { ParsedRequest } from '../model.ts';
import type { ModelPricing } from '../pricing/types.ts';
import { AnthropicCache } from './anthropic.ts';
import { OpenAICache } from './openai.ts';
import { strippedThinking } from './thinking.ts';
import type { RequestCacheResult, SimulationInput, SimulationResult, SimulationTotals } from './types.ts';
import { ViewBuilder } from './view.ts';

export function simulateCache(input: SimulationInput): SimulationResult {
  const anthropic = new AnthropicCache(input.scenario);
  const openai = new OpenAICache();
  const anthropicViews = new ViewBuilder(input.scenario, true);
  const openaiViews = new ViewBuilder(input.scenario, false);
  const requests: RequestCacheResult[] = [];
  let assumedWithinTtl = false;
  input.requests.forEach((request, i) => {
    if (request.timestamp === null) assumedWithinTtl = true;
    const pricing = input.pricingOf(i);
    const tokens = input.segmentTokens[i] ?? [];
    const counts = { tokens, overhead: input.overheadTokens[i] ?? 0, framing: input.framingTokens?.[i] };
    const scope = cacheScopeOf(request, pricing);
    if (providerOf(request.format) === 'anthropic') {
      const view = anthropicViews.build(request, counts, {
        dropped: strippedThinking(request, pricing),
        setupVersion: input.setupVersionOf?.(i) ?? 0,
        setupBreakpoint: input.setupBreakpointOf?.(i) ?? null,
      });
      const inferred = input.inferredMarkerOf?.(i) ?? null;
      requests.push(anthropic.simulate(request, view, { pricing, cacheScope: scope, inferred, warmTokens: input.warmTokensOf?.(i) ?? 0 }));
    } else {
      requests.push(openai.simulate(request, openaiViews.build(request, counts), { pricing, cacheScope: scope, warmTokens: input.warmTokensOf?.(i) ?? 0 }));
    }
  });
  return { scenario: input.scenario, requests, totals: totalsOf(requests), assumedWithinTtl };
}

/** Caches are per model: the priced id (so snapshot and cloud forms of one model share), else the id as sent. */
export function cacheScopeOf(request: ParsedRequest, pricing: ModelPricing | null): string {
  return `${providerOf(request.format)}:${pricing?.id ?? request.model ?? ''}`;
}

function totalsOf(requests: readonly RequestCacheResult[]): SimulationTotals {
  const totals: SimulationTotals = {
    requests: requests.length,
    promptTokens: 0,
    read: 0,
    write5m: 0,
    write1h: 0,
    uncached: 0,
    hits: 0,
    rejected: 0,
    promptCacheKeys: 0,
  };
  for (const r of requests) {
    totals.promptTokens += r.promptTokens;
    totals.read += r.read;
    totals.write5m += r.write5m;
    totals.write1h += r.write1h;
    totals.uncached += r.uncached;
    if (r.hit) totals.hits++;
    if (r.rejected) totals.rejected++;
    if (r.promptCacheKey) totals.promptCacheKeys++;
  }
  return totals;
}
