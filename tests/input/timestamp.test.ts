// Gateway timestamps: ISO text or epoch numbers whose unit is read from their magnitude.
import fc from 'fast-check';
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

  it('reads toISOString\'s form as Date.parse does, at every edge of its fields', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const texts: string[] = [];
    for (const year of [0, 99, 999, 1000, 1970, 2024, 2026, 2100, 9999])
      for (let month = 0; month <= 13; month++)
        for (const day of [0, 1, 28, 29, 30, 31, 32])
          for (const [hour, minute, second, ms] of [[0, 0, 0, 0], [23, 59, 59, 999], [24, 0, 0, 0], [24, 0, 0, 1], [12, 60, 0, 0], [12, 0, 60, 0]] as const)
            texts.push(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(ms, 3)}Z`);
    // The same length, other characters where the form has its separators or digits.
    texts.push('2026-03-01T10:01:00.123z', '2026-03-01 10:01:00.123Z', '2026-03-01T10:01:00,123Z', '2026-03-01T10:01:0a.123Z', ' 026-03-01T10:01:00.123Z', '+02026-03-01T10:01:00.1Z');
    for (const text of texts) {
      const parsed = Date.parse(text);
      expect(toEpochMs(text), text).toBe(Number.isNaN(parsed) ? null : parsed);
    }
  });

  it('agrees with Date.parse on random texts of the form (property test)', () => {
    const digit = fc.constantFrom(...'0123456789');
    const form = '0000-00-00T00:00:00.000Z';
    // Digits where the form has digits (now and then another character), its separators elsewhere (now and then a space).
    const text = fc
      .array(fc.oneof(digit, digit, digit, fc.constantFrom('-', 'T', ':', '.', 'Z', ' ', '+')), { minLength: 24, maxLength: 24 })
      .map((chars) => chars.map((c, i) => (form[i] === '0' || c === ' ' ? c : form[i]!)).join(''));
    fc.assert(
      fc.property(text, (value) => {
        const parsed = Date.parse(value);
        expect(toEpochMs(value)).toBe(Number.isNaN(parsed) ? null : parsed);
      }),
      { numRuns: 5000, seed: 24 },
    );
  });

  it('takes the first of timestamp, created_at, start_time that can be read', () => {
    expect(recordTimestamp({ timestamp: 'garbage', created_at: MS })).toBe(MS);
    expect(recordTimestamp({ start_time: '2026-03-01T10:01:00.123Z' })).toBe(MS);
    expect(recordTimestamp({ other: MS })).toBeNull();
  });
});
