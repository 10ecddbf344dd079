// Timestamps in machine-readable output. A log can carry an epoch number far outside what a Date can hold
// (toISOString throws beyond ±8.64e15 ms); such a time is reported as unknown rather than crashing the report.

const MAX_DATE_MS = 8.64e15;

/** ISO 8601 (UTC) of an epoch-milliseconds time, or null when there is none or it is outside the Date range. */
export function isoTime(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return null;
  return new Date(ms).toISOString();
}

const DAY_MS = 86_400_000;
/** Day names by day number: a session's calls fall on a few days, and a Date per call was a visible share of the summary. */
const dayNames = new Map<number, string>();
const MAX_DAY_NAMES = 4096;

/** The UTC calendar day (YYYY-MM-DD; years beyond 9999 keep their sign and six digits), or null. */
export function utcDay(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return null;
  const day = Math.floor(ms / DAY_MS);
  let name = dayNames.get(day);
  if (name === undefined) {
    const iso = new Date(day * DAY_MS).toISOString();
    name = iso.slice(0, iso.indexOf('T'));
    if (dayNames.size >= MAX_DAY_NAMES) dayNames.clear();
    dayNames.set(day, name);
  }
  return name;
}
