// Timestamps in machine-readable output. A log can carry an epoch number far outside what a Date can hold
// (toISOString throws beyond ±8.64e15 ms); such a time is reported as unknown rather than crashing the report.

import { boundedMemo } from '../text/bounded-memo.ts';

const MAX_DATE_MS = 8.64e15;
const DAY_MS = 86_400_000;

const inDateRange = (ms: number | null): ms is number => ms !== null && Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS;

/** ISO 8601 (UTC) of an epoch-milliseconds time, or null when there is none or it is outside the Date range. */
export function isoTime(ms: number | null): string | null {
  return inDateRange(ms) ? new Date(ms).toISOString() : null;
}

/** A day's name by its number: a session's calls fall on a few days, and a Date per call was a visible share of the summary. */
const dayName = boundedMemo((day: number) => {
  const iso = new Date(day * DAY_MS).toISOString();
  return iso.slice(0, iso.indexOf('T'));
}, 4096);

/** The UTC calendar day (YYYY-MM-DD; years beyond 9999 keep their sign and six digits), or null. */
export function utcDay(ms: number | null): string | null {
  return inDateRange(ms) ? dayName(Math.floor(ms / DAY_MS)) : null;
}
