// Mutation fuzzing as fast-check arbitraries: a seed plus a short list of edits. Byte edits break syntax,
// encodings and framing; JSON edits keep a record parseable but change its structure (delete a key, swap a type,
// graft a generated value, nest it deeper), which is what reaches the importers. Positions are fractions of the
// current length, so an edit list applies to any seed and shrinks towards "no edit".
import fc from 'fast-check';

const utf8 = new TextEncoder();

/** Byte strings that are interesting to a JSON, UTF-8, gzip or JSONL reader. */
const TOKENS: readonly Uint8Array[] = [
  '{', '}', '[', ']', '"', ',', ':', '\\', '\n', '\r\n', '\\u', '\\ud800', '\\udfff', '\\u0000', 'null', 'true',
  '-0', '1e400', '-1e-400', '123456789012345678901234567890', 'NaN', '"__proto__"', '"constructor"',
  '{"__proto__":{"polluted":1}}', '"prototype"', '<script>alert(1)</script>', '\u202e\u2066', '\u0000', '\ufeff',
  '\ud83d\ude00', '{"type":', '"text":', '"messages":[', '"content":', '"tool_use"', '"role":"user"',
  '[[[[[[[[[[[[[[[[', ']]]]]]]]', '{{{{', '"a":"b","a":"c"',
].map((token) => utf8.encode(token)).concat([
  new Uint8Array([0xc3]), // truncated 2-byte sequence
  new Uint8Array([0xed, 0xa0, 0x80]), // UTF-8-encoded lone surrogate
  new Uint8Array([0xf8, 0x88, 0x80, 0x80, 0x80]), // 5-byte form, never valid
  new Uint8Array([0xc0, 0xaf]), // overlong '/'
  new Uint8Array([0xff, 0xfe]), // UTF-16LE BOM
  new Uint8Array([0xfe, 0xff]), // UTF-16BE BOM
  new Uint8Array([0x1f, 0x8b, 0x08, 0x00]), // gzip magic in the middle of text
]);

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

export type ByteEdit =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'insert'; at: number; token: number }
  | { op: 'delete'; at: number; length: number }
  | { op: 'duplicate'; from: number; length: number; to: number }
  | { op: 'truncate'; at: number }
  | { op: 'swap-lines'; a: number; b: number };

export const byteEdit: fc.Arbitrary<ByteEdit> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fraction, bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fraction, token: fc.nat({ max: TOKENS.length - 1 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fraction, length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ op: fc.constant('duplicate' as const), from: fraction, length: fc.integer({ min: 1, max: 256 }), to: fraction }),
  fc.record({ op: fc.constant('truncate' as const), at: fraction }),
  fc.record({ op: fc.constant('swap-lines' as const), a: fraction, b: fraction }),
);

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

function lineStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.byteLength; i++) if (bytes[i] === 0x0a && i + 1 < bytes.byteLength) starts.push(i + 1);
  return starts;
}

export function applyByteEdit(bytes: Uint8Array, edit: ByteEdit): Uint8Array {
  const n = bytes.byteLength;
  const pos = (f: number) => Math.min(n, Math.floor(f * (n + 1)));
  switch (edit.op) {
    case 'flip': {
      if (n === 0) return bytes;
      const out = bytes.slice();
      const at = Math.min(n - 1, pos(edit.at));
      out[at] = out[at]! ^ (1 << edit.bit);
      return out;
    }
    case 'insert': {
      const at = pos(edit.at);
      return concat(bytes.subarray(0, at), TOKENS[edit.token]!, bytes.subarray(at));
    }
    case 'delete': {
      const at = pos(edit.at);
      return concat(bytes.subarray(0, at), bytes.subarray(Math.min(n, at + edit.length)));
    }
    case 'duplicate': {
      const from = pos(edit.from);
      const chunk = bytes.subarray(from, Math.min(n, from + edit.length));
      const to = pos(edit.to);
      return concat(bytes.subarray(0, to), chunk, bytes.subarray(to));
    }
    case 'truncate':
      return bytes.subarray(0, pos(edit.at));
    case 'swap-lines': {
      const starts = lineStarts(bytes);
      if (starts.length < 2) return bytes;
      const pick = (f: number) => Math.min(starts.length - 1, Math.floor(f * starts.length));
      const [a, b] = [pick(edit.a), pick(edit.b)].sort((x, y) => x - y) as [number, number];
      if (a === b) return bytes;
      const end = (i: number) => (i + 1 < starts.length ? starts[i + 1]! : n);
      const lineA = bytes.subarray(starts[a]!, end(a));
      const lineB = bytes.subarray(starts[b]!, end(b));
      return concat(bytes.subarray(0, starts[a]!), lineB, bytes.subarray(end(a), starts[b]!), lineA, bytes.subarray(end(b)));
    }
  }
}

export type JsonEdit =
  | { op: 'delete'; node: number }
  | { op: 'replace'; node: number; value: unknown }
  | { op: 'stringify'; node: number }
  | { op: 'wrap'; node: number; depth: number }
  | { op: 'proto'; node: number };

