// Order statistics for the agreement figures. Nearest-rank percentiles: the reported value is always one of the
// measured values, so a stated "p90 error" is an error some request really had.

/** The p-th percentile (0 < p ≤ 100) by nearest rank, or null for no values. Does not modify `values`. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[rank - 1] ?? null;
}

export interface ErrorStats {
  /** How many errors the figures are over. */
  count: number;
  /** Nearest-rank median and 90th percentile of the absolute relative error (0.05 = 5%). */
  median: number | null;
  p90: number | null;
}

export function errorStats(absErrors: readonly number[]): ErrorStats {
  return { count: absErrors.length, median: percentile(absErrors, 50), p90: percentile(absErrors, 90) };
}
