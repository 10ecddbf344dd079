// Decoding layer: gzip, text encodings, binary and empty files, located UTF-8 errors, streaming, progress, abort.
import { describe, expect, it } from 'vitest';
import { readRequests } from '../../src/core/input/index.ts';
import { anthropicBody, bytes, chunkedStream, gzip, jsonl, readOne } from './helpers.ts';

const threeBodies = jsonl(anthropicBody('one'), anthropicBody('two'), anthropicBody('three'));

describe('gzip', () => {
  it('is recognised by its magic bytes whatever the file is called', async () => {
    const result = await readOne('requests.log', gzip(threeBodies));
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => r.line)).toEqual([1, 2, 3]);
  });

  it('decodes concatenated gzip members as one file', async () => {
    const first = gzip(jsonl(anthropicBody('one')));
    const second = gzip(jsonl(anthropicBody('two')));
    const joined = new Uint8Array(first.byteLength + second.byteLength);
    joined.set(first);
    joined.set(second, first.byteLength);
    const result = await readOne('two-members.jsonl.gz', joined);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => r.segments.at(-1)!.text)).toEqual(['one', 'two']);
  });

  it('reports truncated gzip as a file-level error and keeps the records decoded before the cut', async () => {
    const many = jsonl(...Array.from({ length: 200 }, (_, i) => anthropicBody(`message ${i} ${'x'.repeat(i)}`)));
    const whole = gzip(many);
    const result = await readOne('cut.jsonl.gz', whole.subarray(0, whole.byteLength - 40));
    const fileError = result.errors.find((e) => e.line === 0);
    expect(fileError?.message).toMatch(/^gzip data is truncated or corrupt after [\d,]+ decompressed bytes/);
    expect(result.files[0]!.errors).toBeGreaterThanOrEqual(1);
  });

  it('rejects a .gz name whose data is not gzip', async () => {
    const result = await readOne('requests.jsonl.gz', threeBodies);
    expect(result.requests).toEqual([]);
    expect(result.errors).toEqual([
      { file: 0, line: 0, message: 'the file name ends in .gz but the data does not start with the gzip magic bytes 1f 8b' },
    ]);
  });

  it('stops at the decompressed-size limit (gzip bomb)', async () => {
    const bomb = gzip(new Uint8Array(1_000_000).fill(0x20));
    expect(bomb.byteLength).toBeLessThan(5_000);
    const result = await readOne('bomb.gz', bomb, { limits: { maxDecompressedBytes: 100_000 } });
    expect(result.errors).toEqual([
      { file: 0, line: 0, message: 'decompressed size exceeds the limit of 100,000 bytes per file (a gzip bomb, or raise the limit)' },
    ]);
  });
});

describe('text encodings', () => {
  it('strips a UTF-8 byte-order mark', async () => {
    const result = await readOne('bom.jsonl', bytes('\uFEFF' + threeBodies));
    expect(result.errors).toEqual([]);
    expect(result.requests).toHaveLength(3);
  });

  it.each([
    ['utf-16le', true],
    ['utf-16be', false],
  ])('reads %s with a byte-order mark', async (_name, littleEndian) => {
    const text = '\uFEFF' + jsonl(anthropicBody('h\u00e9llo \u{1F600}'));
    const out = new Uint8Array(text.length * 2);
    const view = new DataView(out.buffer);
    for (let i = 0; i < text.length; i++) view.setUint16(i * 2, text.charCodeAt(i), littleEndian);
    const result = await readOne('wide.jsonl', out);
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.segments.at(-1)!.text).toBe('h\u00e9llo \u{1F600}');
  });

  it('reports invalid UTF-8 with its byte offset and reads the other lines', async () => {
    const good = JSON.stringify(anthropicBody('fine')) + '\n';
    const before = bytes(good + '{"model":"claude-sonnet-4-5","max_tokens":1,"messages":[{"role":"user","content":"a');
    const bad = new Uint8Array([...before, 0xff, ...bytes('"}]}\n' + good)]);
    const result = await readOne('bad-utf8.jsonl', bad);
    expect(result.requests.map((r) => r.line)).toEqual([1, 3]);
    expect(result.errors).toEqual([
      { file: 0, line: 2, message: `invalid UTF-8 at byte offset ${before.byteLength} (byte ${before.byteLength - good.length + 1} of the line)` },
    ]);
  });

  it('reports invalid UTF-8 inside a pretty-printed document once, not as a flood of broken lines', async () => {
    const pretty = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }, null, 2);
    const cut = pretty.indexOf('"x"') + 1;
    const data = new Uint8Array([...bytes(pretty.slice(0, cut)), 0xfe, ...bytes(pretty.slice(cut))]);
    const result = await readOne('pretty.json', data);
    expect(result.requests).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ line: 6 });
    expect(result.errors[0]!.message).toMatch(/^invalid UTF-8 at byte offset \d+/);
  });

  it('rejects a 0-byte file', async () => {
    const result = await readOne('empty.jsonl', new Uint8Array(0));
    expect(result.errors).toEqual([{ file: 0, line: 0, message: 'the file is empty (0 bytes)' }]);
    expect(result.files[0]).toMatchObject({ records: 0, requests: 0, errors: 1 });
  });

  it('rejects an empty gzip file as empty', async () => {
    const result = await readOne('empty.jsonl.gz', gzip(''));
    expect(result.errors).toEqual([{ file: 0, line: 0, message: 'the file is empty (0 bytes)' }]);
  });

  it('rejects binary data with the offset of its first NUL byte', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    const result = await readOne('picture.png', png);
    expect(result.errors).toEqual([
      { file: 0, line: 0, message: 'not a text file: NUL byte at offset 8 (binary data, or UTF-16 without a byte-order mark)' },
    ]);
  });

  it('rejects binary data without NUL bytes by its control bytes, not with a flood of per-line errors', async () => {
    // Synthetic: a '{' followed by bytes from every range except NUL, repeated over many "lines".
    const noise = Array.from({ length: 4000 }, (_, i) => (i % 251) + 1);
    const data = new Uint8Array([0x7b, ...noise]);
    const result = await readOne('blob.jsonl', data);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.line).toBe(0);
    // Byte 1 of the noise is 0x01, at offset 1 of the file.
    expect(result.errors[0]!.message).toMatch(/^not a text file: \d+ control bytes in the first 4001 bytes, the first at offset 1$/);
  });

  it('rejects text that is not JSON with what it starts with', async () => {
    const result = await readOne('notes.txt', 'hello world\n');
    expect(result.errors).toEqual([{ file: 0, line: 1, message: 'not JSON, JSONL or YAML: the first non-blank line starts with a letter' }]);
  });
});

