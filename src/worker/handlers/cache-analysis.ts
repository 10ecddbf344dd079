// The cache analysis (conversations, simulation, findings) of the session's input: the analysis' `cache` section
// when the analysis carries one, else computed here once per session from the analysis' own token counts.
import type { Analysis } from '../../core/analysis/types.ts';
import { cacheInputOf } from '../../core/analysis/attach.ts';
import { analyzeCache, type CacheAnalysis } from '../../core/cache/index.ts';
import { requireSession, type WorkerSession } from '../session.ts';

const computed = new WeakMap<WorkerSession, CacheAnalysis>();

function isCacheAnalysis(value: unknown): value is CacheAnalysis {
  return typeof value === 'object' && value !== null && 'conversations' in value && 'findings' in value && 'cost' in value;
}

export function cacheAnalysisOf(session: WorkerSession | null): CacheAnalysis {
  const current = requireSession(session);
  const section = current.sections['cache'];
  if (isCacheAnalysis(section)) return section;
  let cache = computed.get(current);
  if (cache === undefined) {
    const analysis = current.analysis as Analysis;
    cache = analyzeCache(cacheInputOf(analysis));
    computed.set(current, cache);
  }
  return cache;
}
