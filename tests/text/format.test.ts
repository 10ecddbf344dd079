// The one number formatter (src/core/text/format.ts): estimates always carry ≈, exact counts never do; money to
// four decimals, never a non-zero amount shown as free.
import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatFraction, formatPercent, formatSigned, formatTokens, formatUsd, formatUsdCents } from '../../src/core/text/format.ts';

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
  it('prints dollars to four decimals, grouped, and never a non-zero amount as $0.0000', () => {
    expect(formatUsd(4.369914)).toBe('$4.3699');
    expect(formatUsd(1234.56789)).toBe('$1,234.5679');
    expect(formatUsd(0)).toBe('$0.0000');
    expect(formatUsd(0.00003)).toBe('<$0.0001');
    expect(formatUsd(0.00006)).toBe('$0.0001');
    expect(formatUsd(-3.54534555)).toBe('-$3.5453');
    expect(formatUsdCents(283873.4249)).toBe('$283,873.42');
  });
  it('shows fractions as percents and signs changes', () => {
    expect(formatFraction(0.8112566746)).toBe('81.1%');
    expect(formatFraction(null)).toBe('n/a');
    expect(formatFraction(-0.25)).toBe('-25.0%');
    expect(formatSigned(-504, formatCount)).toBe('-504');
    expect(formatSigned(1204, formatCount)).toBe('+1,204');
    expect(formatSigned(0, formatUsd)).toBe('$0.0000');
  });
});
