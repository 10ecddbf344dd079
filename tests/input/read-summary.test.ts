// What readRequests sums per file when several files are read together: listed and counted errors per file (the
// per-file error limit counts each file's own), batch results matched across files, mixed formats. Synthetic data.
import { describe, expect, it } from 'vitest';
import { anthropicBody, chatBody, jsonl, readOne, readText, responsesBody } from './helpers.ts';

const succeeded = (customId: string, input: number) => ({ custom_id: customId, result: { type: 'succeeded', message: { usage: { input_tokens: input, output_tokens: 1 } } } });

describe('errors per file', () => {
  it('applies the per-file error limit to each file’s own errors', async () => {
    const broken = `${JSON.stringify(chatBody('a'))}\n{"broken": \n{"broken": \n{"broken": \n`;
    const result = await readText({ 'a.jsonl': broken, 'b.jsonl': broken }, { limits: { maxErrorsPerFile: 3 } });
    // Three errors each: within the limit of 3 per file, all six listed, none summed up.
    expect(result.errors.map((e) => [e.file, e.line])).toEqual([
      [0, 2],
      [0, 3],
      [0, 4],
      [1, 2],
      [1, 3],
      [1, 4],
    ]);
    expect(result.files.map((f) => f.errors)).toEqual([3, 3]);
  });

  it('counts the errors past the limit of a second file in that file', async () => {
    const ok = JSON.stringify(chatBody('a'));
    const result = await readText({ 'a.jsonl': `${ok}\n`, 'b.jsonl': `${ok}\n{"broken": \n{"broken": \n{"broken": \n` }, { limits: { maxErrorsPerFile: 2 } });
    expect(result.errors.map((e) => [e.file, e.line])).toEqual([
      [1, 2],
      [1, 3],
      [1, 4],
    ]);
    expect(result.errors[2]?.message).toBe('1 more unreadable records from this line on (only the first 2 errors of a file are listed)');
    expect(result.files.map((f) => f.errors)).toEqual([0, 3]);
  });
});

describe('batch results across files', () => {
  it('reports one unmatched result in the singular and counts it as an error of its file', async () => {
    const result = await readText({ 'input.jsonl': jsonl({ custom_id: 'x', params: anthropicBody('a') }), 'results.jsonl': jsonl(succeeded('nope', 5)) });
    expect(result.errors).toEqual([{ file: 1, line: 1, message: '1 batch result with a custom_id that no request in the input files has (give the batch input file too)' }]);
    expect(result.files.map((f) => f.errors)).toEqual([0, 1]);
    expect(result.requests[0]?.recorded).toBeNull();
  });

  it('gives a result to every input request with its custom_id (the same batch input read twice)', async () => {
    const input = jsonl({ custom_id: 'x', params: anthropicBody('a') });
    const result = await readText({ 'input-1.jsonl': input, 'input-2.jsonl': input, 'results.jsonl': jsonl(succeeded('x', 12)) });
    expect(result.requests.map((r) => [r.file, r.recorded?.input])).toEqual([
      [0, 12],
      [1, 12],
    ]);
  });

  it('keeps the first of two results for one custom_id', async () => {
    const result = await readText({ 'input.jsonl': jsonl({ custom_id: 'x', params: anthropicBody('a') }), 'results.jsonl': jsonl(succeeded('x', 12), succeeded('x', 99)) });
    expect(result.requests[0]?.recorded?.input).toBe(12);
  });

  it('never attaches a result to a request without a custom_id', async () => {
    const result = await readText({ 'input.jsonl': jsonl(anthropicBody('a')), 'results.jsonl': jsonl(succeeded('x', 12)) });
    expect(result.requests[0]?.recorded).toBeNull();
    expect(result.errors.map((e) => e.file)).toEqual([1]);
  });
});

describe('file summaries', () => {
  it('names a file holding two wire formats "mixed" and one format by its id', async () => {
    // An OpenAI batch input whose lines go to two endpoints: each line's URL gives its body's format.
    const batch = jsonl(
      { custom_id: 'c1', method: 'POST', url: '/v1/chat/completions', body: chatBody('a') },
      { custom_id: 'r1', method: 'POST', url: '/v1/responses', body: responsesBody('b') },
    );
    const result = await readText({ 'batch.jsonl': batch, 'chat.jsonl': jsonl(chatBody('c')) });
    expect(result.files.map((f) => [f.format, f.envelope, f.requests])).toEqual([
      ['mixed', 'openai-batch', 2],
      ['openai-chat', 'none', 1],
    ]);
  });

  it('a file with no request has no format', async () => {
    expect((await readOne('empty.jsonl', '\n')).files[0]).toMatchObject({ format: null, envelope: 'none', requests: 0, records: 0 });
  });
});
