// Before → after: every headline figure, token category, miss cause and finding code of two analysis records,
// with the change and whether it went the better or the worse way. Pure: two sides in, one comparison out.
import type { CompareSide } from './side.ts';

/** Headline metrics, in output order; the ids are a public contract (`--fail-if-worse <metric>`, the record). */
export const COMPARE_METRICS = [
  'requests',
  'tokens',
  'cost',
  'optimized',
  'potentialSavings',
  'hitRate',
  'cacheRead',
  'cacheWrite',
  'lostToMisses',
  'missedTokens',
  'findings',
  'errors',
] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

export type Unit = 'count' | 'tokens' | 'usd' | 'fraction';
export type Verdict = 'better' | 'worse' | 'same' | 'unknown';

interface MetricSpec {
  unit: Unit;
  /** Which way is better (the verdict of a change). */
  better: 'lower' | 'higher';
  value: (side: CompareSide) => number | null;
}

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

const METRICS: Record<CompareMetric, MetricSpec> = {
  requests: { unit: 'count', better: 'lower', value: (s) => s.requests },
  tokens: { unit: 'tokens', better: 'lower', value: (s) => s.tokens },
  cost: { unit: 'usd', better: 'lower', value: (s) => s.cost?.actual ?? null },
  optimized: { unit: 'usd', better: 'lower', value: (s) => s.cost?.optimized ?? null },
  potentialSavings: { unit: 'usd', better: 'lower', value: (s) => s.cost?.potentialSavings ?? null },
  hitRate: { unit: 'fraction', better: 'higher', value: (s) => s.hitRate },
  cacheRead: { unit: 'tokens', better: 'higher', value: (s) => s.cacheRead },
  cacheWrite: { unit: 'tokens', better: 'lower', value: (s) => s.cacheWrite },
  lostToMisses: { unit: 'usd', better: 'lower', value: (s) => (s.cost === null ? null : sum(Object.values(s.misses).map((m) => m.cost))) },
  missedTokens: { unit: 'tokens', better: 'lower', value: (s) => (s.cost === null ? null : sum(Object.values(s.misses).map((m) => m.tokens))) },
  findings: { unit: 'count', better: 'lower', value: (s) => (s.findingsSource === 'none' ? null : sum(Object.values(s.findings).map((f) => f.findings))) },
  errors: { unit: 'count', better: 'lower', value: (s) => s.errors },
};

export interface Change {
  before: number | null;
  after: number | null;
  /** after − before; null when either side lacks the figure. */
  change: number | null;
  /** change ÷ before; null when before is 0 or missing. */
  relative: number | null;
}

export interface MetricRow extends Change {
  metric: CompareMetric;
  unit: Unit;
  better: 'lower' | 'higher';
  verdict: Verdict;
}

export interface CategoryRow extends Change {
  category: string;
}

export interface MissRow {
  cause: string;
  count: Change;
  tokens: Change;
  cost: Change;
}

export interface FindingRow {
  code: string;
  severity: string;
  findings: Change;
  requests: Change;
}

export interface Comparison {
  metrics: MetricRow[];
  tokensByCategory: CategoryRow[];
  misses: MissRow[];
  findings: FindingRow[];
}

/** Sums of money carry float noise (0.1 + 0.2): a change this small relative to the figures is no change. */
const EPSILON = 1e-9;

export function change(before: number | null, after: number | null): Change {
  if (before === null || after === null) return { before, after, change: null, relative: null };
  const delta = after - before;
  const noise = EPSILON * Math.max(Math.abs(before), Math.abs(after), 1);
  const exact = Math.abs(delta) <= noise ? 0 : delta;
  return { before, after, change: exact, relative: before === 0 ? null : exact / before };
}

function verdictOf(row: Change, better: 'lower' | 'higher'): Verdict {
  if (row.change === null) return 'unknown';
  if (row.change === 0) return 'same';
  return (row.change < 0) === (better === 'lower') ? 'better' : 'worse';
}

/** Keys of both sides: the before side's order first, then what only the after side has. */
function keysOf<T>(before: Record<string, T>, after: Record<string, T>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])];
}

export function compareSides(before: CompareSide, after: CompareSide): Comparison {
  const metrics = COMPARE_METRICS.map((metric): MetricRow => {
    const spec = METRICS[metric];
    const row = change(spec.value(before), spec.value(after));
    return { metric, unit: spec.unit, better: spec.better, ...row, verdict: verdictOf(row, spec.better) };
  });
  const tokensByCategory = keysOf(before.byCategory, after.byCategory).map((category) => ({
    category,
    ...change(before.byCategory[category] ?? 0, after.byCategory[category] ?? 0),
  }));
  const noMiss = { count: 0, tokens: 0, cost: 0 };
  const misses = keysOf(before.misses, after.misses).map((cause): MissRow => {
    const b = before.misses[cause] ?? noMiss;
    const a = after.misses[cause] ?? noMiss;
    return { cause, count: change(b.count, a.count), tokens: change(b.tokens, a.tokens), cost: change(b.cost, a.cost) };
  });
  const findings = keysOf(before.findings, after.findings).map((code): FindingRow => {
    const b = before.findings[code];
    const a = after.findings[code];
    return {
      code,
      severity: (b ?? a)?.severity ?? 'info',
      findings: change(b?.findings ?? 0, a?.findings ?? 0),
      requests: change(b?.requests ?? 0, a?.requests ?? 0),
    };
  });
  return { metrics, tokensByCategory, misses, findings };
}

/** Metric id from a flag value: `hit-rate`, `hitRate` and `hitrate` are all hitRate. Undefined when unknown. */
export function metricOf(name: string): CompareMetric | undefined {
  const wanted = name.replaceAll('-', '').replaceAll('_', '').toLowerCase();
  return COMPARE_METRICS.find((metric) => metric.toLowerCase() === wanted);
}

/** `--fail-if-worse`: the rows of the named metrics that went the worse way. */
export function worseMetrics(comparison: Comparison, metrics: readonly CompareMetric[]): MetricRow[] {
  return comparison.metrics.filter((row) => metrics.includes(row.metric) && row.verdict === 'worse');
}
