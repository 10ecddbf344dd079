// The fast shingle path (one UTF-8 encoding of the joined words, byte ranges hashed) must give exactly the hashes
// of the reference fnv1aWords on every text: ASCII, accents, CJK, emoji, lone surrogates, odd whitespace.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnv1aWords, SHINGLE_WORDS, shingles } from '../../src/core/cache/near-duplicates.ts';

/** The definition: every 5-word window hashed with fnv1aWords, distinct and ascending. */
function referenceShingles(text: string): number[] {
  const words = text.toLowerCase().split(/\s+/).filter((word) => word.length > 0);
  const hashes = new Set<number>();
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) hashes.add(fnv1aWords(words, i, SHINGLE_WORDS));
  return [...hashes].sort((a, b) => a - b);
}

const pieces = ['a', 'Bb', 'word', 'é', 'Ünïcode', '日本語', '😀', '\uD800', '\uDC00x', ' ', '  ', '\n', '\t', '\u00A0', '\u2028', '\u3000', 'x1', '-'];

describe('shingles fast path', () => {
  it('matches fnv1aWords window by window on hand-picked texts', () => {
    for (const text of ['one two three four five six', 'É  é\u00A0日本 😀 \uD800 lone\n\nsurrogate  tail x', 'a b c d e f g a b c d e']) {
      expect(Array.from(shingles(text))).toEqual(referenceShingles(text));
    }
    expect(Array.from(shingles('one two three four five'))).toEqual([fnv1aWords(['one', 'two', 'three', 'four', 'five'], 0, 5)]);
  });

  it('matches fnv1aWords on generated texts of mixed scripts and whitespace', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 80 }), (parts) => {
        const text = parts.join('');
        expect(Array.from(shingles(text))).toEqual(referenceShingles(text));
      }),
      { numRuns: 400 },
    );
  });
});
