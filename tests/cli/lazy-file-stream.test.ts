// A session's file streams open their file on the first read, not when made (src/cli/fs/folder-inputs.ts): a
// session's inputs are made together, and a stream that pulled at once held every file of the session open and
// read its first chunk before the read reached it (SYNTHETIC files in a temp folder).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyFileStream, lazyInputs } from '../../src/cli/fs/folder-inputs.ts';

const text = async (stream: ReadableStream<Uint8Array>) => new TextDecoder().decode(new Uint8Array(await new Response(stream).arrayBuffer()));
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('lazyFileStream', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-lazy-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads the file as it is at the first read', async () => {
    const file = path.join(dir, 'a.jsonl');
    fs.writeFileSync(file, 'before\n');
    const stream = lazyFileStream(file);
    await settle();
    fs.writeFileSync(file, 'after\n');
    expect(await text(stream)).toBe('after\n');
  });

  it('reads a file gone before its first read as empty', async () => {
    const file = path.join(dir, 'b.jsonl');
    fs.writeFileSync(file, 'line\n');
    const [input] = lazyInputs([{ name: 'b.jsonl', full: file, size: 5, folderPath: 'b.jsonl' }]);
    await settle();
    fs.rmSync(file);
    expect(await text(input!.bytes as ReadableStream<Uint8Array>)).toBe('');
  });
});
