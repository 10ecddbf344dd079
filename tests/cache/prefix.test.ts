import { wireIdOf } from '../wire-ids.ts';
import { describe, expect, it } from 'vitest';
import type { Segment } from '../../src/core/model.ts';
import { commonPrefixLength, comparePrefix, diffSegments } from '../../src/core/cache/prefix.ts';
import { optimizedWire } from '../../src/core/cache/normalize.ts';

function segment(wire: string): Segment {
  return {
    category: 'user', path: 'messages[0].content[0]', text: wire, wire, bytes: wire.length, hash: '0', wireId: wireIdOf(wire), cacheMarker: null,
    position: 0, messageIndex: 0, role: 'user', toolName: null, callId: null, media: null, cacheable: true,
  };
}
const list = (...wires: string[]) => wires.map(segment);

describe('commonPrefixLength', () => {
  it('counts leading equal items only', () => {
    expect(commonPrefixLength(['a', 'b', 'c'], ['a', 'b', 'x', 'c'])).toBe(2);
    expect(commonPrefixLength([], ['a'])).toBe(0);
    expect(commonPrefixLength(['a'], ['a'])).toBe(1);
  });
});

describe('comparePrefix', () => {
  it('sees an appended turn as an unbroken prefix', () => {
    expect(comparePrefix(list('t', 's', 'u1'), list('t', 's', 'u1', 'a1', 'u2'))).toEqual({
      commonSegments: 3, firstChange: null, prefixBroken: false,
    });
  });

  it('locates the first changed block in the newer request', () => {
    expect(comparePrefix(list('t', 's@1', 'u1'), list('t', 's@2', 'u1', 'u2'))).toEqual({
      commonSegments: 1, firstChange: 1, prefixBroken: true,
    });
  });

  it('reports a dropped tail at the newer request\'s end', () => {
    expect(comparePrefix(list('t', 's', 'u1'), list('t', 's'))).toEqual({ commonSegments: 2, firstChange: 2, prefixBroken: true });
  });

  it('compares the optimized identity when asked, so a timestamp no longer breaks the prefix', () => {
    const older = list('{"text":"now 2026-11-30T05:00:00Z"}', 'u1');
    const newer = list('{"text":"now 2026-11-30T05:01:00Z"}', 'u1', 'u2');
    expect(comparePrefix(older, newer).prefixBroken).toBe(true);
    expect(comparePrefix(older, newer, (s) => optimizedWire(s)).prefixBroken).toBe(false);
  });
});

describe('diffSegments', () => {
  it('diffs whole segment lists by identity', () => {
    const hunks = diffSegments(list('t1', 't2', 's', 'u1'), list('t2', 't1', 's', 'u1', 'u2'));
    expect(hunks.map((h) => h.kind)).toEqual(['delete', 'equal', 'insert', 'equal', 'insert']);
  });
});
