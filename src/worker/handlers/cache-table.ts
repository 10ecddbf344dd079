// Worker side of the Cache panel: the text-free per-request cache table. Uses the analysis' cache section when the
// analysis carries one (its cost comparison), else runs the simulation on the analysis' own token counts.
import type { Analysis } from '../../core/analysis/types.ts';
import { costScenarios } from '../../core/cache/cost.ts';
import { cacheTable, type CacheTable } from '../../core/cache/table.ts';
import type { CostComparison } from '../../core/cache/types.ts';
import { requireSession, type WorkerSession } from '../session.ts';

function hasCost(section: unknown): section is { cost: CostComparison } {
  if (typeof section !== 'object' || section === null || !('cost' in section)) return false;
  const cost = (section as { cost: unknown }).cost;
  return typeof cost === 'object' && cost !== null && 'actual' in cost && 'optimized' in cost;
}

export function cacheTableQuery(session: WorkerSession | null): CacheTable {
  const current = requireSession(session);
  const section = current.sections['cache'];
  if (hasCost(section)) return cacheTable(current.requests, section.cost);
  const analysis = current.analysis as Analysis;
  const cost = costScenarios({
    requests: analysis.requests,
    segmentTokens: analysis.segmentTokens,
    overheadTokens: analysis.overheadTokens,
    pricingOf: (i) => analysis.models[i]?.pricing ?? null,
  });
  return cacheTable(analysis.requests, cost);
}
