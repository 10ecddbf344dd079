// How a comparison's figures read (`ctxray compare` on the terminal and the app's compare view alike): each metric's
// name, a value in its unit, and a change signed with its relative size (a hit rate in percentage points).
import type { Change, MetricRow, Unit } from '../core/compare/index.ts';
import { formatCount, formatFraction, formatSigned, formatUsd } from '../core/text/format.ts';

export const METRIC_LABELS: Record<MetricRow['metric'], string> = {
  requests: 'requests',
  tokens: 'prompt tokens',
  cost: 'cost',
  optimized: 'optimized cost',
  potentialSavings: 'potential savings',
  hitRate: 'cache hit rate',
  cacheRead: 'cache read',
  cacheWrite: 'cache write',
  lostToMisses: 'lost to misses',
  missedTokens: 'missed tokens',
  findings: 'findings',
  errors: 'unreadable records',
};

export function compareValueText(value: number | null, unit: Unit): string {
  if (value === null) return 'n/a';
  if (unit === 'usd') return formatUsd(value);
  if (unit === 'fraction') return formatFraction(value);
  return formatCount(value);
}

/** The change: signed, in the unit (a hit rate in percentage points), with the relative change where there is one. */
export function compareChangeText(row: Change, unit: Unit): string {
  if (row.change === null) return 'n/a';
  if (row.change === 0) return 'same';
  if (unit === 'fraction') return `${formatSigned(row.change * 100, (size) => size.toFixed(1))} pp`;
  const size = formatSigned(row.change, (s) => compareValueText(s, unit));
  return row.relative === null ? size : `${size} (${formatSigned(row.relative, (s) => formatFraction(s))})`;
}

/** Where a side's cost comes from: recorded usage, the simulation, or both (how many requests each). */
export function costBasisText(basis: { recordedRequests: number; simulatedRequests: number } | null): string {
  if (basis === null) return 'not priced';
  const { recordedRequests, simulatedRequests } = basis;
  if (simulatedRequests === 0) return 'recorded cost';
  return recordedRequests === 0 ? 'simulated cost' : `cost recorded for ${formatCount(recordedRequests)}, simulated for ${formatCount(simulatedRequests)}`;
}