describe('JSONL lines', () => {
  it('skips blank lines, accepts CRLF and keeps 1-based line numbers', async () => {
    const text = '\r\n' + JSON.stringify(anthropicBody('a')) + '\r\n\r\n   \r\n' + JSON.stringify(anthropicBody('b')) + '\r\n';
    const result = await readOne('crlf.jsonl', text);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.line, r.segments.at(-1)!.text])).toEqual([
      [2, 'a'],
      [5, 'b'],
    ]);
  });

  it('reports one broken line with its number and reads the others', async () => {
    const text = [JSON.stringify(anthropicBody('a')), '{"model": "x", "messages": [', JSON.stringify(anthropicBody('c'))].join('\n');
    const result = await readOne('broken.jsonl', text);
    expect(result.requests.map((r) => r.line)).toEqual([1, 3]);
    // The line is 28 characters long; the missing rest starts at column 29.
    expect(result.errors).toEqual([{ file: 0, line: 2, message: 'invalid JSON: the text ends before the JSON does at column 29' }]);
  });

  it('reads good lines after a broken first line', async () => {
    const text = ['{"model": oops}', JSON.stringify(anthropicBody('b')), JSON.stringify(anthropicBody('c'))].join('\n');
    const result = await readOne('first-broken.jsonl', text);
    expect(result.requests.map((r) => r.line)).toEqual([2, 3]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ line: 1 });
    expect(result.errors[0]!.message).toMatch(/^invalid JSON: /);
  });

  it('streams a log with a broken first line instead of buffering it as one document', async () => {
    const text = ['{"model": oops}', '', JSON.stringify(anthropicBody('b')), JSON.stringify(anthropicBody('c'))].join('\n');
    // A document limit smaller than the file: only a JSONL reading can succeed.
    const result = await readOne('first-broken.jsonl', text, { limits: { maxDocumentBytes: 200 } });
    expect(result.requests.map((r) => r.line)).toEqual([3, 4]);
    expect(result.errors.map((e) => e.line)).toEqual([1]);
    expect(result.files[0]!.layout).toBe('jsonl');
  });

  it('lists at most maxErrorsPerFile errors and sums up the rest in one', async () => {
    const lines = [JSON.stringify(anthropicBody('ok')), ...Array.from({ length: 12 }, () => '{"broken": '), JSON.stringify(anthropicBody('ok'))];
    const result = await readOne('many-broken.jsonl', lines.join('\n'), { limits: { maxErrorsPerFile: 5 } });
    expect(result.requests.map((r) => r.line)).toEqual([1, 14]);
    expect(result.errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(result.errors[5]!.message).toBe('7 more unreadable records from this line on (only the first 5 errors of a file are listed)');
    expect(result.files[0]!.errors).toBe(12);
  });

  it('reports 10,000-deep nesting as a located error, not a stack overflow', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const text = [JSON.stringify(anthropicBody('a')), `{"model":"x","messages":${deep}}`, JSON.stringify(anthropicBody('c'))].join('\n');
    const result = await readOne('deep.jsonl', text);
    expect(result.requests.map((r) => r.line)).toEqual([1, 3]);
    // The outer object is level 1, so level 513 is the 512th '[': 0-based index 24 + 511 = 535, column 536.
    expect(result.errors).toEqual([{ file: 0, line: 2, message: 'JSON nested deeper than 512 levels at column 536' }]);
  });

  it('reports nesting in a whole-document file with its line', async () => {
    const deep = '{"a":'.repeat(600) + '1' + '}'.repeat(600);
    const result = await readOne('deep.json', `[\n${deep}\n]`);
    // '[' on line 1 is level 1; on line 2 the k-th '{"a":' (5 characters) opens level k + 1 at column 5(k − 1) + 1,
    // so level 513 is k = 512 at column 2556.
    expect(result.errors).toEqual([{ file: 0, line: 2, message: 'JSON nested deeper than 512 levels at line 2, column 2556' }]);
  });

  it('skips a line over the record limit without buffering it', async () => {
    const long = JSON.stringify(anthropicBody('y'.repeat(5000)));
    const text = [JSON.stringify(anthropicBody('a')), long, JSON.stringify(anthropicBody('c'))].join('\n');
    const result = await readOne('long.jsonl', text, { limits: { maxRecordBytes: 1000 } });
    expect(result.requests.map((r) => r.line)).toEqual([1, 3]);
    expect(result.errors).toEqual([{ file: 0, line: 2, message: 'line is longer than the record limit of 1,000 bytes; skipped' }]);
  });
});

