// `npm run fuzz` itself (scripts/fuzz.ts), spawned: counts per target, a failure with its replay line, a hang
// killed by the watchdog, and the exit status of each outcome.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.ts';

function fuzz(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/fuzz.ts'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('scripts/fuzz.ts', () => {
  it('runs the real targets, prints per-target counts and exits 0 when nothing fails', () => {
    const run = fuzz(['--runs', '60', '--seed', '3', '--target', 'ui:share-fragment']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^ok {4}ui:share-fragment +60 inputs/m);
    expect(run.stdout).toMatch(/fuzz: 60 inputs in [\d.]+ s, 0 failures/);
  });

  it('--target matches a whole name only', () => {
    const run = fuzz(['--runs', '10', '--seed', '3', '--target', 'ui:']);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('fuzz: no target is named "ui:" (--target takes a whole name)');
  });

  it('reports a failing target with its shrunk counterexample and replay line, and a hang, then exits 1', () => {
    const run = fuzz(['--targets', 'tests/fuzz/selftest-targets.ts', '--runs', '40', '--seed', '1', '--hang', '1500']);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}synthetic:fails-above-ten/m);
    expect(run.stdout).toContain('synthetic violation');
    expect(run.stdout).toContain('counterexample: 11');
    expect(run.stdout).toMatch(/replay: npm run fuzz -- --target synthetic:fails-above-ten --seed 1 --path \S+/);
    expect(run.stdout).toMatch(/^HANG {2}synthetic:endless-loop: no progress for 1\.5 s/m);
    expect(run.stdout).toMatch(/2 failures$/m);
  });

  it('refuses bad arguments with exit 2', () => {
    expect(fuzz(['--runs', 'many']).status).toBe(2);
    expect(fuzz(['--bogus', '1']).status).toBe(2);
  });
});
