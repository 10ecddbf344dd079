import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io.ts';
import { qualifyCommand } from '../../src/cli/commands/qualify.ts';
import { checkQualification } from '../../src/core/clearing/qualification-record.ts';
import { expectedQualification } from '../../src/node/qualification.ts';

const ROOT = path.resolve(__dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'ctxray-qualify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function captureIO(): CliIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t), readStdin: async () => new Uint8Array(), env: {}, cwd: dir };
}

describe('ctxray qualify (in process)', () => {
  it('writes a record to a new --out file that checkQualification accepts, exit 0', async () => {
    const io = captureIO();
    expect(await qualifyCommand(['--out', 'qualification.json'], io)).toBe(0);
    const record = JSON.parse(readFileSync(path.join(dir, 'qualification.json'), 'utf8')) as unknown;
    const check = checkQualification(record, await expectedQualification());
    expect(check.ok).toBe(true);
    const summary = io.out.join('');
    expect(summary).toContain('openai-codex-responses   qualified');
    expect(summary).toContain('pi-ai 0.73.1');
    // The human summary names the version, never the digest.
    expect(summary).not.toContain((record as { sourceDigest: string }).sourceDigest);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('refuses an existing --out file and leaves it untouched, exit 1', async () => {
    writeFileSync(path.join(dir, 'taken.json'), 'SYNTHETIC keep me');
    const io = captureIO();
    expect(await qualifyCommand(['--out=taken.json'], io)).toBe(1);
    expect(io.err.join('')).toContain('OUTPUT_EXISTS');
    expect(readFileSync(path.join(dir, 'taken.json'), 'utf8')).toBe('SYNTHETIC keep me');
  });

  it('refuses to write over one of its own source inputs, exit 1', async () => {
    const io = captureIO();
    expect(await qualifyCommand(['--out', path.join(ROOT, 'src/cli/qualify/diff.ts')], io)).toBe(1);
    expect(io.err.join('')).toContain('OUTPUT_IS_INPUT');
  });

  it('prints help with exit 0', async () => {
    const io = captureIO();
    expect(await qualifyCommand(['--help'], io)).toBe(0);
    expect(io.out.join('')).toMatch(/^usage: ctxray qualify \[--out <file>\]/);
  });

  it('rejects unknown arguments and a missing --out value, exit 1', async () => {
    const io = captureIO();
    expect(await qualifyCommand(['--nope'], io)).toBe(1);
    expect(await qualifyCommand(['--out'], io)).toBe(1);
    expect(await qualifyCommand(['--out', 'a', '--out', 'b'], io)).toBe(1);
    expect(io.err.join('')).toMatch(/unknown argument "--nope"[\s\S]*--out needs a file name[\s\S]*--out given twice/);
  });
});

describe('ctxray qualify (spawned)', () => {
  it('prints the record on stdout and exits 0', () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'qualify'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(0);
    const record = JSON.parse(run.stdout) as { apis: { result: string }[]; networkCalls: number };
    expect(record.networkCalls).toBe(0);
    expect(record.apis.map((a) => a.result)).toEqual(['qualified', 'qualified', 'qualified', 'qualified']);
  });

  it('exits 1 on a bad argument', () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'qualify', '--bogus'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
  });
});
