// The ⟨U+XXXX⟩ marking of invisible characters (src/core/text/invisible.ts), with each class of the character
// set checked at its edges: the characters just inside are marked, the ones just outside are not.
import { describe, expect, it } from 'vitest';
import { codePointLabel, joinPieces, splitInvisible, visibleId, visibleLabel } from '../../src/core/text/invisible.ts';

const marked = (codePoint: number) => visibleLabel(`a${String.fromCodePoint(codePoint)}b`) === `a⟨${codePointLabel(codePoint)}⟩b`;

describe('codePointLabel', () => {
  it('writes at least four upper-case hex digits', () => {
    expect(codePointLabel(0x1b)).toBe('U+001B');
    expect(codePointLabel(0x202e)).toBe('U+202E');
    expect(codePointLabel(0xe0041)).toBe('U+E0041');
  });
});

describe('visibleLabel', () => {
  it.each([
    0x00, 0x08, 0x0b, 0x0c, 0x0e, 0x1f, 0x7f, 0x9f, 0xad, 0x61c, 0x180e, 0x200b, 0x200e, 0x200f, 0x202a, 0x202e,
    0x2060, 0x2064, 0x2066, 0x2069, 0xfeff, 0xfff9, 0xfffb, 0xe0000, 0xe007f,
  ])('marks U+%s', (codePoint) => {
    expect(marked(codePoint)).toBe(true);
  });

  it.each([0x09, 0x0a, 0x0d, 0x20, 0x7e, 0xa0, 0xae, 0x200c, 0x200d, 0x2029, 0x202f, 0x2065, 0x206a, 0xfffc, 0xe0080, 0x1f600])(
    'leaves U+%s as it is',
    (codePoint) => {
      expect(marked(codePoint)).toBe(false);
    },
  );

  it('marks unpaired surrogates, not paired ones', () => {
    expect(visibleLabel('x\ud800y')).toBe('x⟨U+D800⟩y');
    expect(visibleLabel('x\udfffy')).toBe('x⟨U+DFFF⟩y');
    expect(visibleLabel('x\ud83d\ude00y')).toBe('x\ud83d\ude00y');
  });

  it('marks every occurrence, not only the first', () => {
    expect(visibleLabel('\u202egnp.exe\u202c\u001b[31m')).toBe('⟨U+202E⟩gnp.exe⟨U+202C⟩⟨U+001B⟩[31m');
  });
});

describe('splitInvisible and joinPieces', () => {
  it('cut the text into plain runs and code points, in order', () => {
    expect(splitInvisible('ab\u202ecd\u200b')).toEqual(['ab', { codePoint: 0x202e }, 'cd', { codePoint: 0x200b }]);
    expect(splitInvisible('\u0000\u0001')).toEqual([{ codePoint: 0 }, { codePoint: 1 }]);
    expect(splitInvisible('plain')).toEqual(['plain']);
    expect(splitInvisible('')).toEqual([]);
  });

  it('a tag character (two UTF-16 units) is one piece, and the text comes back exactly', () => {
    const text = 'a\u{E0041}b\ud800';
    const pieces = splitInvisible(text);
    expect(pieces).toEqual(['a', { codePoint: 0xe0041 }, 'b', { codePoint: 0xd800 }]);
    expect(joinPieces(pieces)).toBe(text);
  });
});

describe('visibleId', () => {
  it('marks tab, newline and carriage return as well as what visibleLabel marks; visibleLabel keeps them', () => {
    const id = 'a\tb\u202Ec\nd\re\u0007f';
    expect(visibleId(id)).toBe('a⟨U+0009⟩b⟨U+202E⟩c⟨U+000A⟩d⟨U+000D⟩e⟨U+0007⟩f');
    expect(visibleLabel(id)).toBe('a\tb⟨U+202E⟩c\nd\re⟨U+0007⟩f');
    expect(visibleId('claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
  });
});
