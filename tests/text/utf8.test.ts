// UTF-8 byte lengths (src/core/text/utf8.ts) against TextEncoder, at every encoding-width boundary.
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../../src/core/text/utf8.ts';
import { TextInterner } from '../../src/core/text/intern.ts';

describe('utf8Length', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['\u007f', 1],
    ['\u0080', 2],
    ['\u07ff', 2],
    ['\u0800', 3],
    ['\uffff', 3],
    ['\ud83d\ude00', 4],
    ['\ud800', 3],
    ['\udc00', 3],
    ['\ud800a', 4],
    ['\ud800\ud800', 6],
    ['a\ud83d', 4],
    ['héllo, 世界 😀', 1 + 2 + 3 + 2 + 3 + 3 + 1 + 4],
  ])('%j is %i bytes', (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).byteLength);
  });
});

describe('TextInterner', () => {
  it('hands back the first copy of a text and counts distinct texts', () => {
    const interner = new TextInterner();
    const first = interner.intern(['syn', 'thetic'].join(''));
    expect(interner.intern('synthetic')).toBe(first);
    expect(interner.size).toBe(1);
    interner.intern('other');
    interner.intern('other');
    expect(interner.size).toBe(2);
  });
});
