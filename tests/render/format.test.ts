// Number formatting: estimates always carry ≈, exact counts never do.
import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatPercent, formatTokens } from '../../src/render/format.ts';

describe('formatting', () => {
  it('marks estimates with ≈ and groups thousands', () => {
    expect(formatTokens(112876, false)).toBe('≈112,876');
    expect(formatTokens(1280, true)).toBe('1,280');
    expect(formatTokens(0, false)).toBe('≈0');
    expect(formatCount(1234567.4)).toBe('1,234,567');
  });
  it('sizes bytes in B, KB and MB', () => {
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(26_624)).toBe('26.0 KB');
    expect(formatBytes(5.7 * 1024 * 1024)).toBe('5.7 MB');
  });
  it('shows shares with one decimal, tiny shares as <0.1% and an empty whole as –', () => {
    expect(formatPercent(3961, 112876)).toBe('3.5%');
    expect(formatPercent(56, 112876)).toBe('<0.1%');
    expect(formatPercent(0, 100)).toBe('0.0%');
    expect(formatPercent(5, 0)).toBe('–');
  });
});
