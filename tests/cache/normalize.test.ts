import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  hasVolatileValue,
  normalizeVolatile,
  optimizedWire,
  sortedTools,
} from '../../src/core/cache/normalize.ts';

describe('normalizeVolatile', () => {
  it('replaces ISO-8601 date-times in their common spellings', () => {
    expect(normalizeVolatile('Now: 2026-11-30T05:06:52Z.')).toBe('Now: <timestamp>.');
    expect(normalizeVolatile('at 2026-11-30T05:06:52.123+01:00 ok')).toBe('at <timestamp> ok');
    expect(normalizeVolatile('at 2026-11-30 05:06 ok')).toBe('at <timestamp> ok');
    expect(normalizeVolatile('date 2026-11-30')).toBe('date <timestamp>');
  });

  it('replaces UUIDs in either case', () => {
    expect(normalizeVolatile('session 123e4567-E89B-12d3-a456-426614174000 open')).toBe('session <uuid> open');
  });

  it('replaces epoch seconds and milliseconds only inside the plausible range', () => {
    expect(normalizeVolatile('t=1764479212')).toBe('t=<epoch>');
    expect(normalizeVolatile('t=1764479212345')).toBe('t=<epoch>');
    expect(normalizeVolatile('t=1764479212.5521')).toBe('t=<epoch>');
    // 10 digits but before 2001 / after 2100: a count, not a time.
    expect(normalizeVolatile('bytes=0999999999')).toBe('bytes=0999999999');
    expect(normalizeVolatile('bytes=9999999999')).toBe('bytes=9999999999');
    // 11 or 12 digits are never epochs.
    expect(normalizeVolatile('n=17644792123')).toBe('n=17644792123');
  });

  it('leaves digits that belong to a longer token alone', () => {
    expect(normalizeVolatile('sha a1764479212b and v2026-11-30x')).toBe('sha a1764479212b and v2026-11-30x');
    expect(normalizeVolatile('version 1.2.3, 42 files')).toBe('version 1.2.3, 42 files');
    expect(hasVolatileValue('no digits here')).toBe(false);
    expect(hasVolatileValue('{"ts":1764479212}')).toBe(true);
  });

  it('rejects impossible calendar values', () => {
    expect(normalizeVolatile('2026-13-01')).toBe('2026-13-01');
    expect(normalizeVolatile('2026-02-32')).toBe('2026-02-32');
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson('{"b":1,"a":{"d":[{"z":1,"y":2}],"c":null}}')).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('makes two key orders of one schema identical', () => {
    const first = '{"name":"read","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}';
    const second = '{"input_schema":{"properties":{"path":{"type":"string"}},"type":"object"},"name":"read"}';
    expect(canonicalJson(first)).toBe(canonicalJson(second));
  });

  it('keeps a "__proto__" key as data', () => {
    expect(canonicalJson('{"__proto__":{"x":1},"a":2}')).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('returns non-JSON text unchanged', () => {
    expect(canonicalJson('plain text {')).toBe('plain text {');
  });
});

describe('optimizedWire', () => {
  it('canonicalizes before normalizing, so a bare epoch number does not break parsing', () => {
    expect(optimizedWire({ wire: '{"type":"text","ts":1764479212,"text":"hi"}' })).toBe(
      '{"text":"hi","ts":<epoch>,"type":"text"}',
    );
  });

  it('memoizes per wire string', () => {
    const memo = new Map<string, string>();
    const wire = '{"text":"at 2026-11-30T05:06:52Z"}';
    expect(optimizedWire({ wire }, memo)).toBe('{"text":"at <timestamp>"}');
    expect(memo.get(wire)).toBe('{"text":"at <timestamp>"}');
  });
});

describe('sortedTools', () => {
  const tool = (name: string) => ({ category: 'tools' as const, toolName: name, wire: `{"name":"${name}"}` });
  const other = { category: 'system' as const, toolName: null, wire: '{"type":"text","text":"s"}' };

  it('sorts tool definitions by name in their own slots and leaves other segments in place', () => {
    expect(sortedTools([tool('read_file'), tool('grep_search'), tool('bash'), other])).toEqual([2, 1, 0, 3]);
  });

  it('is the identity order when there is nothing to sort', () => {
    expect(sortedTools([other, tool('a')])).toEqual([0, 1]);
    expect(sortedTools([])).toEqual([]);
  });
});
