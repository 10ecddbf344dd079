// The system prompt and tools a transcript does not record, as one part of each request's count: the size the
// cache analysis inferred from recorded usage (inferred.ts, recorded prompt − reconstructed) becomes the request's
// `setup_inferred` category, so its total is the provider's count and the treemap shows the biggest block. The
// simulation already sends it as prefix tokens before the first block; the segments and overhead it is given
// (cacheInputOf) never include it, so it is counted once, and re-running the analysis re-derives it.
import { recountTotals } from '../analysis/totals.ts';
import type { Analysis } from '../analysis/types.ts';
import type { ParsedRequest } from '../model.ts';
import type { RequestTokens } from '../tokens/counter.ts';
import type { CacheAnalysis } from './index.ts';

/**
 * What the `setup_inferred` part of a request stands for: the system prompt and/or tools the transcript did not
 * record, and on a rollout that carries encrypted reasoning (Codex) also that reasoning, whose tokens are only
 * estimated from its length, so the difference to the recorded prompt holds its error (it grows along the
 * conversation). Fixed codes, in this order; empty for a request whose log records its whole setup.
 */
export const UNRECORDED_PARTS = ['system_prompt', 'tools', 'hidden_reasoning'] as const;
export type UnrecordedPart = (typeof UNRECORDED_PARTS)[number];

export function unrecordedParts(request: ParsedRequest): UnrecordedPart[] {
  const parts: UnrecordedPart[] = [];
  if (request.notes.some((note) => note.code === 'transcript_missing_system')) parts.push('system_prompt');
  if (request.notes.some((note) => note.code === 'transcript_missing_tools')) parts.push('tools');
  if (parts.length > 0 && request.segments.some((segment) => segment.wire.includes('"encrypted_content"'))) parts.push('hidden_reasoning');
  return parts;
}

/** Tokens of the request rebuilt from the log: its segments and overhead, without the inferred setup. */
export const reconstructedTokens = (tokens: RequestTokens): number => tokens.total - (tokens.byCategory.setup_inferred ?? 0);

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
