// How the reader decides a file's layout (JSONL, one document, JSON array, batch body) and numbers what it finds:
// the document size limit at its edge, blank and unreadable lines inside a document, a broken first JSONL line.
// Every input is synthetic.
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/core/input/index.ts';
import { readOne } from './helpers.ts';

const REQUEST = '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}';
/** The request pretty-printed over 10 lines: 100 characters. */
const DOCUMENT = JSON.stringify(JSON.parse(REQUEST), null, 2);
const encoder = new TextEncoder();

function summary(result: ReadResult) {
  return { layout: result.files[0]?.layout, records: result.files[0]?.records, requestLines: result.requests.map((r) => r.line), errors: result.errors.map((e) => [e.line, e.message]) };
}

describe('document size limit', () => {
  it('reads a document of exactly maxDocumentBytes characters and refuses it one below', async () => {
    expect(DOCUMENT.length).toBe(100);
    expect(summary(await readOne('a.json', DOCUMENT, { limits: { maxDocumentBytes: 100 } }))).toMatchObject({ layout: 'json-document', requestLines: [1], errors: [] });
    expect(summary(await readOne('a.json', DOCUMENT, { limits: { maxDocumentBytes: 99 } }))).toEqual({
      layout: null,
      records: 0,
      requestLines: [],
      errors: [[1, 'a single JSON document larger than the limit of 99 bytes; write one request a line (JSONL) so it can be streamed']],
    });
  });

  it('counts each blank line inside the document as one character', async () => {
    // Two blank lines after the first: 102 characters.
    const spaced = DOCUMENT.replace('\n', '\n\n\n');
    expect(summary(await readOne('a.json', spaced, { limits: { maxDocumentBytes: 102 } })).errors).toEqual([]);
    expect(summary(await readOne('a.json', spaced, { limits: { maxDocumentBytes: 101 } })).errors).toEqual([
      [1, 'a single JSON document larger than the limit of 101 bytes; write one request a line (JSONL) so it can be streamed'],
    ]);
  });
});

