// Sums of per-request token counts, for a file or the whole input.
import type { Category } from '../model.ts';
import type { RequestTokens } from '../tokens/counter.ts';
import type { Analysis, AnalysisFile, TokenTotals } from './types.ts';

export function emptyTotals(): TokenTotals {
  return { requests: 0, tokens: 0, exactRequests: 0, byCategory: {}, overhead: 0 };
}

export function addRequest(totals: TokenTotals, tokens: RequestTokens): void {
  totals.requests++;
  totals.tokens += tokens.total;
  totals.overhead += tokens.overheadTotal;
  if (tokens.exact) totals.exactRequests++;
  for (const [category, value] of Object.entries(tokens.byCategory) as [Category, number][]) {
    totals.byCategory[category] = (totals.byCategory[category] ?? 0) + value;
  }
}

/** File and input totals of an analysis recounted from new per-request counts (its files copied, not changed). */
export function recountTotals(analysis: Analysis, tokens: readonly RequestTokens[]): { files: AnalysisFile[]; totals: TokenTotals } {
  const totals = emptyTotals();
  const files = analysis.files.map((file) => ({ ...file, totals: emptyTotals() }));
  tokens.forEach((counted, r) => {
    addRequest(totals, counted);
    const file = files[analysis.requests[r]?.file ?? -1];
    if (file) addRequest(file.totals, counted);
  });
  return { files, totals };
}
