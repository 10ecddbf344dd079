// The folder summary's inputs (src/cli/fs/usage-inputs.ts): on the first call a whole file's bytes are read when
// the pass first asks for them — not when the session's inputs are made, since every whole file is read into the
// one reused buffer — and a later call (the session handed to the full analysis) opens plain streams again
// (SYNTHETIC files in a temp folder).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageInputs } from '../../src/cli/fs/usage-inputs.ts';
import type { SessionFile } from '../../src/cli/fs/folder-inputs.ts';

const decoded = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('usageInputs', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-usage-inputs-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const sessionFile = (name: string, text: string): SessionFile => {
    const full = path.join(dir, name);
    fs.writeFileSync(full, text);
    return { name, full, size: Buffer.byteLength(text), folderPath: name };
  };

  it('reads each whole file when its bytes are first asked for, into one buffer, the file as it is then', () => {
    const a = sessionFile('a.jsonl', 'first a\n');
    const b = sessionFile('b.jsonl', 'first b, longer\n');
    const [inputA, inputB] = usageInputs([a, b])();
    fs.writeFileSync(a.full, 'later a\n');
    expect(decoded(inputA!.bytes as Uint8Array)).toBe('later a\n');
    // Asked again, the same bytes (not a second read).
    fs.writeFileSync(a.full, 'third a\n');
    expect(decoded(inputA!.bytes as Uint8Array)).toBe('later a\n');
    const bytesB = inputB!.bytes as Uint8Array;
    expect(decoded(bytesB)).toBe('first b, longer\n');
    expect(bytesB.buffer).toBe((inputA!.bytes as Uint8Array).buffer);
    expect([inputA!.name, inputA!.size, inputA!.folderPath]).toEqual(['a.jsonl', 8, 'a.jsonl']);
  });

  it('reads a file gone before its bytes are asked for as empty', () => {
    const gone = sessionFile('gone.jsonl', 'line\n');
    const [input] = usageInputs([gone])();
    fs.rmSync(gone.full);
    expect((input!.bytes as Uint8Array).byteLength).toBe(0);
  });

  it('streams a gzipped file, and every file on a later call', async () => {
    const plain = sessionFile('c.jsonl', 'c\n');
    const zipped = { ...sessionFile('d.jsonl.gz', 'not really gzip'), name: 'd.jsonl.gz' };
    const inputs = usageInputs([plain, zipped]);
    const first = inputs();
    expect(first[0]!.bytes).toBeInstanceOf(Uint8Array);
    expect(first[1]!.bytes).toBeInstanceOf(ReadableStream);
    const again = inputs();
    expect(again.map((input) => input.bytes instanceof ReadableStream)).toEqual([true, true]);
    expect(decoded(new Uint8Array(await new Response(again[0]!.bytes as ReadableStream<Uint8Array>).arrayBuffer()))).toBe('c\n');
  });
});