describe('layout decisions', () => {
  it('a file of blank lines only is empty JSONL', async () => {
    expect(summary(await readOne('a.jsonl', '\n\n  \n'))).toEqual({ layout: 'jsonl', records: 0, requestLines: [], errors: [] });
  });

  it('a broken first line followed (after a blank line) by complete objects is JSONL with a bad first record', async () => {
    expect(summary(await readOne('a.jsonl', `{broken\n\n${REQUEST}\n${REQUEST}\n`))).toEqual({
      layout: 'jsonl',
      records: 3,
      requestLines: [3, 4],
      errors: [[1, 'invalid JSON: expected a double-quoted property name, found a letter at column 2']],
    });
  });

  it('a broken first line, an unreadable line and a complete object are JSONL with two bad records', async () => {
    const bytes = new Uint8Array([...encoder.encode('{broken\n'), 0xff, 0x0a, ...encoder.encode(`${REQUEST}\n`)]);
    expect(summary(await readOne('a.jsonl', bytes))).toEqual({
      layout: 'jsonl',
      records: 3,
      requestLines: [3],
      errors: [
        [1, 'invalid JSON: expected a double-quoted property name, found a letter at column 2'],
        [2, 'invalid UTF-8 at byte offset 8 (byte 1 of the line)'],
      ],
    });
  });

  it('an unreadable line inside a document breaks the document, reported once on its line', async () => {
    const bytes = new Uint8Array([...encoder.encode('{\n  "model": "gpt-4o",\n  "x": "'), 0xff, ...encoder.encode('"\n}\n')]);
    expect(summary(await readOne('a.json', bytes))).toEqual({
      layout: 'json-document',
      records: 1,
      requestLines: [],
      errors: [[3, 'invalid UTF-8 at byte offset 31 (byte 9 of the line)']],
    });
  });

  it('an unreadable line in what began as a document, with an object line after it, makes it JSONL', async () => {
    // Line 1 opens an object, line 2 is no object on its own (so no early JSONL decision), line 3 is unreadable,
    // line 4 is a request: lines 1 and 2 are bad JSONL records, line 3 unreadable (errors listed by line).
    const bytes = new Uint8Array([...encoder.encode('{"model": "gpt-4o",\n"x": 1\n'), 0xff, 0x0a, ...encoder.encode(`${REQUEST}\n`)]);
    const result = summary(await readOne('a.jsonl', bytes));
    expect(result).toMatchObject({ layout: 'jsonl', requestLines: [4] });
    expect(result.errors.map(([line]) => line)).toEqual([1, 2, 3]);
  });

  it('an unreadable line in a document with no object line leaves it one broken document', async () => {
    const bytes = new Uint8Array([...encoder.encode('{"model": "gpt-4o",\n"x": 1\n'), 0xff, 0x0a, ...encoder.encode('}\n')]);
    const result = summary(await readOne('a.json', bytes));
    expect(result).toMatchObject({ layout: 'json-document', requestLines: [] });
    expect(result.errors.map(([line]) => line)).toEqual([3]);
  });

  it('locates a syntax error in a document after leading blank lines by its file line', async () => {
    // Document lines 1–4 are file lines 3–6; the stray "}" is on file line 6.
    expect(summary(await readOne('a.json', '\n\n{\n  "model": "gpt-4o",\n  "messages": [\n}\n'))).toEqual({
      layout: 'json-document',
      records: 1,
      requestLines: [],
      errors: [[6, "invalid JSON: expected a value, found '}' at line 6, column 1"]],
    });
  });

  it('locates nesting past the limit inside a document by line and column', async () => {
    expect(summary(await readOne('a.json', `{"a":\n${'['.repeat(5)}${']'.repeat(5)}\n}\n`, { limits: { maxNestingDepth: 3 } })).errors).toEqual([
      [2, 'JSON nested deeper than 3 levels at line 2, column 3'],
    ]);
  });

  it('does not read a document nested past the limit as JSONL, even when a later line parses', async () => {
    expect(summary(await readOne('a.jsonl', `${'['.repeat(5)}${']'.repeat(5)}\n${REQUEST}\n`, { limits: { maxNestingDepth: 3 } }))).toEqual({
      layout: 'json-document',
      records: 1,
      requestLines: [],
      errors: [[1, 'JSON nested deeper than 3 levels at line 1, column 4']],
    });
  });

  it('a first line nested past the limit, followed by an object line, is a bad JSONL record', async () => {
    expect(summary(await readOne('a.jsonl', `{"a": ${'['.repeat(5)}\n${REQUEST}\n`, { limits: { maxNestingDepth: 3 } }))).toEqual({
      layout: 'jsonl',
      records: 2,
      requestLines: [2],
      errors: [[1, 'JSON nested deeper than 3 levels at column 9']],
    });
  });

  it('a batch API body on one line numbers its requests 1, 2, …', async () => {
    const params = (text: string) => ({ model: 'claude-sonnet-4-5', max_tokens: 1, messages: [{ role: 'user', content: text }] });
    const body = JSON.stringify({ requests: [{ custom_id: 'a', params: params('a') }, { custom_id: 'b', params: params('b') }] });
    expect(summary(await readOne('b.json', body))).toEqual({ layout: 'batch-body', records: 2, requestLines: [1, 2], errors: [] });
  });

  it('an object with `requests` and `messages` is a request, not a batch body', async () => {
    const body = JSON.stringify({ requests: [], model: 'gpt-4o', messages: [{ role: 'user', content: 'a' }] });
    expect(summary(await readOne('b.json', body))).toEqual({ layout: 'jsonl', records: 1, requestLines: [1], errors: [] });
  });

  it('numbers JSON array elements after leading blank lines by record, naming the file line', async () => {
    const result = await readOne('a.json', `\n[\n  ${REQUEST},\n  5\n]\n`);
    expect(summary(result)).toEqual({ layout: 'json-array', records: 2, requestLines: [1], errors: [[2, 'record 2 (line 4): record is a JSON number, not an object']] });
  });
});
