// Gateway timestamps: ISO text or epoch numbers whose unit is read from their magnitude.
import { describe, expect, it } from 'vitest';
import { recordTimestamp, toEpochMs } from '../../src/core/input/timestamp.ts';

// 2026-03-01T10:01:00.123Z
const MS = 1772359260123;

describe('timestamps', () => {
  it.each([
    ['ISO with Z', '2026-03-01T10:01:00.123Z', MS],
    ['ISO with offset', '2026-03-01T11:01:00.123+01:00', MS],
    ['epoch seconds', 1772359260.123, MS],
    ['epoch ms', MS, MS],
    ['epoch µs', MS * 1000, MS],
    ['epoch ns', MS * 1_000_000, MS],
    ['epoch ms as text', String(MS), MS],
  ])('%s', (_name, value, expected) => {
    expect(toEpochMs(value)).toBe(expected);
  });

  it.each([['not a date'], [''], [-5], [null], [{}]])('%j is no timestamp', (value) => {
    expect(toEpochMs(value)).toBeNull();
  });

  it('takes the first of timestamp, created_at, start_time that can be read', () => {
    expect(recordTimestamp({ timestamp: 'garbage', created_at: MS })).toBe(MS);
    expect(recordTimestamp({ start_time: '2026-03-01T10:01:00.123Z' })).toBe(MS);
    expect(recordTimestamp({ other: MS })).toBeNull();
  });
});
