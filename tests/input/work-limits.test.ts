// Work limits (src/core/input/limits.ts): records, blank lines, requests, segments and distinct texts. At the
// limit a read passes; one past it stops the whole read with a WorkLimitError naming the code, the file and the
// line. The limits are lowered through ReadOptions.limits to reach them with small synthetic inputs.
import { describe, expect, it } from 'vitest';
import { readRequests, WorkLimitError, type InputFile, type InputLimits } from '../../src/core/input/index.ts';
import { bytes, chunkedStream, gzip } from './helpers.ts';

const body = (text: string) => JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: text }] });

async function limitError(files: InputFile[], limits: Partial<InputLimits>): Promise<WorkLimitError> {
  const error: unknown = await readRequests(files, { limits }).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof WorkLimitError)) throw new Error(`expected a WorkLimitError, got ${String(error)}`);
  return error;
}

describe('records per file', () => {
  const lines = ['1', '2', '3', '4', '5'].join('\n') + '\n';

  it('passes at the limit (each non-object record is a located error, not a stop)', async () => {
    const result = await readRequests([{ name: 'a.jsonl', bytes: bytes(lines) }], { limits: { maxRecords: 5 } });
    expect(result.files[0]!.records).toBe(5);
    expect(result.errors.map((e) => e.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops at the first record past it, with its code, line and file', async () => {
    const error = await limitError([{ name: 'ok.jsonl', bytes: bytes(`${body('a')}\n`) }, { name: 'b.jsonl', bytes: bytes(lines) }], { maxRecords: 4 });
    expect([error.code, error.line, error.file, error.limit]).toEqual(['LIMIT_RECORDS', 5, 1, 4]);
    expect(error.message).toBe('LIMIT_RECORDS: more than 4 records per file; reading stopped here');
  });

  it('counts per file, not over the read', async () => {
    const two = `${body('a')}\n${body('b')}\n`;
    const result = await readRequests([{ name: 'a.jsonl', bytes: bytes(two) }, { name: 'b.jsonl', bytes: bytes(two) }], { limits: { maxRecords: 2 } });
    expect(result.requests).toHaveLength(4);
  });
});

describe('blank lines per file', () => {
  // Lines 1–3 blank (one holds spaces and a tab, one a CR), line 4 a request, lines 5–6 blank, line 7 broken.
  const text = `\n  \t\n\r\n${body('a')}\n\n\n{"broken"\n`;

  it('are skipped in runs and keep the line numbers of what follows', async () => {
    const result = await readRequests([{ name: 'a.jsonl', bytes: bytes(text) }], { limits: { maxBlankLines: 5 } });
    expect(result.requests.map((r) => r.line)).toEqual([4]);
    expect(result.errors.map((e) => e.line)).toEqual([7]);
  });

  it('stop the read at the first blank line past the limit, also when runs are cut across chunks', async () => {
    for (const size of [1, 2, 3, 1024]) {
      const error = await limitError([{ name: 'a.jsonl', bytes: chunkedStream(bytes(text), size) }], { maxBlankLines: 4 });
      expect([error.code, error.line, size]).toEqual(['LIMIT_BLANK_LINES', 6, size]);
    }
    const first = await limitError([{ name: 'a.jsonl', bytes: bytes(text) }], { maxBlankLines: 2 });
    expect(first.line).toBe(3);
  });

  it('in a gzip of newlines stop after the limit, not after inflating the whole file', async () => {
    // 64 MiB of newlines; the default limit would take a million lines, this one stops at line 1,001.
    const newlines = gzip(new Uint8Array(64 * 1024 * 1024).fill(0x0a));
    const error = await limitError([{ name: 'nl.jsonl.gz', bytes: newlines }], { maxBlankLines: 1000 });
    expect([error.code, error.line]).toEqual(['LIMIT_BLANK_LINES', 1001]);
  });

  it('keep the line numbers of a pretty-printed document with blank lines inside', async () => {
    const document = `{\n\n  "model": "claude-sonnet-4-5",\n\n  "messages": [\n    {"role": "user",\n     "content": "a"}\n  ],\n  oops\n}\n`;
    const result = await readRequests([{ name: 'a.json', bytes: bytes(document) }]);
    expect(result.errors.map((e) => e.line)).toEqual([9]);
  });

  it('in UTF-16 count the same way', async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(`\n\n \n${body('a')}\n`, 'utf16le'))]);
    const error = await limitError([{ name: 'a.jsonl', bytes: utf16 }], { maxBlankLines: 2 });
    expect([error.code, error.line]).toEqual(['LIMIT_BLANK_LINES', 3]);
  });
});

