// The segment hash is written into the analysis record (`segments[].hash`): its values must not drift when the
// function is tuned. These were computed with the first implementation.
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/text/hash.ts';

describe('contentHash', () => {
  it('keeps its published values', () => {
    expect(contentHash('')).toBe('1aee8d83488bdcb8');
    expect(contentHash('abc')).toBe('1ac18c8d7a91f9f9');
  });

  it('writes the leading zeros of either half (values of the first implementation)', () => {
    expect(contentHash('block 568')).toBe('005ce83249315913');
    expect(contentHash('block 54')).toBe('753cff5e00fe8564');
  });

  it('gives 16 lower-case hex digits and tells one-character differences apart', () => {
    expect(contentHash('{"type":"text","text":"hi"}')).toMatch(/^[0-9a-f]{16}$/);
    expect(contentHash('toolu_5el000')).not.toBe(contentHash('toolu_5ej000'));
  });
});
