// The work limits through the CLI: a read that reaches one makes `analyze` exit 1 and `dupes` exit 2 with the
// code and the line where it stopped, no stack trace and no path; the --max-* flags raise a limit, never lower
// it. The input is synthetic: 1,000,001 newlines (one past the default blank-line limit), then one request.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../fuzz/corpus.ts';
import { applyWorkLimitFlag } from '../../src/cli/work-limits.ts';
import { DEFAULT_LIMITS, type InputLimits } from '../../src/core/input/index.ts';

const BIN = path.join(REPO_ROOT, 'bin/ctxray.mjs');
const REQUEST = JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'synthetic' }] });

describe('work limits in the CLI', () => {
  let dir = '';
  const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-work-limits-'));
    fs.writeFileSync(path.join(dir, 'blank.jsonl'), '\n'.repeat(1_000_001) + REQUEST + '\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('analyze exits 1 with LIMIT_BLANK_LINES and the line where it stopped', () => {
    const result = run(['analyze', 'blank.jsonl']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'ctxray analyze: LIMIT_BLANK_LINES at blank.jsonl, line 1000001: more than 1,000,000 blank lines per file; ' +
        'reading stopped here (raise it with --max-blank-lines)\n',
    );
    expect(result.stdout).toBe('');
  });

  it('dupes exits 2 with the code, the limit and the line in the record', () => {
    const result = run(['dupes', 'blank.jsonl']);
    expect(result.status).toBe(2);
    const record = JSON.parse(result.stdout) as { result: string; reason: string; detail: unknown };
    expect([record.result, record.reason, record.detail]).toEqual(['unknown', 'LIMIT_BLANK_LINES', { limit: 1_000_000, line: 1_000_001 }]);
    expect(result.stderr).not.toMatch(/ at |\/tmp|ctxray-work-limits/);
  });

  it('--max-blank-lines raises the limit for both commands', () => {
    expect(run(['analyze', '--max-blank-lines', '2000000', 'blank.jsonl']).status).toBe(0);
    const dupes = run(['dupes', '--max-blank-lines=2,000,000', 'blank.jsonl']);
    expect((JSON.parse(dupes.stdout) as { result: string }).result).toBe('pass');
  });

  it('refuses a value below the default or not a whole number', () => {
    const lower = run(['analyze', '--max-records', '10', 'blank.jsonl']);
    expect([lower.status, lower.stderr.split('\n')[0]]).toEqual([1, 'ctxray analyze: --max-records can only raise the limit of 1,000,000']);
    const word = run(['dupes', '--max-requests', 'many', 'blank.jsonl']);
    expect([word.status, word.stderr.split('\n')[0]]).toEqual([2, 'ctxray dupes: --max-requests needs a whole number']);
  });

  it('--max-segments raises the segments built anew with it (an eighth), never below their default', () => {
    const raised: Partial<InputLimits> = {};
    expect(applyWorkLimitFlag('--max-segments', '16,000,000', raised)).toEqual({ error: null });
    expect(raised).toEqual({ maxSegments: 16_000_000, maxBuiltSegments: 2_000_000 });
    const barely: Partial<InputLimits> = {};
    applyWorkLimitFlag('--max-segments', '8000001', barely);
    expect(barely.maxBuiltSegments).toBe(DEFAULT_LIMITS.maxBuiltSegments);
  });
});
