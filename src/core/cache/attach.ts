// Adds the cache analysis to an Analysis: conversations, both simulations with their costs, near-duplicate groups
// and findings, computed from the analysis' own (possibly calibrated) token counts. Re-run it after anything that
// changes those counts (calibration), so the cache figures never lag behind the tokens they are built on.
import type { Analysis } from '../analysis/types.ts';
import { analyzeCache } from './index.ts';

export function withCacheAnalysis(analysis: Analysis): Analysis {
  const cache = analyzeCache({
    requests: analysis.requests,
    segmentTokens: analysis.segmentTokens,
    overheadTokens: analysis.overheadTokens,
    pricingOf: (i) => analysis.models[i]?.pricing ?? null,
  });
  return {
    ...analysis,
    cache,
    conversations: cache.conversations,
    findings: cache.findings,
    nearDuplicates: cache.nearDuplicates,
  };
}
