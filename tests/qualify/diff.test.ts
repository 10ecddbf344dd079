import { describe, expect, it } from 'vitest';
import { diffJson, pathKey, valueAt, withLeavesReplaced } from '../../src/cli/qualify/diff.ts';

describe('diffJson', () => {
  it('finds nothing between equal documents, including undefined-valued keys JSON drops', () => {
    expect(diffJson({ a: [1, { b: 'x' }], c: null }, { a: [1, { b: 'x' }], c: null, d: undefined })).toEqual([]);
  });

  it('reports a changed leaf at its full path', () => {
    expect(diffJson({ m: [{ id: 'a' }, { id: 'b' }] }, { m: [{ id: 'a' }, { id: 'B' }] })).toEqual([{ path: ['m', 1, 'id'], kind: 'value' }]);
  });

  it('reports type changes without descending', () => {
    expect(diffJson({ c: 'text' }, { c: [{ type: 'text', text: 'text' }] })).toEqual([{ path: ['c'], kind: 'type' }]);
    expect(diffJson({ c: null }, { c: {} })).toEqual([{ path: ['c'], kind: 'type' }]);
    expect(diffJson([1], ['1'])).toEqual([{ path: [0], kind: 'type' }]);
  });

  it('reports added and removed keys and array elements', () => {
    expect(diffJson({ a: 1, b: 2 }, { a: 1, c: 3 })).toEqual([
      { path: ['b'], kind: 'removed' },
      { path: ['c'], kind: 'added' },
    ]);
    expect(diffJson([1, 2, 3], [1])).toEqual([
      { path: [1], kind: 'removed' },
      { path: [2], kind: 'removed' },
    ]);
    expect(diffJson([1], [1, 2])).toEqual([{ path: [1], kind: 'added' }]);
  });

  it('treats reordered array items as changes at each moved index', () => {
    expect(diffJson(['x', 'y'], ['y', 'x'])).toEqual([
      { path: [0], kind: 'value' },
      { path: [1], kind: 'value' },
    ]);
  });

  it('reports a key-order change (it changes the serialized bytes) at the object', () => {
    expect(diffJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toEqual([{ path: [], kind: 'key-order' }]);
  });

  it('lists differences in document order', () => {
    const diffs = diffJson({ a: { x: 1, y: 2 }, b: [0, 0] }, { a: { x: 9, y: 9 }, b: [9, 0] });
    expect(diffs.map((d) => pathKey(d.path))).toEqual(['$."a"."x"', '$."a"."y"', '$."b"[0]']);
  });

  it('walks 10,000-deep nesting without overflowing the stack', () => {
    const deep = (leaf: string): unknown => {
      let node: unknown = leaf;
      for (let i = 0; i < 10_000; i++) node = { n: node };
      return node;
    };
    const diffs = diffJson(deep('a'), deep('b'));
    expect(diffs).toHaveLength(1);
    expect(diffs[0]!.path).toHaveLength(10_000);
    expect(diffs[0]!.kind).toBe('value');
  });
});

describe('path helpers', () => {
  it('pathKey distinguishes keys that look like indices from indices', () => {
    expect(pathKey(['a', 0])).toBe('$."a"[0]');
    expect(pathKey(['a', '0'])).toBe('$."a"."0"');
    expect(pathKey([])).toBe('$');
  });

  it('valueAt reads nested values and returns undefined past a leaf', () => {
    const doc = { a: [{ b: 'x' }] };
    expect(valueAt(doc, ['a', 0, 'b'])).toBe('x');
    expect(valueAt(doc, ['a', 0, 'b', 'c'])).toBeUndefined();
    expect(valueAt(doc, ['z'])).toBeUndefined();
  });

  it('withLeavesReplaced copies, replaces only the named leaves, and refuses missing parents', () => {
    const doc = { a: [{ b: 'x' }, { b: 'y' }] };
    const copy = withLeavesReplaced(doc, [['a', 1, 'b']], 'P');
    expect(copy).toEqual({ a: [{ b: 'x' }, { b: 'P' }] });
    expect(doc.a[1]!.b).toBe('y');
    expect(() => withLeavesReplaced(doc, [['nope', 0, 'b']], 'P')).toThrow(/no such leaf/);
  });
});
