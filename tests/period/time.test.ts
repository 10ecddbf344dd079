// Calendar keys and --since/--until bounds in named zones, worked out by hand from the calendar.
import { describe, expect, it } from 'vitest';
import { calendarKey, checkZone, offsetAt, parseBound, PeriodError, wallText } from '../../src/core/period/index.ts';

const utc = (iso: string) => Date.parse(iso);

describe('calendar keys', () => {
  it('numbers ISO weeks from the week holding the first Thursday', () => {
    // 2026-01-01 is a Thursday: its week (from Monday 2025-12-29) is 2026-W01.
    expect(calendarKey(utc('2025-12-29T12:00Z'), 'week', 'UTC')).toBe('2026-W01');
    expect(calendarKey(utc('2025-12-28T12:00Z'), 'week', 'UTC')).toBe('2025-W52');
    // 2027-01-01 is a Friday: it still belongs to 2026's last week, W53.
    expect(calendarKey(utc('2027-01-01T12:00Z'), 'week', 'UTC')).toBe('2026-W53');
    expect(calendarKey(utc('2026-01-16T11:01Z'), 'week', 'UTC')).toBe('2026-W03');
  });

  it('takes the day and month in the zone asked for, not UTC', () => {
    const late = utc('2025-11-20T23:33Z');
    expect(calendarKey(late, 'day', 'UTC')).toBe('2025-11-20');
    expect(calendarKey(late, 'day', 'Europe/Berlin')).toBe('2025-11-21'); // UTC+1 in November
    expect(calendarKey(utc('2026-01-31T23:30Z'), 'month', 'Asia/Tokyo')).toBe('2026-02');
    expect(wallText(late, 'America/New_York')).toBe('2025-11-20 18:33');
  });

  it('follows daylight saving time', () => {
    expect(offsetAt(utc('2026-03-08T06:00Z'), 'America/New_York')).toBe(-5 * 3_600_000);
    expect(offsetAt(utc('2026-03-08T08:00Z'), 'America/New_York')).toBe(-4 * 3_600_000);
  });
});

describe('--since / --until bounds', () => {
  const now = utc('2026-02-01T12:00Z');
  it('reads dates and wall times in the zone, and ISO times by their own offset', () => {
    expect(parseBound('2026-01-16', { zone: 'UTC', now, end: false })).toBe(utc('2026-01-16T00:00Z'));
    // A bare date as an upper bound includes that day.
    expect(parseBound('2026-01-16', { zone: 'UTC', now, end: true })).toBe(utc('2026-01-17T00:00Z'));
    expect(parseBound('2026-01-31', { zone: 'UTC', now, end: true })).toBe(utc('2026-02-01T00:00Z'));
    expect(parseBound('2026-01-16T11:00', { zone: 'Europe/Berlin', now, end: false })).toBe(utc('2026-01-16T10:00Z'));
    expect(parseBound('2026-07-16 11:00', { zone: 'Europe/Berlin', now, end: false })).toBe(utc('2026-07-16T09:00Z'));
    expect(parseBound('2026-01-16T11:00+05:30', { zone: 'UTC', now, end: false })).toBe(utc('2026-01-16T05:30Z'));
  });
  it('reads ages before now', () => {
    expect(parseBound('7d', { zone: 'UTC', now, end: false })).toBe(utc('2026-01-25T12:00Z'));
    expect(parseBound('12h', { zone: 'UTC', now, end: false })).toBe(utc('2026-02-01T00:00Z'));
    expect(parseBound('2w', { zone: 'UTC', now, end: false })).toBe(utc('2026-01-18T12:00Z'));
  });
  it('refuses what is not a time, and unknown zones', () => {
    for (const bad of ['yesterday', '2026-02-30', '2026-13-01', '2026-01-16T25:00', '7y', '']) {
      expect(() => parseBound(bad, { zone: 'UTC', now, end: false }), bad).toThrow(PeriodError);
    }
    expect(() => checkZone('Mars/Olympus')).toThrow('unknown time zone "Mars/Olympus"');
  });
});
