// Bytes, hashes and duplicate arithmetic, including multi-byte text and look-alike strings that must stay distinct.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { measureBlocks } from '../../src/core/dupes/measure.ts';

const blocksOf = (texts: string[]) => texts.map((text) => ({ text, origin: null }));
const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('measureBlocks', () => {
  it('hashes the seed text with SHA-256 of its UTF-8 bytes', () => {
    const [block] = measureBlocks(blocksOf(['you are a helpful assistant'])).blocks;
    expect(block?.hash).toBe(nodeSha256('you are a helpful assistant'));
    expect(block?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('agrees with node:crypto and Buffer on arbitrary text, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: fc.constantFrom('\ud800', '\udfff', 'a'), maxLength: 4 }), (a, b) => {
        const text = a + b;
        const [block] = measureBlocks(blocksOf([text])).blocks;
        expect(block?.hash).toBe(nodeSha256(text));
        expect(block?.bytes).toBe(Buffer.byteLength(text, 'utf8'));
      }),
    );
  });

  it('counts UTF-8 bytes of emoji, CJK, combining marks and special spaces', () => {
    const texts = ['👋🏽', '你好', 'e\u0301', '\u00a0', '\u3000', '\u200b', '\ud800'];
    expect(measureBlocks(blocksOf(texts)).blocks.map((b) => b.bytes)).toEqual([8, 6, 3, 2, 3, 3, 3]);
  });

  it('keeps look-alike texts apart: NFC vs NFD, NBSP vs space, zero-width inserted', () => {
    const m = measureBlocks(blocksOf(['café', 'cafe\u0301', 'a b', 'a\u00a0b', 'ab', 'a\u200bb']));
    expect(m.duplicates).toEqual([]);
    expect(m.blocks.map((b) => b.tokens)).toEqual([1, 1, 2, 2, 1, 1]);
  });

  it('costs every copy after the first, per group, in order of first occurrence', () => {
    const m = measureBlocks(blocksOf(['日本語 テキスト', 'x', '日本語 テキスト', 'y y', 'x', '日本語 テキスト', 'y y']));
    expect(m.duplicates.map((d) => ({ ...d, hash: d.hash.slice(0, 0) }))).toEqual([
      { hash: '', occurrences: 3, indices: [0, 2, 5], copies: 2, bytesPerBlock: 22, tokensPerBlock: 2, wastedBytes: 44, wastedTokens: 4 },
      { hash: '', occurrences: 2, indices: [1, 4], copies: 1, bytesPerBlock: 1, tokensPerBlock: 1, wastedBytes: 1, wastedTokens: 1 },
      { hash: '', occurrences: 2, indices: [3, 6], copies: 1, bytesPerBlock: 3, tokensPerBlock: 2, wastedBytes: 3, wastedTokens: 2 },
    ]);
    expect(m.totals).toEqual({ blocks: 7, bytes: 22 * 3 + 2 + 6, tokens: 6 + 2 + 4, duplicateBlocks: 4, wastedBytes: 48, wastedTokens: 7 });
  });

  it('treats two empty blocks as exact duplicates costing nothing', () => {
    const m = measureBlocks(blocksOf(['', '']));
    expect(m.duplicates[0]).toMatchObject({ occurrences: 2, copies: 1, wastedBytes: 0, wastedTokens: 0 });
  });
});
