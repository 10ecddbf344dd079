// normalizeVolatile finds UUIDs by scanning hyphens instead of a regex (the regex was the top function of the
// flagship's cache analysis); on every text it must replace exactly what the regex replaces.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeVolatile, VOLATILE_PLACEHOLDERS } from '../../src/core/cache/normalize.ts';

const UUID_REGEX = /(?<![0-9A-Za-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z])/gi;

// Without a digit normalizeVolatile returns the text untouched, so every generated text gets one ('7' is not part
// of any ISO date or epoch on its own, so only the UUID pass can change these texts).
const uuidOnly = (text: string) => text.replace(UUID_REGEX, VOLATILE_PLACEHOLDERS.uuid);

const pieces = [
  '123e4567-e89b-12d3-a456-426614174000',
  '123E4567-E89B-12D3-A456-426614174000',
  '123e4567-e89b-12d3-a456-42661417400',
  '123e4567e89b-12d3-a456-426614174000',
  '0123e4567-e89b-12d3-a456-426614174000',
  'g',
  'x',
  '_',
  '-',
  '--',
  ' ',
  '"',
  'é',
  '😀',
  'abcdef01',
  '-abcd',
  '-0123456789ab',
  '7',
];

describe('UUID scan in normalizeVolatile', () => {
  it('replaces what the reference regex replaces, on hand-picked texts', () => {
    for (const text of [
      '7 123e4567-e89b-12d3-a456-426614174000',
      '7 a123e4567-e89b-12d3-a456-426614174000 (letter before: kept)',
      '7 123e4567-e89b-12d3-a456-426614174000b (letter after: kept)',
      '7 123e4567-e89b-12d3-a456-426614174000-123e4567-e89b-12d3-a456-426614174000',
      '123e4567-e89b-12d3-a456-426614174000_7',
      '7-1234567-e89b-12d3-a456-426614174000',
    ]) {
      expect(normalizeVolatile(text)).toBe(uuidOnly(text));
    }
    expect(normalizeVolatile('7 "123e4567-e89b-12d3-a456-426614174000"')).toBe('7 "<uuid>"');
  });

  it('replaces what the reference regex replaces, on generated texts', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = `7 ${parts.join('')}`;
        expect(normalizeVolatile(text)).toBe(uuidOnly(text));
      }),
      { numRuns: 1000 },
    );
  });
});
