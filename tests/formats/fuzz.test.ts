// Untrusted input never crashes the reader: random JSON in every field the importers read, random bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRequests } from '../../src/core/input/index.ts';
import { contentHash } from '../../src/core/text/hash.ts';
import { utf8Length } from '../../src/core/text/utf8.ts';
import { anthropic, chat, responses } from './helpers.ts';

const anyJson = fc.jsonValue({ maxDepth: 4 });
const block = fc.oneof(
  anyJson,
  fc.record({ type: fc.constantFrom('text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'input_text', 'input_image', 'function_call', 'image_url', 'file', 'reasoning', 'message'), text: anyJson, source: anyJson, content: anyJson, input: anyJson, output: anyJson, image_url: anyJson, file: anyJson, role: anyJson }, { requiredKeys: ['type'] }),
);
const message = fc.record({ role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool'), anyJson), content: fc.oneof(fc.string(), fc.array(block, { maxLength: 4 }), anyJson), tool_calls: anyJson }, { requiredKeys: ['role'] });
const body = fc.record(
  { model: anyJson, system: fc.oneof(fc.string(), fc.array(block, { maxLength: 3 }), anyJson), tools: fc.oneof(fc.array(anyJson, { maxLength: 3 }), anyJson), messages: fc.array(message, { maxLength: 5 }), input: fc.oneof(fc.string(), fc.array(block, { maxLength: 5 })), instructions: anyJson, tool_choice: anyJson, thinking: anyJson, cache_control: anyJson },
  { requiredKeys: [] },
);

describe('importers on random bodies', () => {
  it('never throw, and every segment measures its own wire', () => {
    fc.assert(
      fc.property(body, (b) => {
        for (const importer of [anthropic, chat, responses]) {
          const request = importer(b as Record<string, unknown>);
          for (const segment of request.segments) {
            expect(segment.bytes).toBe(utf8Length(segment.wire));
            expect(segment.hash).toBe(contentHash(segment.wire));
            expect(typeof segment.text).toBe('string');
            expect(segment.position).toBeGreaterThanOrEqual(0);
          }
          // Every unknown shape is also a segment: nothing is dropped silently.
          const paths = new Set(request.segments.map((s) => s.path));
          for (const shape of request.unknownShapes) expect(paths.has(shape.path)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('reader on random bytes', () => {
  it('resolves with errors instead of rejecting', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('x.jsonl', 'x.json', 'x.jsonl.gz'), async (data, name) => {
        const result = await readRequests([{ name, bytes: data }]);
        expect(result.files).toHaveLength(1);
        for (const error of result.errors) expect(error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });

  it('resolves on random gzip-looking bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (tail) => {
        const data = new Uint8Array([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, ...tail]);
        const result = await readRequests([{ name: 'x.gz', bytes: data }]);
        expect(result.files).toHaveLength(1);
      }),
      { numRuns: 200 },
    );
  });
});
