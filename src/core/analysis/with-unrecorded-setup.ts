// The system prompt and tools a transcript does not record, as one part of each request's count: the size the
// cache analysis inferred from recorded usage (cache/inferred.ts, recorded prompt − reconstructed) becomes the
// request's `setup_inferred` category, so its total is the provider's count and the treemap shows the biggest
// block. The simulation already sends it as prefix tokens before the first block; the segments and overhead it is
// given (cacheInputOf) never include it, so it is counted once, and re-running the analysis re-derives it.
import type { CacheAnalysis } from '../cache/index.ts';
import { reconstructedTokens } from '../cache/unrecorded-setup.ts';
import type { RequestTokens } from '../tokens/counter.ts';
import { recountTotals } from './totals.ts';
import type { Analysis } from './types.ts';

/** The analysis with each request's inferred setup in its tokens, category totals and file and input totals. */
export function withUnrecordedSetup(analysis: Analysis, cache: CacheAnalysis): Analysis {
  const setup = cache.inferred.setupTokens;
  if (!setup.some((tokens) => tokens > 0) && !analysis.tokens.some((t) => t.byCategory.setup_inferred !== undefined)) return analysis;
  const tokens = analysis.tokens.map((counted, r): RequestTokens => {
    const { setup_inferred: _previous, ...byCategory } = counted.byCategory;
    const rebuilt = reconstructedTokens(counted);
    const inferred = setup[r] ?? 0;
    return inferred > 0
      ? // An estimate inside the total: the count is not exact, whatever counted the rest.
        { ...counted, total: rebuilt + inferred, exact: false, byCategory: { ...byCategory, setup_inferred: inferred } }
      : { ...counted, total: rebuilt, byCategory };
  });
  return { ...analysis, ...recountTotals(analysis, tokens), tokens };
}
