// canonicalJson hands blocks whose keys are already sorted to the native serializer; on every JSON value it must
// still write exactly what the sorting serializer writes (keys sorted by UTF-16 code units, compact).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/cache/normalize.ts';

/** The definition, written independently: keys sorted at every depth, compact. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${reference(record[key])}`)
    .join(',')}}`;
}

describe('canonicalJson fast path', () => {
  it('matches the sorting serializer on hand-picked blocks', () => {
    for (const wire of [
      '{"a":1,"b":{"c":[1,{"d":2,"e":3}]}}',
      '{"9":1,"10":2,"a":3}',
      '{"b":1,"a":2}',
      '{"a":[{"y":1,"x":2}]}',
      '{"__proto__":{"b":1,"a":2},"z":0}',
      '{"\\ud800":1,"a":"\\udc00"}',
      '[1,"two",null,true,{"k":-0.5}]',
    ]) {
      expect(canonicalJson(wire), wire).toBe(reference(JSON.parse(wire)));
    }
  });

  it('matches the sorting serializer on generated JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const wire = JSON.stringify(value);
        expect(canonicalJson(wire)).toBe(reference(JSON.parse(wire)));
      }),
      { numRuns: 500 },
    );
  });
});
