// The size-bounded eviction queue (src/core/text/oldest-first.ts): what it forgets, in which order, and when.
import { describe, expect, it } from 'vitest';
import { OldestFirst } from '../../src/core/text/oldest-first.ts';

function queue(budget: number) {
  const forgotten: string[] = [];
  const cache = new OldestFirst<string>(budget, (entry) => entry.length, (entry) => forgotten.push(entry));
  return { cache, forgotten };
}

describe('OldestFirst', () => {
  it('keeps entries while the total is at most the budget', () => {
    const { cache, forgotten } = queue(6);
    cache.add('abc');
    cache.add('def');
    expect(forgotten).toEqual([]);
  });

  it('forgets the oldest entries until the total is back within the budget', () => {
    const { cache, forgotten } = queue(6);
    cache.add('ab');
    cache.add('cd');
    cache.add('ef');
    // 2 + 2 + 2 = 6: within; a fourth of 3 makes 9, so the two oldest go (9 → 7 → 5).
    cache.add('ghi');
    expect(forgotten).toEqual(['ab', 'cd']);
    cache.add('j');
    expect(forgotten).toEqual(['ab', 'cd']);
    cache.add('k');
    // 2 + 3 + 1 + 1 = 7 > 6: 'ef' goes.
    expect(forgotten).toEqual(['ab', 'cd', 'ef']);
  });

  it('an entry larger than the budget is forgotten at once, itself included', () => {
    const { cache, forgotten } = queue(4);
    cache.add('ab');
    cache.add('abcdefg');
    expect(forgotten).toEqual(['ab', 'abcdefg']);
    cache.add('xy');
    expect(forgotten).toEqual(['ab', 'abcdefg']);
  });

  it('reads an entry\'s size before forgetting it', () => {
    const sizes = new Map([['a', 3], ['b', 3]]);
    const order: string[] = [];
    const cache = new OldestFirst<string>(
      4,
      (entry) => sizes.get(entry) ?? 0,
      (entry) => {
        order.push(entry);
        sizes.delete(entry);
      },
    );
    cache.add('a');
    cache.add('b');
    // Had the size been read after forgetting, 'a' would count 0 and 'b' would go too.
    expect(order).toEqual(['a']);
  });

  it('stays correct past the compaction of its queue (thousands of evictions)', () => {
    const { cache, forgotten } = queue(10);
    for (let i = 0; i < 10_000; i++) cache.add(String(i % 10));
    // Each entry is one character: the last ten stay, every earlier one was forgotten in order.
    expect(forgotten.length).toBe(9_990);
    expect(forgotten.slice(0, 3)).toEqual(['0', '1', '2']);
    expect(forgotten.at(-1)).toBe(String(9_989 % 10));
    cache.add('x');
    expect(forgotten.at(-1)).toBe(String(9_990 % 10));
  });
});