describe('requests, segments and distinct texts over the read', () => {
  const file = (name: string, texts: string[]) => ({ name, bytes: bytes(texts.map(body).join('\n') + '\n') });

  it('requests: the limit spans files, and names the file and line of the first one past it', async () => {
    const files = () => [file('a.jsonl', ['a', 'b']), file('b.jsonl', ['c', 'd'])];
    expect((await readRequests(files(), { limits: { maxRequests: 4 } })).requests).toHaveLength(4);
    const error = await limitError(files(), { maxRequests: 3 });
    expect([error.code, error.file, error.line]).toEqual(['LIMIT_REQUESTS', 1, 2]);
  });

  it('segments: each request adds its segment count', async () => {
    const three = JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }] });
    const files = () => [{ name: 'a.jsonl', bytes: bytes(`${three}\n${three}\n`) }];
    const read = await readRequests(files());
    expect(read.requests.map((r) => r.segments.length)).toEqual([3, 3]);
    expect((await readRequests(files(), { limits: { maxSegments: 6 } })).requests).toHaveLength(2);
    const error = await limitError(files(), { maxSegments: 5 });
    expect([error.code, error.line]).toEqual(['LIMIT_SEGMENTS', 2]);
  });

  it('segments built anew: a resent history costs nothing, a reshuffled one counts every block (synthetic)', async () => {
    const request = (order: string[]) => JSON.stringify({ model: 'claude-sonnet-4-5', messages: order.map((text, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: text })) });
    const blocks = ['a', 'b', 'c', 'd'];
    const resent = () => [{ name: 'a.jsonl', bytes: bytes(`${request(blocks)}\n${request(blocks)}\n${request(blocks)}\n`) }];
    const shuffled = () => [{ name: 'b.jsonl', bytes: bytes(`${request(blocks)}\n${request(['b', 'c', 'd', 'a'])}\n${request(['c', 'd', 'a', 'b'])}\n`) }];
    // The same four blocks resent: 4 built; rotated each time: 12 built, the third request past a limit of 8.
    expect((await readRequests(resent(), { limits: { maxBuiltSegments: 4 } })).requests).toHaveLength(3);
    expect((await readRequests(shuffled(), { limits: { maxBuiltSegments: 12 } })).requests).toHaveLength(3);
    const error = await limitError(shuffled(), { maxBuiltSegments: 8 });
    expect([error.code, error.line, error.limit]).toEqual(['LIMIT_SEGMENTS', 3, 8]);
    expect(error.message).toContain('segments built anew');
  });

  it('distinct texts: a resent text costs nothing, a new one counts', async () => {
    const files = () => [file('a.jsonl', ['same', 'same', 'new'])];
    const counts: number[] = [];
    for (let n = 1; n <= 3; n++) counts.push((await readRequests([file('a.jsonl', ['same', 'same', 'new'].slice(0, n))])).distinctTexts);
    // The second request adds no text; the third adds some.
    expect(counts[1]).toBe(counts[0]);
    expect(counts[2]!).toBeGreaterThan(counts[1]!);
    expect((await readRequests(files(), { limits: { maxDistinctTexts: counts[2]! } })).requests).toHaveLength(3);
    const error = await limitError(files(), { maxDistinctTexts: counts[1]! });
    expect([error.code, error.line]).toEqual(['LIMIT_TEXTS', 3]);
  });

  it('requests rebuilt from a transcript are counted as they are made', async () => {
    const base = { sessionId: 's1', isSidechain: false, version: '2.1.0', parentUuid: null, uuid: 'u' };
    const usage = { input_tokens: 3, output_tokens: 1 };
    const lines: unknown[] = [];
    for (let turn = 0; turn < 3; turn++) {
      lines.push({ ...base, type: 'user', timestamp: `2026-01-01T00:00:0${2 * turn}.000Z`, message: { role: 'user', content: `question ${turn}` } });
      lines.push({ ...base, type: 'assistant', timestamp: `2026-01-01T00:00:0${2 * turn + 1}.000Z`, message: { id: `m${turn}`, model: 'claude-opus-4-6', role: 'assistant', content: [{ type: 'text', text: `answer ${turn}` }], usage } });
    }
    const files = () => [{ name: 'session.jsonl', bytes: bytes(lines.map((l) => JSON.stringify(l)).join('\n') + '\n') }];
    const read = await readRequests(files());
    expect(read.files[0]!.format).toBe('claude-code');
    expect(read.requests).toHaveLength(3);
    const error = await limitError(files(), { maxRequests: 2 });
    // The third request is rebuilt at its response, line 6.
    expect([error.code, error.file, error.line]).toEqual(['LIMIT_REQUESTS', 0, 6]);
  });
});
