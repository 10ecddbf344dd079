// Structural diff of two complete JSON payloads. Every difference is reported at the deepest path where the
// two documents part: a changed leaf, a changed JSON type, a key or array element present on one side only,
// or the same keys in a different order (key order changes the serialized bytes, so it breaks a cached prefix).
// This file is hashed into the qualification record's sourceDigest.

/** A location inside a JSON document: object keys and array indices from the root. */
export type JsonPath = (string | number)[];

export type DifferenceKind = 'value' | 'type' | 'added' | 'removed' | 'key-order';

export interface JsonDifference {
  path: JsonPath;
  kind: DifferenceKind;
}

type JsonKind = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean' | 'other';

function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      // undefined, functions, bigint: not JSON; compared by identity below.
      return 'other';
  }
}

/** Own enumerable keys whose value would survive JSON serialization (undefined-valued keys are dropped by it). */
function serializedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined);
}

/** All differences between `before` and `after`, in document order. Iterative, so deep payloads cannot overflow the stack. */
export function diffJson(before: unknown, after: unknown): JsonDifference[] {
  const differences: JsonDifference[] = [];
  const pending: { a: unknown; b: unknown; path: JsonPath }[] = [{ a: before, b: after, path: [] }];
  while (pending.length > 0) {
    const { a, b, path } = pending.pop()!;
    const kindA = kindOf(a);
    const kindB = kindOf(b);
    if (kindA !== kindB) {
      differences.push({ path, kind: 'type' });
      continue;
    }
    const children: { a: unknown; b: unknown; path: JsonPath }[] = [];
    if (kindA === 'array') {
      const arrA = a as unknown[];
      const arrB = b as unknown[];
      const shared = Math.min(arrA.length, arrB.length);
      for (let i = 0; i < shared; i++) children.push({ a: arrA[i], b: arrB[i], path: [...path, i] });
      for (let i = shared; i < arrA.length; i++) differences.push({ path: [...path, i], kind: 'removed' });
      for (let i = shared; i < arrB.length; i++) differences.push({ path: [...path, i], kind: 'added' });
    } else if (kindA === 'object') {
      const objA = a as Record<string, unknown>;
      const objB = b as Record<string, unknown>;
      const keysA = serializedKeys(objA);
      const keysB = serializedKeys(objB);
      const inB = new Set(keysB);
      const inA = new Set(keysA);
      for (const key of keysA) {
        if (inB.has(key)) children.push({ a: objA[key], b: objB[key], path: [...path, key] });
        else differences.push({ path: [...path, key], kind: 'removed' });
      }
      for (const key of keysB) if (!inA.has(key)) differences.push({ path: [...path, key], kind: 'added' });
      const sharedOrderA = keysA.filter((key) => inB.has(key));
      const sharedOrderB = keysB.filter((key) => inA.has(key));
      if (sharedOrderA.some((key, i) => key !== sharedOrderB[i])) differences.push({ path, kind: 'key-order' });
    } else if (a !== b) {
      differences.push({ path, kind: 'value' });
    }
    // Reverse so the stack pops children in document order.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return differences;
}

/** A stable string form of a path, for set membership ("$" is the root). */
export function pathKey(path: JsonPath): string {
  return '$' + path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${JSON.stringify(part)}`)).join('');
}

/** The value at `path`, or undefined when the path does not exist. */
export function valueAt(root: unknown, path: JsonPath): unknown {
  let node: unknown = root;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

/** A deep copy of `root` with the leaf at each path replaced by `value` (paths must exist). */
export function withLeavesReplaced(root: unknown, paths: JsonPath[], value: unknown): unknown {
  const copy = structuredClone(root);
  for (const path of paths) {
    const parentPath = path.slice(0, -1);
    const last = path[path.length - 1];
    const parent = valueAt(copy, parentPath);
    if (last === undefined || parent === null || typeof parent !== 'object') {
      throw new Error(`cannot replace ${pathKey(path)}: no such leaf`);
    }
    (parent as Record<string | number, unknown>)[last] = value;
  }
  return copy;
}
