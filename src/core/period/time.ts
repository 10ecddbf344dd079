// Calendar arithmetic in a named IANA time zone with Intl alone (no Node, no DOM): the wall time of an instant,
// the instant of a wall time, and the day / ISO week / month an instant falls in there. `--since`, `--until` and
// `--by day|week|month` use it, so "day" means the user's day (the zone named in the report), not UTC's.

export class PeriodError extends Error {}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      throw new PeriodError(`unknown time zone "${zone}" (give an IANA name such as UTC, Europe/Berlin or America/New_York)`);
    }
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Throws PeriodError for a zone Intl does not know. */
export function checkZone(zone: string): void {
  formatterOf(zone);
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallOf(ms: number, zone: string): Wall {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts['year']!, month: parts['month']!, day: parts['day']!, hour: parts['hour']! % 24, minute: parts['minute']!, second: parts['second']! };
}

const wallAsUtc = (wall: Wall) => Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);

/** The zone's offset from UTC at instant `ms`, in ms (east positive). */
export function offsetAt(ms: number, zone: string): number {
  return wallAsUtc(wallOf(Math.floor(ms / 1000) * 1000, zone)) - Math.floor(ms / 1000) * 1000;
}

/** The instant a wall time in `zone` names (the earlier one in a repeated hour, the later side of a skipped one). */
export function instantOf(wall: Wall, zone: string): number {
  const guess = wallAsUtc(wall);
  const first = guess - offsetAt(guess, zone);
  return guess - offsetAt(first, zone);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export type CalendarUnit = 'day' | 'week' | 'month';

/** "2026-01-16", ISO week "2026-W03" (weeks start on Monday; week 1 holds the year's first Thursday), "2026-01". */
export function calendarKey(ms: number, unit: CalendarUnit, zone: string): string {
  const wall = wallOf(ms, zone);
  if (unit === 'month') return `${wall.year}-${pad(wall.month)}`;
  if (unit === 'day') return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}`;
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0
  date.setUTCDate(date.getUTCDate() - weekday + 3); // the Thursday of this week decides its year
  const weekYear = date.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(weekYear, 0, 4));
  firstThursday.setUTCDate(firstThursday.getUTCDate() - ((firstThursday.getUTCDay() + 6) % 7) + 3);
  const week = 1 + Math.round((date.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
  return `${weekYear}-W${pad(week)}`;
}

/** "2026-01-16 11:01" in the zone. */
export function wallText(ms: number, zone: string): string {
  const wall = wallOf(ms, zone);
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)} ${pad(wall.hour)}:${pad(wall.minute)}`;
}

const RELATIVE = /^(\d+)([mhdw])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * A `--since` / `--until` bound as an instant (ms). Accepted: a date (2026-01-16) or a wall time (2026-01-16T11:00,
 * "2026-01-16 11:00") in `zone`; an ISO time with its own offset (…Z, …+01:00); or an age before `now` (30m, 12h,
 * 7d, 2w). `end`: a bare date as an upper bound means the end of that day (so --until 2026-01-16 includes it).
 */
export function parseBound(text: string, options: { zone: string; now: number; end: boolean }): number {
  const value = text.trim();
  const relative = RELATIVE.exec(value);
  if (relative) return options.now - Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS];
  if (ZONED.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  const local = LOCAL.exec(value);
  if (local) {
    const [year, month, day] = [Number(local[1]), Number(local[2]), Number(local[3])];
    const valid = month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
    const [hour, minute, second] = [Number(local[4] ?? 0), Number(local[5] ?? 0), Number(local[6] ?? 0)];
    if (valid && hour < 24 && minute < 60 && second < 60) {
      const dateOnly = local[4] === undefined;
      if (dateOnly && options.end) return instantOf({ year, month, day: day + 1, hour: 0, minute: 0, second: 0 }, options.zone);
      return instantOf({ year, month, day, hour, minute, second }, options.zone);
    }
  }
  throw new PeriodError(`"${text}" is not a time: give a date (2026-01-16), a time (2026-01-16T11:00, in --tz), an ISO time with its offset (2026-01-16T11:00Z) or an age (30m, 12h, 7d, 2w)`);
}
