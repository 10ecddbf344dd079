// JSON arrays number their records, not their lines: `line` of a read error stays the record number (the
// contract), and the message says "record N (line L)" so nobody reads N as a line. Synthetic inputs only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { arrayElementLines } from '../../src/core/input/records.ts';
import { readOne } from './helpers.ts';

// Element 1 on line 2, element 2 (a number) on line 4, element 3 (no request fields) starts on line 5.
const ARRAY = ['[', '  {"model":"gpt-4o","messages":[{"role":"user","content":"a,[b]\\"c\\n"}]},', '', '  5,', '  {', '    "foo": 1', '  }', ']'].join('\n');

describe('errors in a JSON array', () => {
  it('keep the record number in line and name record and real line in the message', async () => {
    const result = await readOne('array.json', ARRAY);
    expect(result.files[0]).toMatchObject({ layout: 'json-array' });
    expect(result.requests.map((r) => r.line)).toEqual([1]);
    expect(result.errors).toEqual([
      { file: 0, line: 2, recordNumber: 2, message: 'record 2 (line 4): record is a JSON number, not an object' },
      {
        file: 0,
        line: 3,
        recordNumber: 3,
        message: 'record 3 (line 5): not a request body: no `messages` (Anthropic Messages, Chat Completions) or `input`/`instructions` (Responses); it looks like an object {foo}; formats tried: anthropic-messages, openai-chat, openai-responses, har, vcr-cassette, nock, otel-spans, litellm-log, langfuse-observations, codex-rollout, cline-task, pi-session, gemini-cli, claude-code, opencode-storage',
      },
    ]);
  });

  it('a leading blank line shifts the element lines', async () => {
    const result = await readOne('array.json', `\n\n${ARRAY}`);
    expect(result.errors.map((e) => e.message.slice(0, 18))).toEqual(['record 2 (line 6):', 'record 3 (line 7):']);
  });

  it('JSONL errors are unchanged: line is a line, no record number', async () => {
    const result = await readOne('log.jsonl', '{"model":"gpt-4o","messages":[]}\n5\n');
    expect(result.errors).toEqual([{ file: 0, line: 2, message: 'record is a JSON number, not an object' }]);
  });
});

describe('arrayElementLines', () => {
  it('finds where each top-level element starts, skipping strings, nested arrays and objects', () => {
    expect(arrayElementLines(ARRAY, 1)).toEqual([2, 4, 5]);
    expect(arrayElementLines('[1,2,\n3]', 10)).toEqual([10, 10, 11]);
    expect(arrayElementLines('[ ]', 1)).toEqual([]);
    expect(arrayElementLines('["a\\"],[", {"x":[1,\n2]},\n"z"]', 1)).toEqual([1, 1, 3]);
  });
});

describe('ctxray analyze on a JSON array with bad elements', () => {
  it('prints "record N (line L)" without a misleading file:N prefix', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-array-'));
    try {
      fs.writeFileSync(path.join(dir, 'array.json'), ARRAY);
      const bin = path.resolve(__dirname, '../../bin/ctxray.mjs');
      const result = spawnSync(process.execPath, [bin, 'analyze', 'array.json', '-v'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('  array.json: record 2 (line 4): record is a JSON number, not an object\n');
      expect(result.stdout).not.toContain('array.json:2:');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
