// Worker side of the Cache panel: the text-free per-request cache table, built from the session's cache analysis
// (the analysis' `cache` section, or the one computed once per session by cache-analysis.ts). With
// `{ calibrate: true }` the Claude estimates are first rescaled by the factor measured on the log's own recorded
// usage (offline: the page never talks to a provider), and the cache analysis is redone on those counts.
import type { Analysis } from '../../core/analysis/types.ts';
import { calibrateAnalysis } from '../../core/cache/calibrate-analysis.ts';
import { calibrationFromUsage, type Calibration } from '../../core/cache/calibrate.ts';
import { cacheInputOf } from '../../core/cache/attach.ts';
import { analyzeCache, type CacheAnalysis } from '../../core/cache/index.ts';
import { cacheTable, type CacheTable } from '../../core/cache/table.ts';
import { QueryError, requireSession, type WorkerSession } from '../session.ts';
import { cacheAnalysisOf } from './cache-analysis.ts';

export interface CacheTableAnswer extends CacheTable {
  /** The factor measured on recorded usage, when the log has any for Claude requests (offered, not yet applied). */
  availableCalibration: Calibration | null;
  /** The factor the figures were computed with, or null when they use the uncalibrated estimates. */
  appliedCalibration: Calibration | null;
}

const calibratedBySession = new WeakMap<WorkerSession, CacheAnalysis>();

function wantsCalibration(params: unknown): boolean {
  if (params === undefined || params === null) return false;
  const calibrate = typeof params === 'object' ? (params as { calibrate?: unknown }).calibrate : undefined;
  if (calibrate !== undefined && typeof calibrate !== 'boolean') throw new QueryError('cache-table: `calibrate` must be a boolean.');
  return calibrate === true;
}

export function cacheTableQuery(session: WorkerSession | null, params?: unknown): CacheTableAnswer {
  const current = requireSession(session);
  const analysis = current.analysis as Analysis;
  const available = calibrationFromUsage(analysis.requests, analysis.segmentTokens, analysis.overheadTokens);
  if (!wantsCalibration(params) || available === null) {
    const table = cacheTable(current.requests, cacheAnalysisOf(current).cost);
    return { ...table, availableCalibration: available, appliedCalibration: null };
  }
  let calibrated = calibratedBySession.get(current);
  if (calibrated === undefined) {
    const scaled = calibrateAnalysis(analysis, available);
    calibrated = analyzeCache(cacheInputOf(scaled));
    calibratedBySession.set(current, calibrated);
  }
  return { ...cacheTable(current.requests, calibrated.cost), availableCalibration: available, appliedCalibration: available };
}
