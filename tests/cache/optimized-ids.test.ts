// The optimized scenario numbers block identities without sorting every wire's keys (optimized-ids.ts): its
// numbers must split wires exactly as optimizedWire's texts do, numbered in the same order of first sighting.
import { describe, expect, it } from 'vitest';
import { IdentityTable } from '../../src/core/cache/chain.ts';
import { optimizedWire } from '../../src/core/cache/normalize.ts';
import { OptimizedIds } from '../../src/core/cache/optimized-ids.ts';

/** Ids from OptimizedIds, and the ids a table numbering optimizedWire's texts gives the same wires. */
function bothWays(wires: readonly string[]): { ids: number[]; expected: number[] } {
  const table = new IdentityTable();
  const optimized = new OptimizedIds((key) => table.idOf(key), new Map());
  const reference = new IdentityTable();
  return { ids: wires.map((wire) => optimized.idOf(wire)), expected: wires.map((wire) => reference.idOf(optimizedWire({ wire }))) };
}

describe('OptimizedIds', () => {
  it('gives key-order twins one number, at any depth, and numbers identities in the order first seen', () => {
    const wires = [
      '{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a.ts","limit":5}}',
      '{"type":"text","text":"hello"}',
      '{"name":"read","input":{"limit":5,"path":"a.ts"},"id":"toolu_1","type":"tool_use"}',
      '{"text":"hello","type":"text"}',
    ];
    expect(bothWays(wires).ids).toEqual([1, 2, 1, 2]);
  });

  it('gives wires that differ by a timestamp or a UUID one number, and keeps routing ids apart', () => {
    const wires = [
      '{"type":"text","text":"Now: 2026-11-02T10:00:00Z, run 7f3a9c2e-1b4d-4e5f-8a9b-0c1d2e3f4a5b"}',
      '{"text":"Now: 2026-11-03T09:30:00Z, run 00000000-1111-4222-8333-444444444444","type":"text"}',
      '{"type":"tool_result","tool_use_id":"2026-11-02T10:00:00Z","content":"ok"}',
      '{"type":"tool_result","tool_use_id":"2026-11-03T10:00:00Z","content":"ok"}',
    ];
    const { ids, expected } = bothWays(wires);
    expect(ids).toEqual([1, 1, 2, 3]);
    expect(ids).toEqual(expected);
  });

  it('tells apart ids that differ only in the order of their digits, and arrays in another order', () => {
    const wires = [
      '{"type":"tool_use","id":"toolu_001","name":"read","input":{}}',
      '{"type":"tool_use","id":"toolu_010","name":"read","input":{}}',
      '{"a":[1,2]}',
      // The same pieces as the one before (its digest), but another identity: the group's members are compared.
      '{"a":[2,1]}',
      '{"a":[1,2]}',
    ];
    const { ids, expected } = bothWays(wires);
    expect(ids).toEqual([1, 2, 3, 4, 3]);
    expect(ids).toEqual(expected);
  });

  it('numbers text that is not JSON by its text (normalized), as optimizedWire leaves it', () => {
    const wires = ['plain text 2026-11-02', 'plain text 2025-01-01', 'other', '{"broken":'];
    const { ids, expected } = bothWays(wires);
    expect(ids).toEqual([1, 1, 2, 3]);
    expect(ids).toEqual(expected);
  });

  it('agrees with optimizedWire on generated wires: shuffled keys, volatile values, nested lists (synthetic)', () => {
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const leaf = (): unknown =>
      pick([
        () => pick(['a', 'b', 'ab', 'ba', 'x,y', '{', '']),
        () => `at 2026-11-0${1 + Math.floor(random() * 3)}T10:00:00Z`,
        () => Math.floor(random() * 4),
        () => 1_700_000_000 + Math.floor(random() * 3),
        () => pick([true, false, null]),
      ])();
    const value = (depth: number): unknown => {
      const kind = depth > 2 ? 0 : Math.floor(random() * 3);
      if (kind === 0) return leaf();
      if (kind === 1) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      const keys = ['id', 'type', 'text', 'b', 'a', 'tool_use_id'].filter(() => random() < 0.5);
      return Object.fromEntries(keys.map((key) => [key, value(depth + 1)]));
    };
    const shuffled = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(shuffled);
      if (v === null || typeof v !== 'object') return v;
      const entries = Object.entries(v).map(([k, item]) => [k, shuffled(item)] as const);
      for (let i = entries.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [entries[i], entries[j]] = [entries[j]!, entries[i]!];
      }
      return Object.fromEntries(entries);
    };
    const bases = Array.from({ length: 150 }, () => value(0));
    const wires = Array.from({ length: 1500 }, () => JSON.stringify(shuffled(pick(bases))));
    const { ids, expected } = bothWays(wires);
    expect(new Set(expected).size).toBeGreaterThan(50);
    expect(ids).toEqual(expected);
  });
});
