// Reusing the segments of elements a request resends must give exactly what importing it alone gives.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRequests } from '../../src/core/input/index.ts';
import fc from 'fast-check';
import { TextStore } from '../../src/core/text/store.ts';
import { flattenJson, matchesFlatJson } from '../../src/core/formats/json-fingerprint.ts';
import { anthropic, chat, responses } from './helpers.ts';
import type { ParsedRequest } from '../../src/core/model.ts';

const importers = { 'anthropic-messages': anthropic, 'openai-chat': chat, 'openai-responses': responses };

/** Each body imported with a fresh store: no reuse possible. */
function alone(bodies: Record<string, unknown>[], format: keyof typeof importers): ParsedRequest[] {
  return bodies.map((body, i) => ({ ...importers[format](body, new TextStore()), index: i, line: i + 1 }));
}

/** Wire ids number the distinct wires of one read: a request imported alone numbers its own from 0. */
function withoutWireIds(requests: ParsedRequest[]): unknown[] {
  return requests.map((request) => ({ ...request, segments: request.segments.map(({ wireId: _, ...rest }) => rest) }));
}

async function together(bodies: Record<string, unknown>[]): Promise<ParsedRequest[]> {
  const text = bodies.map((b) => JSON.stringify(b)).join('\n');
  return (await readRequests([{ name: 'loop.jsonl', bytes: new TextEncoder().encode(text) }])).requests;
}

/** A synthetic agent loop: every request resends the history and appends a tool round. */
function syntheticLoop(turns: number): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  const messages: unknown[] = [{ role: 'user', content: 'synthetic task' }];
  for (let t = 0; t < turns; t++) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `step ${t}` }, { type: 'tool_use', id: `u${t}`, name: 'f', input: { t } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `u${t}`, content: `result ${t}` }] });
    // Breakpoint on the newest block only, as a rolling marker does.
    const last = messages.length - 1;
    const withMarker = messages.map((m, i) => (i === last ? { role: 'user', content: [{ type: 'tool_result', tool_use_id: `u${t}`, content: `result ${t}`, cache_control: { type: 'ephemeral' } }] } : m));
    bodies.push({ model: 'claude-sonnet-4-5', max_tokens: 10, system: 'synthetic', tools: [{ name: 'f', input_schema: { type: 'object' } }], messages: withMarker });
  }
  return bodies;
}

describe('element reuse', () => {
  it('gives the same segments as importing each request alone (synthetic agent loop)', async () => {
    const bodies = syntheticLoop(12);
    expect(withoutWireIds(await together(bodies))).toEqual(withoutWireIds(alone(bodies, 'anthropic-messages')));
  });

  it('numbers the distinct wires of a read 0, 1, 2, ... in order of first sighting: equal ids exactly for equal wires', async () => {
    const segments = (await together(syntheticLoop(6))).flatMap((request) => request.segments);
    const idOfWire = new Map<string, number>();
    for (const segment of segments) {
      if (!idOfWire.has(segment.wire)) idOfWire.set(segment.wire, segment.wireId);
      expect(segment.wireId).toBe(idOfWire.get(segment.wire));
    }
    // 1 tool + system + first user message + 6 turns × (text, tool_use, tool_result) = 21 distinct wires.
    expect([...idOfWire.values()]).toEqual(Array.from({ length: 21 }, (_, i) => i));
  });

  it("keeps each request's own positions when a resent element moves (more tools before it)", async () => {
    const tool = (name: string) => ({ type: 'function', function: { name } });
    const message = { role: 'user', content: 'same message' };
    const bodies = [
      { model: 'gpt-4o', tools: [tool('a')], messages: [message] },
      { model: 'gpt-4o', tools: [tool('a'), tool('b')], messages: [message] },
      { model: 'gpt-4o', tools: [tool('a')], messages: [message] },
    ];
    const requests = await together(bodies);
    expect(requests.map((r) => r.segments.at(-1)!.position)).toEqual([1, 2, 1]);
    expect(withoutWireIds(requests)).toEqual(withoutWireIds(alone(bodies, 'openai-chat')));
  });

  it('does not reuse an element whose key order changed (the wire differs)', async () => {
    const a = { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] };
    const b = { model: 'gpt-4o', messages: [{ content: 'x', role: 'user' }] };
    const [first, second] = await together([a, b]);
    expect(first!.segments[0]!.wire).toBe('{"role":"user","content":[{"type":"text","text":"x"}]}');
    expect(second!.segments[0]!.wire).toBe('{"content":[{"type":"text","text":"x"}],"role":"user"}');
  });

  it('compares JSON values with key order', () => {
    const same = (a: unknown, b: unknown) => matchesFlatJson(flattenJson(a), b);
    expect(same({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBe(true);
    expect(same({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(same([1, 2], [1, 2, 3])).toBe(false);
    expect(same([1, 2, 3], [1, 2])).toBe(false);
    expect(same({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(same({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(same({ a: null }, { a: {} })).toBe(false);
    expect(same({ a: {} }, { a: null })).toBe(false);
    expect(same([], {})).toBe(false);
    expect(same({}, [])).toBe(false);
    expect(same([[1], 2], [[1, 2]])).toBe(false);
    expect(same('1', 1)).toBe(false);
    // JSON.parse makes "__proto__" an own key; it must count like any other.
    expect(same(JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":2}}'))).toBe(false);
    expect(same(JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":1}}'))).toBe(true);
  });

  it('matches exactly the values whose JSON text is equal (property test on near-identical pairs)', () => {
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'medium' },
        fc.constantFrom(0, 1, 'x', null, true),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', '1'), tie('value'), { maxKeys: 3 }),
      ),
    }));
    // The second value is the first with one token of its text changed: a key renamed, a leaf changed, or nothing
    // (when the token does not occur), so equal and nearly equal pairs dominate.
    const edits = fc.constantFrom(['"a"', '"b"'], ['"b"', '"1"'], ['0', '1'], ['"x"', 'null'], ['true', '0'], ['[]', '{}']);
    const pairs = fc.tuple(value, edits, fc.nat(7)).map(([v, [from, to], k]) => {
      const text = JSON.stringify(v);
      const parts = text.split(from);
      if (parts.length === 1) return [text, text] as const;
      const at = 1 + (k % (parts.length - 1));
      return [text, parts.slice(0, at).join(from) + to + parts.slice(at).join(from)] as const;
    });
    let differing = 0;
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const parsedB = JSON.parse(b) as unknown;
        const equal = JSON.stringify(parsedB) === a;
        if (!equal) differing++;
        expect(matchesFlatJson(flattenJson(JSON.parse(a)), parsedB)).toBe(equal);
      }),
      { numRuns: 3000, seed: 7 },
    );
    expect(differing).toBeGreaterThan(500);
  });

  const root = path.resolve(__dirname, '../../../shared/fixtures/real');
  const suite = fs.existsSync(root) ? it : it.skip;
  suite('gives the same segments as importing alone on every real multi-request file', async () => {
    for (const format of Object.keys(importers) as (keyof typeof importers)[]) {
      for (const name of fs.readdirSync(path.join(root, format)).filter((n) => n.endsWith('_seq.jsonl'))) {
        const bodies = fs
          .readFileSync(path.join(root, format, name), 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        expect(withoutWireIds(await together(bodies)), `${format}/${name}`).toEqual(withoutWireIds(alone(bodies, format)));
      }
    }
  });
});