/** Generated JSON values that stress importers: wrong types, huge numbers, odd strings, small nests. */
export const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e-308, Number.MAX_SAFE_INTEGER + 2, '', ' ', '\u0000', '\ud800', 'text', 'image', 'tool_use', 'function_call'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }),
  // Fresh objects per draw: edits change values in place, so a shared constant could end up inside itself.
  fc.constant(null).map(() => ({ type: 'text', text: '\udc00<b>x</b>' })),
  fc.constant(null).map(() => ({ __proto__: null, constructor: { prototype: { polluted: true } } })),
);

export const jsonEdit: fc.Arbitrary<JsonEdit> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), node: fraction }),
  fc.record({ op: fc.constant('replace' as const), node: fraction, value: hostileJsonValue }),
  fc.record({ op: fc.constant('stringify' as const), node: fraction }),
  fc.record({ op: fc.constant('wrap' as const), node: fraction, depth: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('proto' as const), node: fraction }),
);

interface Slot {
  parent: Record<string, unknown> | unknown[] | null;
  key: string | number;
}

/** Every value position in `root`, breadth-first, capped so huge records stay cheap. */
function slots(holder: { root: unknown }): Slot[] {
  const out: Slot[] = [{ parent: holder as unknown as Record<string, unknown>, key: 'root' }];
  for (let i = 0; i < out.length && out.length < 4096; i++) {
    const slot = out[i]!;
    const value = (slot.parent as Record<string | number, unknown>)[slot.key];
    if (Array.isArray(value)) value.forEach((_, index) => out.push({ parent: value, key: index }));
    else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) out.push({ parent: value as Record<string, unknown>, key });
    }
  }
  return out;
}

/** Applies one edit to a parsed record in place (through a holder, so the root itself can be replaced). */
export function applyJsonEdit(holder: { root: unknown }, edit: JsonEdit): void {
  const all = slots(holder);
  const slot = all[Math.min(all.length - 1, Math.floor(edit.node * all.length))]!;
  const parent = slot.parent as Record<string | number, unknown>;
  const current = parent[slot.key];
  switch (edit.op) {
    case 'delete':
      if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
      else if (slot.key !== 'root' || slot.parent !== (holder as unknown)) delete parent[slot.key];
      else holder.root = null;
      return;
    case 'replace':
      parent[slot.key] = structuredClone(edit.value);
      return;
    case 'stringify':
      parent[slot.key] = JSON.stringify(current) ?? 'undefined';
      return;
    case 'wrap': {
      let value: unknown = current;
      for (let d = 0; d < edit.depth; d++) value = d % 2 === 0 ? [value] : { content: value };
      parent[slot.key] = value;
      return;
    }
    case 'proto':
      // Own keys named like prototype members, as JSON.parse creates them.
      if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
        Object.defineProperty(current, '__proto__', { value: { type: 'image', polluted: true }, enumerable: true, configurable: true, writable: true });
        (current as Record<string, unknown>)['constructor'] = { prototype: { polluted: true } };
      }
      return;
  }
}

/** A JSONL (or single JSON) seed with JSON edits applied to records picked by `line`; unparseable lines pass through. */
export function applyJsonEdits(bytes: Uint8Array, edits: readonly { line: number; edit: JsonEdit }[]): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const lines = text.split('\n');
  const nonBlank = lines.map((line, i) => (line.trim() === '' ? -1 : i)).filter((i) => i >= 0);
  if (nonBlank.length === 0) return bytes;
  const parsed = new Map<number, { root: unknown }>();
  for (const { line, edit } of edits) {
    const index = nonBlank[Math.min(nonBlank.length - 1, Math.floor(line * nonBlank.length))]!;
    let holder = parsed.get(index);
    if (!holder) {
      try {
        holder = { root: JSON.parse(lines[index]!) };
      } catch {
        continue;
      }
      parsed.set(index, holder);
    }
    applyJsonEdit(holder, edit);
  }
  for (const [index, holder] of parsed) lines[index] = JSON.stringify(holder.root) ?? 'null';
  return utf8.encode(lines.join('\n'));
}

export interface Mutation {
  seed: number;
  json: { line: number; edit: JsonEdit }[];
  bytes: ByteEdit[];
}

/** A seed index, then JSON edits, then byte edits (either list may be empty; both empty = the seed itself). */
export function mutationOf(seedCount: number): fc.Arbitrary<Mutation> {
  return fc.record({
    seed: fc.nat({ max: Math.max(0, seedCount - 1) }),
    json: fc.array(fc.record({ line: fraction, edit: jsonEdit }), { maxLength: 4 }),
    bytes: fc.array(byteEdit, { maxLength: 4 }),
  });
}

export function applyMutation(seeds: readonly { bytes: Uint8Array }[], mutation: Mutation): Uint8Array {
  let bytes = seeds[mutation.seed]!.bytes;
  if (mutation.json.length > 0) bytes = applyJsonEdits(bytes, mutation.json);
  for (const edit of mutation.bytes) bytes = applyByteEdit(bytes, edit);
  return bytes;
}
