// The app's test for "this file stopped at a resource limit" against the messages the real reader writes, with
// its limits lowered through ReadOptions.limits (the same code path). Every input here is synthetic.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readRequests, type ReadOptions } from '../../src/core/input/index.ts';
import { isFileLimitError } from '../../src/ui/limit-errors.ts';

const line = `${JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'synthetic' }] })}\n`;
const read = (name: string, bytes: Uint8Array, limits: ReadOptions['limits']) => readRequests([{ name, bytes }], { limits });

describe('isFileLimitError', () => {
  it('is true for a gzip bomb stopped at the decompressed-size limit', async () => {
    const result = await read('bomb.jsonl.gz', gzipSync(Buffer.from(line.repeat(20_000))), { maxDecompressedBytes: 64 * 1024 });
    expect(result.errors.map(isFileLimitError)).toEqual([true]);
  });

  it('is true for a plain file over the size limit', async () => {
    const result = await read('big.jsonl', Buffer.from(line.repeat(100)), { maxDecompressedBytes: 1024 });
    expect(result.errors.map(isFileLimitError)).toEqual([true]);
  });

  it('is true for one whole JSON document over the document limit', async () => {
    const pretty = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'synthetic '.repeat(400) }] }, null, 2);
    const result = await read('body.json', Buffer.from(pretty), { maxDocumentBytes: 1024 });
    expect(result.errors.map(isFileLimitError)).toEqual([true]);
  });

  it('is false for record-level limits (the rest of the file is read) and for corrupt gzip', async () => {
    const long = `${JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(5000) }] })}\n`;
    const deep = `{"model":"gpt-4o","messages":[{"role":"user","content":${'['.repeat(600)}${']'.repeat(600)}}]}\n`;
    const records = await read('log.jsonl', Buffer.from(long + deep + line), { maxRecordBytes: 1024 });
    expect(records.requests).toHaveLength(1);
    expect(records.errors).toHaveLength(2);
    expect(records.errors.map(isFileLimitError)).toEqual([false, false]);
    const cut = gzipSync(Buffer.from(line.repeat(1000))).subarray(0, 100);
    const corrupt = await read('cut.jsonl.gz', cut, {});
    expect(corrupt.errors.length).toBeGreaterThan(0);
    expect(corrupt.errors.map(isFileLimitError)).not.toContain(true);
  });
});
