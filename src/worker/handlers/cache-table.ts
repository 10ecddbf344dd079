// Worker side of the Cache panel: the text-free per-request cache table, built from the session's cache analysis
// (the analysis' `cache` section, or the one computed once per session by cache-analysis.ts).
import { cacheTable, type CacheTable } from '../../core/cache/table.ts';
import { requireSession, type WorkerSession } from '../session.ts';
import { cacheAnalysisOf } from './cache-analysis.ts';

export function cacheTableQuery(session: WorkerSession | null): CacheTable {
  const current = requireSession(session);
  return cacheTable(current.requests, cacheAnalysisOf(current).cost);
}
