import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countWhitespaceTokens, isUnicodeWhitespace, WHITESPACE_TOKENIZER } from '../../src/core/tokens/whitespace.ts';

// The documented White_Space list (docs/unicode-whitespace-v1.md).
const WHITE_SPACE = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];
const ZERO_WIDTH = [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff];

describe('unicode-whitespace v1.0', () => {
  it('is labelled with its version', () => {
    expect(WHITESPACE_TOKENIZER).toBe('unicode-whitespace v1.0');
  });

  it('matches the documented list for every BMP code unit', () => {
    const listed = new Set(WHITE_SPACE);
    const wrong: number[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) if (isUnicodeWhitespace(unit) !== listed.has(unit)) wrong.push(unit);
    expect(wrong).toEqual([]);
  });

  it('agrees with the Unicode White_Space property (JS \\p{White_Space}) on every code point', () => {
    const property = /^\p{White_Space}$/u;
    let mismatches = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const ours = countWhitespaceTokens(ch) === 0;
      if (ours !== property.test(ch)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it('splits on each white-space code point, including NBSP and the ideographic space', () => {
    for (const cp of WHITE_SPACE) expect(countWhitespaceTokens(`a${String.fromCharCode(cp)}b`), cp.toString(16)).toBe(2);
    expect(countWhitespaceTokens('a\u00a0b')).toBe(2);
    expect(countWhitespaceTokens('東京\u3000大阪')).toBe(2);
  });

  it('does not split on zero-width characters', () => {
    for (const cp of ZERO_WIDTH) expect(countWhitespaceTokens(`a${String.fromCharCode(cp)}b`), cp.toString(16)).toBe(1);
    expect(countWhitespaceTokens('\u200b')).toBe(1); // a lone zero-width space is a token of its own
    expect(countWhitespaceTokens(' \ufeff ')).toBe(1);
  });

  it('counts multi-byte text by code points, not bytes', () => {
    expect(countWhitespaceTokens('👋🏽 hello')).toBe(2); // emoji + skin-tone modifier: one run
    expect(countWhitespaceTokens('你好世界')).toBe(1); // CJK without spaces is one run
    expect(countWhitespaceTokens('你好 世界')).toBe(2);
    expect(countWhitespaceTokens('e\u0301 cafe\u0301')).toBe(2); // combining marks stay in their run
    expect(countWhitespaceTokens('👨‍👩‍👧')).toBe(1); // ZWJ sequence
  });

  it('treats lone surrogates as non-space code points', () => {
    expect(countWhitespaceTokens('\ud800')).toBe(1);
    expect(countWhitespaceTokens('a \udc00 b')).toBe(3);
    expect(countWhitespaceTokens('\udbff\u0020\ud800')).toBe(2);
  });

  it('counts nothing in empty or all-space text', () => {
    expect(countWhitespaceTokens('')).toBe(0);
    expect(countWhitespaceTokens(' \t\r\n\u3000\u00a0\u2028')).toBe(0);
  });

  it('equals splitting on \\p{White_Space}+ for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\u00a0', '\u200b', '\u3000', '\ud800', '😀', '\n', 'é') , maxLength: 40 }), (text) => {
        const expected = text.split(/\p{White_Space}+/u).filter((part) => part !== '').length;
        expect(countWhitespaceTokens(text)).toBe(expected);
      }),
    );
  });
});
