// loadEncoding clears gpt-tokenizer's merge cache every 100,000 characters instead of letting it evict one piece at a
// time (src/core/tokens/openai.ts): the counts must be the library's own, before and after a clear.
import { describe, expect, it } from 'vitest';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { loadEncoding } from '../../src/core/tokens/openai.ts';
import { prng } from '../../scripts/examples/synthetic-text.ts';

/** Synthetic texts of random letters and digits: most pieces are missing from the vocabulary and go through merges. */
function randomTexts(count: number, length: number): string[] {
  const next = prng(24);
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ';
  return Array.from({ length: count }, () => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
}

describe('loadEncoding: the merge cache cleared by characters counted', () => {
  // 400 texts of 600 characters: 240,000 characters, two clears; each text counted twice, so the second count of
  // an early text comes after a clear and the second count of a late one from a warm cache.
  const texts = randomTexts(400, 600);
  for (const [encoding, reference] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
    it(`${encoding}: the same counts as gpt-tokenizer's countTokens across clears`, async () => {
      const count = await loadEncoding(encoding);
      const expected = texts.map((text) => reference(text));
      expect(texts.map((text) => count(text))).toEqual(expected);
      expect(texts.map((text) => count(text))).toEqual(expected);
      expect(expected.reduce((a, b) => a + b, 0)).toBeGreaterThan(400 * 100);
    });
  }
});
