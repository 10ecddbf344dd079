// The pre-parse scans: depth, first-object keys and the syntax-error locator.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { firstObjectKeys, scanDepth } from '../../src/core/dupes/json-scan.ts';
import { firstJsonSyntaxError } from '../../src/core/dupes/json-syntax.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const WANTED = new Set(['suite', 'adapter', 'blocks']);

describe('scanDepth', () => {
  it.each([
    ['1', 0],
    ['{}', 1],
    ['[[]]', 2],
    ['{"a":[{"b":"[[[["}]}', 3],
    ['["\\"[["]', 1],
  ])('%s has depth %i', (text, depth) => {
    expect(scanDepth(bytes(text), 32)).toEqual({ ok: true, maxDepth: depth });
  });

  it('reports the first bracket past the limit', () => {
    expect(scanDepth(bytes('[[[ ]]]'), 2)).toEqual({ ok: false, byteOffset: 2 });
  });
});

describe('firstObjectKeys', () => {
  it('reads only top-level keys of the first object', () => {
    expect(firstObjectKeys(bytes('{"x":{"suite":1},"blocks":[]}'), WANTED)).toEqual(new Set(['blocks']));
    expect(firstObjectKeys(bytes('\ufeff  {"adapter":"a"}\n{"suite":"v1"}'), WANTED)).toEqual(new Set(['adapter']));
    expect(firstObjectKeys(bytes('{"v":"suite","n":["adapter"]}'), WANTED)).toEqual(new Set());
    expect(firstObjectKeys(bytes('{"\\u0073uite":"v1"}'), WANTED)).toEqual(new Set(['suite']));
    expect(firstObjectKeys(bytes('[{"suite":"v1"}]'), WANTED)).toEqual(new Set());
    expect(firstObjectKeys(bytes('{"suite'), WANTED)).toEqual(new Set());
  });
});

describe('firstJsonSyntaxError', () => {
  it.each([
    ['{"a":1}', -1],
    ['{"a":1,}', 7],
    ['{"a" 1}', 5],
    ['[1,2', 4],
    ['{"a":1} x', 8],
    ['"\\x"', 2],
    ['"\\u12G4"', 5],
    ['-', 1],
    ['01', 1],
    ['1.', 2],
    ['nul', 0],
    ['', 0],
    ['"a\nb"', 2],
  ])('%j fails at %i', (text, at) => {
    expect(firstJsonSyntaxError(text)).toBe(at);
  });

  it('accepts exactly what JSON.parse accepts', () => {
    const valid = fc.json().map((j) => j);
    const mutated = fc.tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', '\\', 'x', ' ', '0', '-', '.', 'e'))
      .map(([j, at, ch]) => j.slice(0, at % (j.length + 1)) + ch + j.slice(at % (j.length + 1)));
    fc.assert(
      fc.property(fc.oneof(valid, mutated), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(firstJsonSyntaxError(text) === -1).toBe(parses);
      }),
      { numRuns: 2000 },
    );
  });
});
