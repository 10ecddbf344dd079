// `ctxray --version` / `-V`: the package version on stdout, exit 0 — spawned and in process.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { CliIO } from '../../src/cli/io.ts';

const repo = path.resolve(__dirname, '../..');
const packageVersion = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version;

describe('ctxray --version', () => {
  it.each(['--version', '-V'])('%s prints "ctxray <package.json version>" and exits 0 (spawned)', (flag) => {
    const result = spawnSync(process.execPath, [path.join(repo, 'bin/ctxray.mjs'), flag], { encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`ctxray ${packageVersion}\n`);
    expect(result.stderr).toBe('');
  });

  it('in process, writes only to stdout', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), readStdin: () => Promise.resolve(new Uint8Array()), env: {}, cwd: repo };
    expect(await main(['-V'], io)).toBe(0);
    expect([out.join(''), err.join('')]).toEqual([`ctxray ${packageVersion}\n`, '']);
  });

  it('a misspelt flag is still an unknown command (exit 1)', async () => {
    const err: string[] = [];
    const io: CliIO = { stdout: () => undefined, stderr: (t) => err.push(t), readStdin: () => Promise.resolve(new Uint8Array()), env: {}, cwd: repo };
    expect(await main(['--versoin'], io)).toBe(1);
    expect(err.join('')).toContain('unknown command "--versoin"');
  });
});
