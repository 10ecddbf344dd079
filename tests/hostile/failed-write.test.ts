// A failed write leaves no half-written report: each output is written under a file-size limit too small for
// it (`ulimit -f`, so the write itself fails with EFBIG midway), and afterwards neither the report nor a temp
// file exists, an existing file given with --force keeps its old bytes, and the command says what happened.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../fuzz/corpus.ts';

const BIN = path.join(REPO_ROOT, 'bin/ctxray.mjs');
const EXAMPLE = path.join(REPO_ROOT, 'examples/synthetic-openai-responses-session.jsonl');
const hasUlimit = spawnSync('sh', ['-c', 'ulimit -f 4'], { encoding: 'utf8' }).status === 0;

let dir = '';
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-failed-write-'));
  fs.copyFileSync(EXAMPLE, path.join(dir, 'log.jsonl'));
  fs.writeFileSync(path.join(dir, 'existing.json'), 'EXISTING BYTES\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with every file it writes capped at 512 bytes (ulimit -f 1); every report needs more than that. */
function limited(args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync('sh', ['-c', 'ulimit -f 1; exec "$@"', 'sh', process.execPath, BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 240_000 });
  return { status: result.status, stderr: result.stderr };
}

describe.skipIf(!hasUlimit)('a write that fails midway leaves nothing half-written (synthetic example input)', () => {
  it.each([
    [['analyze', 'log.jsonl', '--json', 'out.json'], 'out.json', /could not write the --json file \(EFBIG\); nothing was created/],
    [['analyze', 'log.jsonl', '--json', '-', '--html', 'out.html'], 'out.html', /could not write the --html file \(EFBIG\); nothing was created/],
    [['dupes', 'log.jsonl', '--out', 'dupes.json'], 'dupes.json', /could not write the --out file \(EFBIG\); nothing was created/],
    [['qualify', '--out', 'qualification.json'], 'qualification.json', /could not write the --out file \(EFBIG\); nothing was created/],
    [['clearing', '--journals', 'none', '--sidecar', 'none.sqlite', '--routes', 'none.json', '--qualification', 'none.json', '--out', 'clearing.json'], 'clearing.json', /could not write the --out file \(EFBIG\)/],
  ])('ctxray %j', (args, output, message) => {
    const before = fs.readdirSync(dir).sort();
    const run = limited(args);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(fs.existsSync(path.join(dir, output))).toBe(false);
    // No temp file or partial report is left beside it either.
    expect(fs.readdirSync(dir).sort()).toEqual(before);
  });

  it('--force over an existing file: the old bytes stay when the new report cannot be written', () => {
    const run = limited(['analyze', 'log.jsonl', '--json', 'existing.json', '--force']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/could not replace the --json file \(EFBIG.*\); it was left as it was/);
    expect(fs.readFileSync(path.join(dir, 'existing.json'), 'utf8')).toBe('EXISTING BYTES\n');
    expect(fs.readdirSync(dir).sort()).toEqual(['existing.json', 'log.jsonl']);
  });

  it('control: without the limit the same report is written', () => {
    execFileSync(process.execPath, [BIN, 'analyze', 'log.jsonl', '--json', 'written.json'], { cwd: dir });
    expect(fs.statSync(path.join(dir, 'written.json')).size).toBeGreaterThan(512);
    fs.rmSync(path.join(dir, 'written.json'));
  });
});
