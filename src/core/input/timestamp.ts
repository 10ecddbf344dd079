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
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
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
