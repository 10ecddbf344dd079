// Conformance on real request bodies written by real SDKs (../shared/fixtures/real, read in place, never copied):
// every file parses with no error and no unknown shape, in the format of its folder, one request per record.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectWireFormat } from '../../src/core/formats/detect.ts';
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

  it('every real body, taken alone, is detected as the format of its folder', () => {
    let bodies = 0;
    for (const format of formats) {
      for (const name of requestFiles(format)) {
        const text = fs.readFileSync(path.join(root, format, name), 'utf8');
        const values = name.endsWith('.jsonl') ? text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown) : [JSON.parse(text) as unknown];
        for (const body of values) {
          bodies++;
          expect(detectWireFormat(body)?.format, `${format}/${name}`).toBe(format);
        }
      }
    }
    expect(bodies).toBeGreaterThan(100);
  });

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

  it('real requests wrapped as a gateway log with their real recorded responses carry that usage', async () => {
    // Each request line beside the response usage its provider recorded (final object, or the stream's
    // message_start / message_delta events), converted to Anthropic's sense of input.
    type UsageLine = { request_line: number; usage: { final?: Record<string, number>; message_start?: Record<string, number>; message_delta?: Record<string, number> } };
    for (const [format, name] of [
      ['anthropic-messages', 'pai_cache_inline_system_prefix_reused'],
      ['anthropic-messages', 'llm-anthropic_tools_seq'],
      ['openai-chat', 'llm_tool_chain_of_two_calls_seq'],
      ['openai-responses', 'pai_simple_tool_call_seq'],
    ] as const) {
      const bodies = fs.readFileSync(path.join(root, format, `${name}.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '');
      const usages = fs
        .readFileSync(path.join(root, format, `${name}.usage.jsonl`), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as UsageLine);
      const lines = usages.map((u) => {
        const response = u.usage.final
          ? { body: { usage: u.usage.final } }
          : [{ type: 'message_start', message: { usage: u.usage.message_start } }, { type: 'message_delta', usage: u.usage.message_delta }];
        return `{"request":${bodies[u.request_line]!},"response":${JSON.stringify(response)}}`;
      });
      const result = await readRequests([{ name: `${name}.gateway.jsonl`, bytes: new TextEncoder().encode(lines.join('\n')) }]);
      expect(result.errors, name).toEqual([]);
      result.requests.forEach((request, i) => {
        const usage = usages[i]!.usage;
        const recorded = request.recorded!;
        if (format === 'anthropic-messages') {
          const start = usage.final ?? usage.message_start!;
          expect(recorded.input + recorded.cacheRead + recorded.cacheWrite5m + recorded.cacheWrite1h, name).toBe(
            start['input_tokens']! + start['cache_read_input_tokens']! + start['cache_creation_input_tokens']!,
          );
          expect(recorded.output, name).toBe((usage.final ?? usage.message_delta!)['output_tokens']);
        } else {
          const final = usage.final!;
          // OpenAI totals include cached tokens; recorded input + cacheRead gives the total back.
          expect(recorded.input + recorded.cacheRead, name).toBe(final['prompt_tokens'] ?? final['input_tokens']);
        }
      });
    }
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
