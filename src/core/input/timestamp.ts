// When a gateway record says the request was sent: ISO-8601 text or an epoch number in s, ms, µs or ns.

import { isObject } from './json-value.ts';

const TIMESTAMP_KEYS = ['timestamp', 'created_at', 'start_time', 'startTime', 'createdAt'] as const;

/** The record's send time in ms since the epoch, or null when it has none that can be read. */
export function recordTimestamp(record: unknown): number | null {
  if (!isObject(record)) return null;
  for (const key of TIMESTAMP_KEYS) {
    const ms = toEpochMs(record[key]);
    if (ms !== null) return ms;
  }
  return null;
}

export function toEpochMs(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return scaleEpoch(value);
  if (typeof value !== 'string') return null;
  const iso = isoUtcMs(value);
  if (iso !== null) return iso;
  const text = value.trim();
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return scaleEpoch(Number(text));
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Epoch numbers carry no unit; their magnitude tells it. Seconds reach 1e10 only after the year 2286, so anything
 * below that is seconds, below 1e13 ms, below 1e16 µs, else ns.
 */
function scaleEpoch(value: number): number {
  if (value < 1e10) return Math.round(value * 1000);
  if (value < 1e13) return Math.round(value);
  if (value < 1e16) return Math.round(value / 1000);
  return Math.round(value / 1e6);
}

/** toISOString's form: a digit where it has 0, the same character elsewhere. */
const ISO_FORM = '0000-00-00T00:00:00.000Z';

/** The number of the `count` digits from `at`. */
function digitsAt(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) n = n * 10 + text.charCodeAt(i) - 0x30;
  return n;
}

/**
 * Date.parse of the form nearly every log writes (`2026-03-01T00:01:00.000Z`, as toISOString gives it), read
 * without the general parser (a visible share of the folder summary's time); null for any other text, and for
 * years before 1000 (Date.UTC reads 0–99 as 19xx) or a field out of its range (24:00, a 13th month), left to
 * Date.parse. Days 29–31 past a month's end roll over into the next month in both.
 */
function isoUtcMs(text: string): number | null {
  if (text.length !== ISO_FORM.length) return null;
  for (let i = 0; i < ISO_FORM.length; i++) {
    const c = text.charCodeAt(i);
    const form = ISO_FORM.charCodeAt(i);
    if (form === 0x30 ? c < 0x30 || c > 0x39 : c !== form) return null;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  const ms = digitsAt(text, 20, 3);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}
