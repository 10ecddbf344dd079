// firstInvalidUtf8Offset at every UTF-8 width boundary (hand-picked byte sequences), checked against the fatal
// TextDecoder for validity.
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8Offset } from '../../src/core/input/utf8-check.ts';

const fatal = new TextDecoder('utf-8', { fatal: true });
const isValid = (bytes: Uint8Array): boolean => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

// [bytes, offset of the first invalid sequence or -1, what it is]
const CASES: [number[], number, string][] = [
  [[], -1, 'empty'],
  [[0x61, 0x62, 0x7f], -1, 'ASCII up to U+007F'],
  [[0xc2, 0x80], -1, 'U+0080, the smallest 2-byte'],
  [[0xdf, 0xbf], -1, 'U+07FF, the largest 2-byte'],
  [[0xe0, 0xa0, 0x80], -1, 'U+0800, the smallest 3-byte'],
  [[0xed, 0x9f, 0xbf], -1, 'U+D7FF, below the surrogates'],
  [[0xee, 0x80, 0x80], -1, 'U+E000, above the surrogates'],
  [[0xef, 0xbf, 0xbf], -1, 'U+FFFF'],
  [[0xf0, 0x90, 0x80, 0x80], -1, 'U+10000, the smallest 4-byte'],
  [[0xf4, 0x8f, 0xbf, 0xbf], -1, 'U+10FFFF, the largest code point'],
  [[0x61, 0xe2, 0x82, 0xac, 0x62], -1, 'a € b'],
  [[0x80], 0, 'a lone continuation byte'],
  [[0xc0, 0x80], 0, 'C0: always overlong'],
  [[0xc1, 0xbf], 0, 'C1: always overlong'],
  [[0xe0, 0x9f, 0xbf], 0, 'U+07FF written in 3 bytes (overlong)'],
  [[0xed, 0xa0, 0x80], 0, 'U+D800, a surrogate'],
  [[0xed, 0xbf, 0xbf], 0, 'U+DFFF, a surrogate'],
  [[0xf0, 0x8f, 0xbf, 0xbf], 0, 'U+FFFF written in 4 bytes (overlong)'],
  [[0xf4, 0x90, 0x80, 0x80], 0, 'U+110000, past the last code point'],
  [[0xf5, 0x80, 0x80, 0x80], 0, 'F5: no code point starts with it'],
  [[0xff], 0, 'FF'],
  [[0x61, 0xc3], 1, 'a 2-byte sequence cut off by the end'],
  [[0xe2, 0x82], 0, 'a 3-byte sequence cut off by the end'],
  [[0xf0, 0x9f, 0x98], 0, 'a 4-byte sequence cut off by the end'],
  [[0xc3, 0x41], 0, 'a 2-byte sequence with an ASCII second byte'],
  [[0xe2, 0x41, 0xac], 0, 'a wrong second byte of 3'],
  [[0xe2, 0x82, 0x41], 0, 'a wrong third byte of 3'],
  [[0xf0, 0x9f, 0x98, 0x41], 0, 'a wrong fourth byte of 4'],
  [[0x61, 0xc3, 0xa9, 0xff], 3, 'FF after a and é'],
  [[0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xc3], 7, 'a cut-off sequence after € and 😀'],
];

describe('firstInvalidUtf8Offset', () => {
  it.each(CASES)('%j → %i (%s)', (bytes, offset) => {
    const data = new Uint8Array(bytes);
    expect(firstInvalidUtf8Offset(data)).toBe(offset);
    expect(isValid(data)).toBe(offset === -1);
  });
});
