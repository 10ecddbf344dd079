// Worker side of the Cache panel: the text-free per-request cache table, built from the session's cache analysis
// (the analysis' `cache` section, or the one computed once per session by cache-analysis.ts). With
// `{ calibrate: true }` the Claude estimates are first rescaled by the factor measured on the log's own recorded
// usage (offline: the page never talks to a provider), and the cache analysis is redone on those counts.
import type { Analysis } from '../../core/analysis/types.ts';
import { calibrateAnalysis } from '../../core/analysis/calibrate-analysis.ts';
import { calibrationFromUsage, type Calibration } from '../../core/cache/calibrate.ts';
import { cacheInputOf } from '../../core/analysis/attach.ts';
import { analyzeCache, type CacheAnalysis } from '../../core/cache/index.ts';
import { cacheTable, type CacheTable } from '../../core/cache/table.ts';
import { QueryError, requireSession, type WorkerSession } from '../session.ts';
import { cacheAnalysisOf } from './cache-analysis.ts';

export interface CacheTableAnswer extends CacheTable {
  /** `rows` holds the requests from `firstRow` on (a window around `around` when asked), of `rowCount` in all. */
  firstRow: number;
  rowCount: number;
  /** The factor measured on recorded usage, when the log has any for Claude requests (offered, not yet applied). */
  availableCalibration: Calibration | null;
  /** The factor the figures were computed with, or null when they use the uncalibrated estimates. */
  appliedCalibration: Calibration | null;
}

const calibratedBySession = new WeakMap<WorkerSession, CacheAnalysis>();
const tableBySession = new WeakMap<WorkerSession, CacheTable>();
const calibratedTableBySession = new WeakMap<WorkerSession, CacheTable>();
/** Largest window of rows one answer carries (the panel draws a window around the selected request). */
export const MAX_WINDOW = 1000;

/** `{ around, window }`: only `window` rows centred on request `around` (both integers); absent: every row. */
function windowOf(params: unknown, count: number): [number, number] {
  const { around, window } = (typeof params === 'object' && params !== null ? params : {}) as { around?: unknown; window?: unknown };
  if (around === undefined) return [0, count];
  if (!Number.isInteger(around) || (around as number) < 0) throw new QueryError('cache-table: `around` must be a request index.');
  if (!Number.isInteger(window) || (window as number) < 1 || (window as number) > MAX_WINDOW) {
    throw new QueryError(`cache-table: \`window\` must be an integer from 1 to ${MAX_WINDOW}.`);
  }
  const size = window as number;
  if (count <= size) return [0, count];
  const start = Math.min(Math.max(0, (around as number) - Math.floor(size / 2)), count - size);
  return [start, start + size];
}

function answerOf(table: CacheTable, params: unknown, available: Calibration | null, applied: Calibration | null): CacheTableAnswer {
  const [start, end] = windowOf(params, table.rows.length);
  return { ...table, rows: table.rows.slice(start, end), firstRow: start, rowCount: table.rows.length, availableCalibration: available, appliedCalibration: applied };
}

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
    let table = tableBySession.get(current);
    if (table === undefined) {
      const cache = cacheAnalysisOf(current);
      table = cacheTable(current.requests, cache.cost, cache.misses.summary);
      tableBySession.set(current, table);
    }
    return answerOf(table, params, available, null);
  }
  let calibrated = calibratedBySession.get(current);
  if (calibrated === undefined) {
    const scaled = calibrateAnalysis(analysis, available);
    calibrated = analyzeCache(cacheInputOf(scaled));
    calibratedBySession.set(current, calibrated);
  }
  let table = calibratedTableBySession.get(current);
  if (table === undefined) {
    table = cacheTable(current.requests, calibrated.cost, calibrated.misses.summary);
    calibratedTableBySession.set(current, table);
  }
  return answerOf(table, params, available, available);
}