describe('streaming input', () => {
  it('reads a ReadableStream cut in 7-byte chunks (lines and multi-byte characters split)', async () => {
    const text = jsonl(anthropicBody('caf\u00e9 \u{1F680} one'), anthropicBody('\u4e2d\u6587 two'));
    const data = bytes(text);
    const result = await readRequests([{ name: 'stream.jsonl', bytes: chunkedStream(data, 7), size: data.byteLength }]);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => r.segments.at(-1)!.text)).toEqual(['caf\u00e9 \u{1F680} one', '\u4e2d\u6587 two']);
  });

  it('reads a gzip stream cut in small chunks', async () => {
    const data = gzip(threeBodies);
    const result = await readRequests([{ name: 'stream.gz', bytes: chunkedStream(data, 5) }]);
    expect(result.errors).toEqual([]);
    expect(result.requests).toHaveLength(3);
  });

  it('reports progress ending at the full size and the record count', async () => {
    const data = bytes(threeBodies);
    const seen: { bytesRead: number; bytesTotal: number; records: number }[] = [];
    await readRequests([{ name: 'p.jsonl', bytes: chunkedStream(data, 50), size: data.byteLength }], {
      onProgress: (p) => seen.push({ bytesRead: p.bytesRead, bytesTotal: p.bytesTotal, records: p.records }),
    });
    expect(seen.at(-1)).toEqual({ bytesRead: data.byteLength, bytesTotal: data.byteLength, records: 3 });
    const read = seen.map((p) => p.bytesRead);
    expect([...read].sort((a, b) => a - b)).toEqual(read);
  });

  it('reports each file of a multi-file read under its own index, bytesTotal from the array length', async () => {
    const a = bytes(jsonl(anthropicBody('a')));
    const b = gzip(threeBodies);
    const last = new Map<number, { bytesRead: number; bytesTotal: number; records: number }>();
    await readRequests(
      [
        { name: 'a.jsonl', bytes: a },
        { name: 'b.jsonl.gz', bytes: b },
      ],
      { onProgress: (p) => last.set(p.file, { bytesRead: p.bytesRead, bytesTotal: p.bytesTotal, records: p.records }) },
    );
    expect(last.get(0)).toEqual({ bytesRead: a.byteLength, bytesTotal: a.byteLength, records: 1 });
    // For gzip, bytes count the compressed input.
    expect(last.get(1)).toEqual({ bytesRead: b.byteLength, bytesTotal: b.byteLength, records: 3 });
  });

  it('lets a cancel scheduled as a macrotask (a worker message) stop a long in-memory read', async () => {
    // Synthetic: 20,000 distinct small bodies, a read of well over the 50 ms between event-loop turns.
    const data = bytes(jsonl(...Array.from({ length: 20_000 }, (_, i) => anthropicBody(`request ${i}`))));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by message')), 0);
    await expect(readRequests([{ name: 'big.jsonl', bytes: data }], { signal: controller.signal })).rejects.toThrow('cancelled by message');
  });

  it('stops with the abort reason when the signal fires', async () => {
    const controller = new AbortController();
    const data = bytes(threeBodies);
    const promise = readRequests([{ name: 'a.jsonl', bytes: chunkedStream(data, 20) }], {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.bytesRead >= 40) controller.abort(new Error('user cancelled'));
      },
    });
    await expect(promise).rejects.toThrow('user cancelled');
  });
});
