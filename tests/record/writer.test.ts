// The capture file: exclusive creation with owner-only permissions, JSONL or gzip, a trailer on close.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCapture } from '../../src/cli/record/writer.ts';

let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-capture-'))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('openCapture', () => {
  it('writes one JSON line per record, gzip for .gz, readable before close up to the last record', async () => {
    const opened = openCapture('c.jsonl.gz', dir);
    if (!opened.ok) throw new Error(opened.message);
    expect(opened.writer.path).toBe(path.join(fs.realpathSync(dir), 'c.jsonl.gz'));
    opened.writer.append({ n: 1 });
    opened.writer.append({ n: 2, text: 'é\u2028' });
    // Sync-flushed: the records so far decompress even though the stream is not finished. The flush reaches the
    // file a few event-loop turns later; wait for it (bounded).
    const expected = '{"n":1}\n{"n":2,"text":"é\u2028"}\n';
    const partialText = () => {
      try {
        return gunzipSync(fs.readFileSync(opened.writer.path), { finishFlush: 2 /* Z_SYNC_FLUSH */ }).toString('utf8');
      } catch {
        return '';
      }
    };
    for (let tries = 0; tries < 200 && partialText() !== expected; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(partialText()).toBe(expected);
    expect(() => gunzipSync(fs.readFileSync(opened.writer.path))).toThrow(/unexpected end/i);
    await opened.writer.close();
    expect(gunzipSync(fs.readFileSync(opened.writer.path)).toString('utf8')).toBe(expected);
    expect(opened.writer.records).toBe(2);
    expect(fs.statSync(opened.writer.path).mode & 0o777).toBe(0o600);
  });

  it('writes plain JSONL otherwise', async () => {
    const opened = openCapture('plain.jsonl', dir);
    if (!opened.ok) throw new Error(opened.message);
    opened.writer.append({ a: [1] });
    await opened.writer.close();
    expect(fs.readFileSync(path.join(dir, 'plain.jsonl'), 'utf8')).toBe('{"a":[1]}\n');
    expect(() => opened.writer.append({})).toThrow('closed');
  });

  it('refuses an existing file, a symlink, a directory and a missing parent, creating nothing', () => {
    fs.writeFileSync(path.join(dir, 'taken.jsonl'), 'x');
    fs.symlinkSync(path.join(dir, 'target.jsonl'), path.join(dir, 'link.jsonl'));
    expect(openCapture('taken.jsonl', dir)).toMatchObject({ ok: false, code: 'OUTPUT_EXISTS' });
    expect(openCapture('link.jsonl', dir)).toMatchObject({ ok: false, code: 'OUTPUT_SYMLINK' });
    expect(openCapture('.', dir)).toMatchObject({ ok: false, code: 'OUTPUT_INVALID' });
    expect(openCapture('missing/c.jsonl', dir)).toMatchObject({ ok: false, code: 'OUTPUT_PARENT_MISSING' });
    expect(fs.readFileSync(path.join(dir, 'taken.jsonl'), 'utf8')).toBe('x');
    expect(fs.existsSync(path.join(dir, 'target.jsonl'))).toBe(false);
  });
});
