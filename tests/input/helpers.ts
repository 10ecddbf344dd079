// Test helpers for the input reader: synthetic inputs built in memory (all test data here is synthetic).
import { gzipSync } from 'node:zlib';
import { readRequests, type InputFile, type ReadOptions, type ReadResult } from '../../src/core/input/index.ts';

export const encoder = new TextEncoder();

export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export function gzip(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(gzipSync(typeof data === 'string' ? bytes(data) : data));
}

/** A stream that hands out `data` in chunks of `size` bytes (to cut lines and characters across chunks). */
export function chunkedStream(data: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= data.byteLength) {
        controller.close();
        return;
      }
      controller.enqueue(data.slice(at, at + size));
      at += size;
    },
  });
}

export function readOne(name: string, data: string | Uint8Array, options?: ReadOptions): Promise<ReadResult> {
  const file: InputFile = { name, bytes: typeof data === 'string' ? bytes(data) : data };
  return readRequests([file], options);
}

export function readText(files: Record<string, string>, options?: ReadOptions): Promise<ReadResult> {
  return readRequests(
    Object.entries(files).map(([name, text]) => ({ name, bytes: bytes(text) })),
    options,
  );
}

/** Smallest valid bodies of each wire format (synthetic). */
export const anthropicBody = (text = 'hi', extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 64,
  system: 'synthetic system prompt',
  messages: [{ role: 'user', content: text }],
  ...extra,
});

export const chatBody = (text = 'hi', extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'synthetic system prompt' },
    { role: 'user', content: text },
  ],
  ...extra,
});

export const responsesBody = (text = 'hi', extra: Record<string, unknown> = {}) => ({
  model: 'gpt-5',
  instructions: 'synthetic instructions',
  input: [{ role: 'user', content: [{ type: 'input_text', text }] }],
  ...extra,
});

export function jsonl(...records: unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}
