// Conformance on real request bodies written by real SDKs (../shared/fixtures/real, read in place, never copied):
// every file parses with no error and no unknown shape, in the format of its folder, one request per record.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRequests, type ReadResult } from '../../src/core/input/index.ts';
import type { WireFormat } from '../../src/core/model.ts';

const root = path.resolve(__dirname, '../../../shared/fixtures/real');
const formats: WireFormat[] = ['anthropic-messages', 'openai-chat', 'openai-responses'];
const present = fs.existsSync(root);

function requestFiles(format: WireFormat): string[] {
  const dir = path.join(root, format);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => /\.jsonl?$/.test(name) && !name.includes('.usage.'))
    .sort();
}

async function read(format: WireFormat, name: string): Promise<ReadResult> {
  const bytes = new Uint8Array(fs.readFileSync(path.join(root, format, name)));
  return readRequests([{ name, bytes }]);
}

function nonBlankLines(format: WireFormat, name: string): number {
  return fs.readFileSync(path.join(root, format, name), 'utf8').split('\n').filter((line) => line.trim() !== '').length;
}

const suite = present ? describe : describe.skip;
const title = present
  ? 'real request bodies (../shared/fixtures/real)'
  : `real request bodies: SKIPPED, ${root} is absent (the fixtures live in shared/ beside the repository)`;

suite(title, () => {
  for (const format of formats) {
    const files = requestFiles(format);
    it(`has ${format} fixtures`, () => {
      expect(files.length).toBeGreaterThan(0);
    });
    for (const name of files) {
      it(`${format}/${name}: every record imports, no errors, no unknown shapes`, async () => {
        const result = await read(format, name);
        expect(result.errors).toEqual([]);
        const expected = name.endsWith('.jsonl') ? nonBlankLines(format, name) : 1;
        expect(result.requests).toHaveLength(expected);
        expect(result.files[0]).toMatchObject({ format, envelope: 'none', records: expected, requests: expected, errors: 0 });
        for (const request of result.requests) {
          expect(request.format).toBe(format);
          expect(request.unknownShapes).toEqual([]);
          expect(request.segments.length).toBeGreaterThan(0);
          for (const segment of request.segments) {
            expect(segment.bytes).toBeGreaterThan(0);
            expect(segment.hash).toMatch(/^[0-9a-f]{16}$/);
          }
        }
        // Every recorded response refers to a request that was read.
        const usagePath = path.join(root, format, name.replace(/\.jsonl?$/, '.usage.jsonl'));
        if (fs.existsSync(usagePath)) {
          const lines = fs.readFileSync(usagePath, 'utf8').split('\n').filter((l) => l.trim() !== '');
          for (const line of lines) {
            const usage = JSON.parse(line) as { request_line: number };
            expect(usage.request_line).toBeLessThan(result.requests.length);
          }
        }
      });
    }
  }

  it('anthropic-messages/pai_parallel_tool_calls_seq.jsonl: four parallel tool_use and four tool_result blocks are one position each', async () => {
    const result = await read('anthropic-messages', 'pai_parallel_tool_calls_seq.jsonl');
    const second = result.requests[1]!;
    // tools[0], system, user text, assistant text, 4 × tool_use, 4 × tool_result.
    expect(second.segments.map((s) => `${s.category}@${s.position}`)).toEqual([
      'tools@0',
      'system@1',
      'user@2',
      'assistant@3',
      'tool_call@4',
      'tool_call@4',
      'tool_call@4',
      'tool_call@4',
      'tool_result@5',
      'tool_result@5',
      'tool_result@5',
      'tool_result@5',
    ]);
  });

  it('anthropic-messages/llm-anthropic_image_prompt.json: the PNG is 166×282, 149 bytes', async () => {
    const result = await read('anthropic-messages', 'llm-anthropic_image_prompt.json');
    const image = result.requests[0]!.segments.find((s) => s.category === 'image');
    expect(image?.media).toEqual({ kind: 'image', source: 'base64', mediaType: 'image/png', dataBytes: 149, width: 166, height: 282 });
  });

  it('openai-responses/pai_previous_response_id_chain_seq.jsonl: chained requests carry the note', async () => {
    const result = await read('openai-responses', 'pai_previous_response_id_chain_seq.jsonl');
    const chained = result.requests.filter((r) => r.options.previousResponseId);
    expect(chained.length).toBeGreaterThan(0);
    for (const request of chained) expect(request.notes.map((n) => n.code)).toContain('previous_response_id');
  });

  it('the same files gzipped and concatenated as one JSONL read the same', async () => {
    const { gzipSync } = await import('node:zlib');
    const name = 'pai_recorded_usage_requests.jsonl';
    const bytes = fs.readFileSync(path.join(root, 'anthropic-messages', name));
    const plain = await read('anthropic-messages', name);
    const zipped = await readRequests([{ name: `${name}.gz`, bytes: new Uint8Array(gzipSync(bytes)) }]);
    expect(zipped.errors).toEqual([]);
    expect(zipped.requests.map((r) => r.segments.map((s) => s.hash))).toEqual(plain.requests.map((r) => r.segments.map((s) => s.hash)));
  });
});
