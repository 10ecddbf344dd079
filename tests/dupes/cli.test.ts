// `ctxray dupes`: arguments, stdin, --out, --markdown, and the exit-code contract from a spawned process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dupesCommand } from '../../src/cli/commands/dupes.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { assertSchemaValid } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/ctxray.mjs');
const SEED = '{"suite":"v1","blocks":[{"text":"you are a helpful assistant"},{"text":"you are a helpful assistant"},{"text":"what is the capital of France?"}]}';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ctxray-dupes-'));
  writeFileSync(path.join(dir, 'seed.json'), SEED);
  writeFileSync(path.join(dir, 'pass.json'), '{"suite":"v1","blocks":[{"text":"a"},{"text":"b"}]}');
  writeFileSync(path.join(dir, 'bad.json'), '{"suite":"v1","blocks":[{"text":1}]}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    readStdin: async () => new TextEncoder().encode(stdin),
    env: {},
    cwd: dir,
  };
  const code = await dupesCommand(argv, io);
  return { code, out, err };
}

describe('ctxray dupes (in process)', () => {
  it('prints the JSON record and exits by verdict', async () => {
    const fail = await run(['seed.json']);
    expect(fail.code).toBe(1);
    const record = JSON.parse(fail.out) as { result: string; totals: { wastedBytes: number; wastedTokens: number } };
    assertSchemaValid(record);
    expect([record.result, record.totals.wastedBytes, record.totals.wastedTokens]).toEqual(['fail', 27, 5]);
    expect((await run(['pass.json'])).code).toBe(0);
    expect((await run(['bad.json'])).code).toBe(2);
  });

  it('reads standard input for -', async () => {
    const { code, out } = await run(['-'], SEED);
    expect(code).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ result: 'fail' });
  });

  it('writes --markdown to --out and nothing to stdout', async () => {
    const { code, out } = await run(['seed.json', '--markdown', '--out', 'report.md']);
    expect([code, out]).toEqual([1, '']);
    expect(readFileSync(path.join(dir, 'report.md'), 'utf8')).toContain('**Result: FAIL**');
    expect((await run(['pass.json', '--out=pass-report.json'])).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'pass-report.json'), 'utf8'))).toMatchObject({ result: 'pass' });
  });

  it('reports a missing file as an unknown record with exit 2', async () => {
    const { code, out, err } = await run(['does-not-exist.json']);
    expect(code).toBe(2);
    expect(JSON.parse(out)).toMatchObject({ result: 'unknown', reason: 'INPUT_UNREADABLE' });
    expect(err).toContain('ENOENT');
  });

  it.each([[[]], [['a.json', 'b.json']], [['--out']], [['seed.json', '--verbose']]])('refuses arguments %j with exit 2', async (argv) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('usage: ctxray dupes');
  });

  it('prints help with exit 0', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('exit codes: 0 pass');
  });
});

describe('ctxray dupes (spawned)', () => {
  const spawn = (args: string[], input?: string) =>
    spawnSync(process.execPath, [BIN, 'dupes', ...args], { cwd: dir, input, encoding: 'utf8', timeout: 60_000 });

  it('exits 1 on the seed example, 0 on a pass, 2 on a refusal and on bad arguments', () => {
    const fail = spawn(['seed.json']);
    expect(fail.status).toBe(1);
    expect(JSON.parse(fail.stdout)).toMatchObject({ result: 'fail', totals: { duplicateBlocks: 1, wastedBytes: 27, wastedTokens: 5 } });
    expect(spawn(['pass.json']).status).toBe(0);
    expect(spawn(['bad.json']).status).toBe(2);
    expect(spawn(['--no-such-option']).status).toBe(2);
  });

  it('reads stdin and writes markdown', () => {
    const result = spawn(['-', '--markdown'], SEED);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('| 2 | 1 | 27 | 5 | 27 | 5 | 0, 1 |');
    expect(result.stdout).not.toContain('helpful');
  });
});
