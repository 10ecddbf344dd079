// Requests of an analysis in a time window (`--since`, `--until`), summed per group (`--by`): what each group paid
// (recorded usage where recorded, else the simulation as sent — the same per-request figures as the cost totals),
// its hit rate and what its misses cost. A group's figures are sums over its requests, so the rows add up to the
// window's totals, and the window's totals are those of the record's requests[] filtered by their timestamp.
import type { Analysis } from '../analysis/types.ts';
import { calendarKey, checkZone, type CalendarUnit } from './time.ts';

export const GROUPINGS = ['session', 'project', 'day', 'week', 'month', 'model'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export interface PeriodOptions {
  /** Inclusive lower bound (ms), or null. */
  since: number | null;
  /** Exclusive upper bound (ms), or null. */
  until: number | null;
  /** IANA zone of the day / week / month keys. */
  zone: string;
  by: Grouping | null;
}

export interface PeriodRow {
  /** The group: a day (2026-01-16), week (2026-W03), month (2026-01), model id, session file or project; null for requests without a time (calendar groups) or a model. */
  key: string | null;
  requests: number;
  /** Requests whose figures are recorded usage (the rest are the simulation as sent). */
  recordedRequests: number;
  /** Prompt tokens as billed: uncached input + cache reads + cache writes. */
  promptTokens: number;
  cacheRead: number;
  cacheWrite: number;
  /** USD of the priced requests; `unpricedRequests` add nothing. */
  cost: number;
  unpricedRequests: number;
  /** USD with the findings fixed (Σ per-request optimized cost). */
  optimized: number;
  /** What its cache misses cost over a hit, and how many tokens they re-sent. */
  lostToMisses: number;
  misses: number;
  missedTokens: number;
  hitRate: number | null;
}

export interface PeriodTable {
  since: number | null;
  until: number | null;
  zone: string;
  by: Grouping | null;
  totals: PeriodRow;
  rows: PeriodRow[];
  /** Requests outside the window, and those left out of it because they carry no time. */
  outside: number;
  untimed: number;
}

const emptyRow = (key: string | null): PeriodRow => ({
  key,
  requests: 0,
  recordedRequests: 0,
  promptTokens: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cost: 0,
  unpricedRequests: 0,
  optimized: 0,
  lostToMisses: 0,
  misses: 0,
  missedTokens: 0,
  hitRate: null,
});

/** Σ of one request's figures into a row. */
function addRequest(row: PeriodRow, analysis: Analysis, r: number): void {
  const cache = analysis.cache;
  row.requests++;
  if (cache === undefined) return;
  const billed = cache.cost.billed.requests[r];
  if (billed !== undefined) {
    if (billed.basis === 'recorded') row.recordedRequests++;
    const write = billed.write5m + billed.write1h;
    row.promptTokens += billed.uncached + billed.read + write;
    row.cacheRead += billed.read;
    row.cacheWrite += write;
    if (billed.cost.total !== null) row.cost += billed.cost.total;
    else row.unpricedRequests++;
    row.optimized += billed.optimizedCost ?? 0;
  }
  const miss = cache.misses.requests[r];
  if (miss) {
    row.misses++;
    row.missedTokens += miss.tokens;
    row.lostToMisses += miss.cost ?? 0;
  }
}

const finish = (row: PeriodRow): PeriodRow => ({ ...row, hitRate: row.promptTokens > 0 ? row.cacheRead / row.promptTokens : null });

/** The session a request belongs to: its file's path in the folder (or name), the project its first folder. */
function sessionKey(analysis: Analysis, r: number, by: 'session' | 'project'): string {
  const file = analysis.files[analysis.requests[r]?.file ?? -1];
  const name = file?.folderPath ?? file?.name.split(/[\\/]/).pop() ?? '';
  if (by === 'session') return name;
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  return parts.length > 1 ? parts[0]! : '';
}

function keyOf(analysis: Analysis, r: number, options: PeriodOptions): string | null {
  const by = options.by;
  if (by === 'model') return analysis.models[r]?.id ?? null;
  if (by === 'session' || by === 'project') return sessionKey(analysis, r, by);
  const time = analysis.requests[r]?.timestamp ?? null;
  return by === null || time === null ? null : calendarKey(time, by as CalendarUnit, options.zone);
}

/** Calendar keys in time order (requests without a time last); other groups the costliest first. */
function ordered(rows: PeriodRow[], by: Grouping | null): PeriodRow[] {
  if (by === 'day' || by === 'week' || by === 'month') {
    return rows.sort((a, b) => (a.key === b.key ? 0 : a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1));
  }
  return rows.sort((a, b) => b.cost - a.cost);
}

export function periodTable(analysis: Analysis, options: PeriodOptions): PeriodTable {
  checkZone(options.zone);
  const windowed = options.since !== null || options.until !== null;
  const totals = emptyRow(null);
  const groups = new Map<string | null, PeriodRow>();
  let outside = 0;
  let untimed = 0;
  analysis.requests.forEach((request, r) => {
    const time = request.timestamp;
    if (windowed) {
      if (time === null) {
        untimed++;
        return;
      }
      if ((options.since !== null && time < options.since) || (options.until !== null && time >= options.until)) {
        outside++;
        return;
      }
    }
    addRequest(totals, analysis, r);
    if (options.by === null) return;
    const key = keyOf(analysis, r, options);
    let row = groups.get(key);
    if (row === undefined) groups.set(key, (row = emptyRow(key)));
    addRequest(row, analysis, r);
  });
  return {
    since: options.since,
    until: options.until,
    zone: options.zone,
    by: options.by,
    totals: finish(totals),
    rows: ordered([...groups.values()].map(finish), options.by),
    outside,
    untimed,
  };
}

export type Window = Pick<PeriodOptions, 'since' | 'until'>;

/** Whether a request sent at `time` is in the window (one without a time is in no bounded window). */
export function inWindowAt(time: number | null, window: Window): boolean {
  if (window.since === null && window.until === null) return true;
  if (time === null) return false;
  return !((window.since !== null && time < window.since) || (window.until !== null && time >= window.until));
}

/** The window's requests (indices), for the views that list them (the costliest requests). */
export function inWindow(analysis: Analysis, options: Window): number[] {
  return analysis.requests.flatMap((request, r) => (inWindowAt(request.timestamp, options) ? [r] : []));
}
