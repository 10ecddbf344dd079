// A folder whose files give no request: the refusal says what stopped each file's records, file and line, in the
// summary pass and in --deep (it said only "no request found"). Inputs are synthetic.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeInProcess } from './analyze-in-process.ts';

describe('a folder that gives no request', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-no-request-'));
    fs.mkdirSync(path.join(dir, 'project'));
    fs.writeFileSync(path.join(dir, 'project', 'synthetic-words.jsonl'), '\nhello world\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const mode of [[], ['--deep']]) {
    it(`names the file, line and reason, exit 1 (${mode.length === 0 ? 'summary pass' : '--deep'})`, async () => {
      const result = await analyzeInProcess([dir, ...mode], {});
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      const file = path.join(dir, 'project', 'synthetic-words.jsonl');
      expect(result.stderr).toContain(`ctxray analyze: unreadable input:\n  ${file}:2: not JSON, JSONL or YAML: the first non-blank line starts with a letter\n`);
      expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('ctxray analyze: no request found in the folder input');
    });
  }
});
