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

const pieces = ['a', 'Bb', 'word', 'é', 'Ünïcode', '日本語', '😀', '\uD800', '\uDC00x', ' ', '  ', '\n', '\t', '\u00A0', '\u2028', '\u3000', 'x1', '-',
  // Every other character \s matches (the fast path recognises them in UTF-8), and neighbours it must not treat as space.
  '\u000B', '\u000C', '\r', '\u1680', '\u2000', '\u200A', '\u200B', '\u2029', '\u202F', '\u205F', '\uFEFF', '\u0085', '\u180E', '\u2027', '\u3001', '\uFEFE', '\u00A1', 'İ'];

describe('shingles fast path', () => {
  it('matches fnv1aWords window by window on hand-picked texts', () => {
    // \uDFFF: the last lone surrogate, which both paths must write as U+FFFD.
    for (const text of ['one two three four five six', 'É  é\u00A0日本 😀 \uD800 lone\n\nsurrogate  tail x', 'a b c d e f g a b c d e', 'x\uDFFF y z w v u']) {
      expect(Array.from(shingles(text))).toEqual(referenceShingles(text));
    }
    expect(Array.from(shingles('one two three four five'))).toEqual([fnv1aWords(['one', 'two', 'three', 'four', 'five'], 0, 5)]);
  });

  it('splits at every character \\s matches and at nothing else', () => {
    const separators = ['\t', '\n', '\u000B', '\u000C', '\r', ' ', '\u00A0', '\u1680', '\u2000', '\u2005', '\u200A', '\u2028', '\u2029', '\u202F', '\u205F', '\u3000', '\uFEFF'];
    // U+1681 and U+1000 share one of the two bytes after E1 with U+1680 (E1 9A 80): E1 9A 81 and E1 80 80.
    const joiners = ['\u0085', '\u180E', '\u200B', '\u2027', '\u202E', '\u2060', '\u3001', '\uFEFE', '\u00A1', '\u1681', '\u1000'];
    for (const separator of separators) {
      const text = ['one', 'two', 'three', 'four', 'five', 'six'].join(separator);
      expect(Array.from(shingles(text)), JSON.stringify(separator)).toEqual(referenceShingles(text));
      expect(shingles(text).length).toBe(2);
    }
    for (const joiner of joiners) {
      const text = `one two three four five${joiner}six`;
      expect(Array.from(shingles(text)), JSON.stringify(joiner)).toEqual(referenceShingles(text));
      expect(shingles(text).length).toBe(1);
    }
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
