// `ctxray analyze <folder>` at both speeds, spawned on a folder of real sessions (../shared/fixtures/real, copied
// into a temp folder laid out like ~/.claude/projects): the full analyses on two worker threads write the record a
// serial run writes, byte for byte, and stop at the same work limit with the same message; the default summary
// (recorded usage alone) totals what the full record's sessions[] total, and on two workers prints what it prints
// in the main thread.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/core/text/format.ts';
import { buildRealSessionFolder } from '../conformance/real-session-folder.ts';

const repo = path.resolve(__dirname, '../..');
const bin = path.join(repo, 'bin/ctxray.mjs');
const real = path.resolve(repo, '../shared/fixtures/real/transcripts');
const present = fs.existsSync(path.join(real, 'claude-code'));
const suite = present ? describe : describe.skip;
const COPIED = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl';
const title = present ? 'analyze <folder> --jobs (real sessions)' : `analyze <folder> --jobs: SKIPPED, ${real} is absent`;

suite(title, () => {
  let dir = '';
  const run = (...args: string[]) => spawnSync(process.execPath, [bin, 'analyze', 'projects', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 240_000 });
  beforeAll(() => {
    dir = buildRealSessionFolder(real, { nested: true, agents: ['codex', 'gemini-cli', 'pi'] });
    // A session whose 20 calls carry message and request ids: the copied-session test copies it into -real-c.
    fs.copyFileSync(path.join(real, 'claude-code', COPIED), path.join(dir, 'projects', '-real-a', COPIED));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the serial record byte for byte with --jobs 2, and the summary totals its sessions', { timeout: 480_000 }, () => {
    const serial = run('--jobs', '1', '--json', 'serial.json');
    expect(serial.status, serial.stderr).toBe(0);
    const parallel = run('--jobs', '2', '--json', 'parallel.json');
    expect(parallel.status, parallel.stderr).toBe(0);
    const bytes = fs.readFileSync(path.join(dir, 'serial.json'), 'utf8');
    expect(fs.readFileSync(path.join(dir, 'parallel.json'), 'utf8')).toBe(bytes);
    expect(parallel.stdout).toBe(serial.stdout);

    const record = JSON.parse(bytes) as { sessions: { requests: number; cost: number; misses: { cost: number } | null }[] };
    expect(record.sessions).toHaveLength(10);
    const brief = run();
    expect(brief.status, brief.stderr).toBe(0);
    expect(brief.stdout.split('\n').length).toBeLessThanOrEqual(40);
    const summary = run('-v');
    expect(summary.status, summary.stderr).toBe(0);
    const requests = record.sessions.reduce((sum, s) => sum + s.requests, 0);
    // Summed in the order the day table sums them; to the cent is the contract.
    const cost = record.sessions.reduce((sum, s) => sum + s.cost, 0);
    const lost = record.sessions.reduce((sum, s) => sum + (s.misses?.cost ?? 0), 0);
    const line = summary.stdout.split('\n').find((l) => l.startsWith('all sessions: '))!;
    expect(line).toContain(`${requests.toLocaleString('en-US')} requests`);
    expect(line).toContain(`cost ${formatUsd(cost)}`);
    expect(line).toContain(`lost to misses ${formatUsd(lost)}`);
    expect(brief.stdout).toMatch(new RegExp(`^cost +\\${formatUsd(cost)}  recorded usage of`, 'm'));
    expect(brief.stdout).toMatch(new RegExp(`^lost to misses +\\${formatUsd(lost)}  on`, 'm'));
    // Every session's row, the costliest first, is the record's.
    for (const session of record.sessions.slice(0, 3)) expect(summary.stdout).toContain(formatUsd(session.cost));
    expect(summary.stdout).toContain('4 sessions by the usage pass, 6 analysed in full');
  });

  it('counts a session copied into another project once at --jobs 2, as the serial run does', { timeout: 480_000 }, () => {
    type Record = { folder: { requests: number }; totals: unknown; cost: unknown; sessions: unknown[]; duplicates?: { calls: number; byFile: { file: number; calls: number }[] } };
    const before = run('--jobs', '2', '--json', '-');
    expect(before.status, before.stderr).toBe(0);
    const base = JSON.parse(before.stdout) as Record;
    // Another project holds a copy: read after -real-a (sorted), so its 20 calls are the copies.
    fs.mkdirSync(path.join(dir, 'projects', '-real-c'));
    fs.copyFileSync(path.join(real, 'claude-code', COPIED), path.join(dir, 'projects', '-real-c', COPIED));
    try {
      const serial = run('--jobs', '1', '--json', '-');
      const parallel = run('--jobs', '2', '--json', '-');
      expect(serial.status, serial.stderr).toBe(0);
      expect(parallel.status, parallel.stderr).toBe(0);
      expect(parallel.stdout).toBe(serial.stdout);
      const record = JSON.parse(parallel.stdout) as Record;
      // The copy adds no request, cost or session row; it is reported as 20 calls counted once, in the copy's file.
      expect(record.folder.requests).toBe(base.folder.requests);
      expect(record.cost).toEqual(base.cost);
      expect(record.sessions).toEqual(base.sessions);
      expect(record.duplicates!.calls).toBe((base.duplicates?.calls ?? 0) + 20);
      expect(record.duplicates!.byFile.filter((d) => !(base.duplicates?.byFile ?? []).some((b) => b.calls === d.calls && b.file === d.file))).toEqual([
        { file: expect.any(Number) as number, calls: 20 },
      ]);
      const brief = run();
      expect(brief.stdout).toContain(`${record.duplicates!.calls} API calls counted once`);
      // The summary on two workers: the serial summary, the copy dropped the same, every table the same.
      for (const args of [[], ['-v'], ['--by', 'day', '--since', '2025-01-01']]) {
        const serialSummary = run('--jobs', '1', ...args);
        const parallelSummary = run('--jobs', '2', ...args);
        expect(parallelSummary.status, parallelSummary.stderr).toBe(0);
        expect(parallelSummary.stdout).toBe(serialSummary.stdout);
      }
    } finally {
      fs.rmSync(path.join(dir, 'projects', '-real-c'), { recursive: true, force: true });
    }
  });

  it('stops at the first session past a work limit with the serial message, at any --jobs', { timeout: 240_000 }, () => {
    const serial = run('--jobs', '1', '--deep', '--max-records', '40');
    const parallel = run('--jobs', '2', '--deep', '--max-records', '40');
    const fast = run('--max-records', '40');
    const fastOnWorkers = run('--jobs', '2', '--max-records', '40');
    expect(serial.status).toBe(1);
    expect(serial.stderr).toMatch(/LIMIT_RECORDS/);
    expect(parallel.status).toBe(1);
    expect(parallel.stderr).toBe(serial.stderr);
    expect(fast.status).toBe(1);
    expect(fast.stderr).toBe(serial.stderr);
    expect(fastOnWorkers.status).toBe(1);
    expect(fastOnWorkers.stderr).toBe(serial.stderr);
  });

  it('refuses a --jobs that is not a whole number from 1', () => {
    const zero = run('--jobs', '0');
    expect(zero.status).toBe(1);
    expect(zero.stderr).toContain('--jobs must be a whole number from 1 to 64 (got "0")');
  });
});
