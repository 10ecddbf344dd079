// Lines a batch at a time (rawTextLineBatches, the folder summary's reader): the same lines, numbers, blank runs and
// errors as textLines gives one at a time, batches of at most 512 lines, and the lines before a failure handed on
// before it is thrown. All data here is SYNTHETIC.
import { describe, expect, it } from 'vitest';
import { WorkLimitError } from '../../src/core/input/errors.ts';
import { decodeRawLine, rawTextLineBatches, textLines, type LineItem, type TextLine } from '../../src/core/input/lines.ts';
import { bytes } from './helpers.ts';

const options = { maxRecordBytes: 64, maxBlankLines: 1000 };

async function* chunksOf(data: Uint8Array, size: number, failAfter = Infinity): AsyncGenerator<Uint8Array> {
  for (let at = 0, n = 0; at < data.byteLength; at += size, n++) {
    if (n === failAfter) throw new Error('the stream broke');
    yield data.slice(at, at + size);
  }
}

const decoded = (item: LineItem): TextLine => ('bytes' in item ? decodeRawLine(item) : item);

async function batchesOf(chunks: AsyncIterable<Uint8Array>, opts = options) {
  const batches: LineItem[][] = [];
  let failure: unknown = null;
  try {
    for await (const batch of rawTextLineBatches(chunks, opts)) batches.push(batch);
  } catch (error) {
    failure = error;
  }
  return { batches, lines: batches.flat().map(decoded), failure };
}

async function oneByOne(chunks: AsyncIterable<Uint8Array>, opts = options) {
  const lines: TextLine[] = [];
  let failure: unknown = null;
  try {
    for await (const line of textLines(chunks, opts)) lines.push(line);
  } catch (error) {
    failure = error;
  }
  return { lines, failure };
}

describe('lines a batch at a time', () => {
  // 1,300 short lines, blank runs, an over-long line, invalid UTF-8, CRLF and a last line without a newline.
  const text = [...Array.from({ length: 1300 }, (_, i) => `{"n":${i}}`), '', ' \t', 'x'.repeat(100), '{"é":1}\r', '{"last":true}'].join('\n');
  const data = bytes(text);
  // 1,300 lines of 8 to 11 bytes (13,190), the blank run (4) and the long line (101): the é's first byte at 13,297.
  data[data.indexOf(0xc3)] = 0xff;

  it.each([1, 7, 4096, data.byteLength])('in chunks of %i bytes: what textLines gives, in batches of at most 512 lines', async (size) => {
    const { batches, lines, failure } = await batchesOf(chunksOf(data, size));
    expect(failure).toBeNull();
    expect(lines).toEqual((await oneByOne(chunksOf(data, size))).lines);
    expect(Math.max(...batches.map((batch) => batch.length))).toBeLessThanOrEqual(512);
    // A blank run cut across chunks comes in pieces (a blank line cut inside, as its text), as textLines gives it.
    const blank = (line: TextLine) => 'blank' in line || ('text' in line && line.text.trim() === '');
    expect(lines.filter(blank).map((line) => line.line)[0]).toBe(1301);
    expect(lines.filter((line) => !blank(line)).slice(1300)).toEqual([
      { line: 1303, error: 'line is longer than the record limit of 64 bytes; skipped' },
      { line: 1304, error: 'invalid UTF-8 at byte offset 13297 (byte 3 of the line)' },
      { line: 1305, text: '{"last":true}' },
    ]);
  });

  it('a limit reached after 700 lines: the 700 lines first, then the limit', async () => {
    const limited = bytes(`${Array.from({ length: 700 }, (_, i) => `{"n":${i}}`).join('\n')}\n\n\n\n{"n":700}\n`);
    const { lines, failure } = await batchesOf(chunksOf(limited, limited.byteLength), { ...options, maxBlankLines: 2 });
    expect(lines).toHaveLength(700);
    expect(lines[699]).toEqual({ line: 700, text: '{"n":699}' });
    expect(failure).toBeInstanceOf(WorkLimitError);
    expect([(failure as WorkLimitError).code, (failure as WorkLimitError).line]).toEqual(['LIMIT_BLANK_LINES', 703]);
  });

  it('a stream that breaks: every line before the break first, then its error', async () => {
    const many = bytes(`${Array.from({ length: 2000 }, (_, i) => `{"n":${i}}`).join('\n')}\n`);
    const { lines, failure } = await batchesOf(chunksOf(many, 4096, 2));
    expect(lines).toEqual((await oneByOne(chunksOf(many, 4096, 2))).lines);
    expect(lines.length).toBeGreaterThan(600);
    expect((failure as Error).message).toBe('the stream broke');
  });
});
