// The syntax locator agrees with JSON.parse on what is valid and points at the first bad character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../src/core/input/json-syntax.ts';

describe('findJsonSyntaxError', () => {
  it.each([
    ['{"a":1,}', 7, "expected a double-quoted property name, found '}'"],
    ['{"a" 1}', 5, "expected ':' after a property name, found a digit"],
    ['[1,2', 4, 'the text ends before the JSON does'],
    ['{"a":"x\ny"}', 7, 'unescaped control character in a string'],
    ['{"a":1} x', 8, 'more text after the end of the JSON value'],
    ['{a:1}', 1, 'expected a double-quoted property name, found a letter'],
    ['{"a":"\\q"}', 6, 'invalid escape sequence in a string'],
    ['[tru]', 1, 'expected a value, found a letter'],
    ['[1 2]', 3, "expected ',' or ']', found a digit"],
  ])('locates the error in %j', (text, offset, message) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonSyntaxError(text)).toEqual({ offset, message });
  });

  it('finds no error where JSON.parse finds none (random JSON values)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(findJsonSyntaxError(text)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('finds an error wherever JSON.parse rejects a cut-short text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, cut) => {
        const text = JSON.stringify(value);
        const prefix = text.slice(0, cut % (text.length + 1));
        let valid = true;
        try {
          JSON.parse(prefix);
        } catch {
          valid = false;
        }
        expect(findJsonSyntaxError(prefix) === null).toBe(valid);
      }),
      { numRuns: 300 },
    );
  });

  it('handles 100,000-deep nesting without recursion', () => {
    expect(findJsonSyntaxError('['.repeat(100_000))).toEqual({ offset: 100_000, message: 'the text ends before the JSON does' });
  });
});
