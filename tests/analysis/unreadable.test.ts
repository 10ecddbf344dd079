// Which inputs are unreadable (src/core/analysis/unreadable.ts): the files behind `analyze`'s exit 1, each with its
// own errors, located by line unless the line holds a record number; files that hold no requests by design pass.
import { describe, expect, it } from 'vitest';
import type { Analysis, AnalysisFile } from '../../src/core/analysis/types.ts';
import type { ReadError } from '../../src/core/model.ts';
import { holdsNoRequestsByDesign, unreadableFiles } from '../../src/core/analysis/unreadable.ts';

function file(name: string, requests: number, overrides: Partial<AnalysisFile> = {}): AnalysisFile {
  return { name, format: 'anthropic-messages', envelope: 'none', layout: 'jsonl', records: 1, requests, errors: 0, totals: {} as AnalysisFile['totals'], ...overrides };
}

const analysisOf = (files: AnalysisFile[], errors: ReadError[]) => ({ files, errors }) as unknown as Analysis;

describe('unreadableFiles', () => {
  it('names a file without requests and without errors as holding no request bodies', () => {
    expect(unreadableFiles(analysisOf([file('a.jsonl', 0)], []))).toEqual(['a.jsonl: no request bodies found']);
  });

  it('lists each error of an unreadable file with its line, and nothing for a file that has requests', () => {
    const errors: ReadError[] = [
      { file: 1, line: 3, message: 'not JSON' },
      { file: 1, line: 0, message: 'empty file' },
      { file: 0, line: 2, message: 'ignored: file 0 has requests' },
      { file: 1, line: 7, message: 'record 7 is not an object', recordNumber: 7 },
    ];
    expect(unreadableFiles(analysisOf([file('good.jsonl', 2), file('bad.json', 0)], errors))).toEqual([
      'bad.json:3: not JSON',
      'bad.json: empty file',
      'bad.json: record 7 is not an object',
    ]);
  });

  it('leaves out files the caller excludes', () => {
    const analysis = analysisOf([file('a.jsonl', 0), file('b.jsonl', 0)], []);
    expect(unreadableFiles(analysis, (index) => index === 1)).toEqual(['b.jsonl: no request bodies found']);
  });

  it('passes a batch output file or a Cline task part without requests, unless it has errors', () => {
    const batch = file('out.jsonl', 0, { envelope: 'openai-batch-output' });
    const results = file('results.jsonl', 0, { envelope: 'anthropic-batch-results' });
    const task = file('task_metadata.json', 0, { format: 'cline-task' });
    expect(unreadableFiles(analysisOf([batch, results, task], []))).toEqual([]);
    expect(unreadableFiles(analysisOf([batch], [{ file: 0, line: 4, message: 'not JSON' }]))).toEqual(['out.jsonl:4: not JSON']);
  });
});

describe('holdsNoRequestsByDesign', () => {
  it.each([
    [{ envelope: 'anthropic-batch-results', format: null }, true],
    [{ envelope: 'openai-batch-output', format: null }, true],
    [{ envelope: 'none', format: 'cline-task' }, true],
    [{ envelope: 'openai-batch-input', format: 'openai-chat' }, false],
    [{ envelope: 'none', format: 'anthropic-messages' }, false],
  ])('%j → %s', (shape, expected) => {
    expect(holdsNoRequestsByDesign(shape)).toBe(expected);
  });
});
