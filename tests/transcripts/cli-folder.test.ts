// `ctxray analyze <folder>` on a temp folder of SYNTHETIC Claude Code transcripts (written by this test, labelled
// synthetic in every text): recursive, sorted, non-request files reported and skipped; per-day and per-model
// totals, costliest conversations and the observed-vs-simulated section, in the terminal and in the JSON record.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import { listFolder } from '../../src/cli/fs/folder-inputs.ts';
import { runInProcess } from '../cli/in-process.ts';
import { syntheticClaudeCodeSession as session } from './claude-code-session.ts';

const root = path.resolve(__dirname, '../..');
const bin = path.join(root, 'bin/ctxray.mjs');
let dir = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-folder-'));
  fs.mkdirSync(path.join(dir, 'logs/a'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'logs/b/nested'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'logs/empty'), { recursive: true });
  // Session A, 2026-03-01: prompts 3000 and 3210 tokens.
  fs.writeFileSync(
    path.join(dir, 'logs/a/synthetic-session-a.jsonl'),
    session('synthetic-a', '2026-03-01T10:00:00.000Z', [
      { input: 1000, read: 0, write5m: 2000, output: 100 },
      { input: 10, read: 3000, write5m: 200, output: 50 },
    ]),
  );
  // Session B, 2026-03-02: one call, prompt 500.
  fs.writeFileSync(path.join(dir, 'logs/b/nested/synthetic-session-b.jsonl'), session('synthetic-b', '2026-03-02T09:00:00.000Z', [{ input: 500, read: 0, write5m: 0, output: 20 }]));
  fs.writeFileSync(path.join(dir, 'logs/b/synthetic-not-a-log.json'), '{"synthetic": "not a request"}\n');
  fs.writeFileSync(path.join(dir, 'logs/b/synthetic-empty.jsonl'), '');
  fs.writeFileSync(path.join(dir, 'logs/synthetic-notes.txt'), 'not read: wrong extension\n');
  fs.symlinkSync(path.join(dir, 'logs/missing-target.jsonl'), path.join(dir, 'logs/b/synthetic-dangling.jsonl'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (argv: string[]) => runInProcess(analyzeCommand, argv, dir);

const spawn = (args: string[]) =>
  spawnSync(process.execPath, [bin, 'analyze', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 });

// Claude Sonnet 4.5 per million: input 3, 5m write 3.75, read 0.3, output 15.
// A1: 1000×3 + 2000×3.75 + 100×15 = 12000; A2: 10×3 + 3000×0.3 + 200×3.75 + 50×15 = 2430; B: 500×3 + 20×15 = 1800.
const COST_A = (12000 + 2430) / 1e6;
const COST_B = 1800 / 1e6;

describe('listFolder', () => {
  it('lists .jsonl/.json/.gz files recursively in sorted order and reports what it cannot read', () => {
    const listing = listFolder(path.join(dir, 'logs'), 'logs');
    expect(listing.files.map((f) => f.name)).toEqual([
      path.join('logs', 'a', 'synthetic-session-a.jsonl'),
      path.join('logs', 'b', 'nested', 'synthetic-session-b.jsonl'),
      path.join('logs', 'b', 'synthetic-empty.jsonl'),
      path.join('logs', 'b', 'synthetic-not-a-log.json'),
    ]);
    expect(listing.skipped).toEqual([`${path.join('logs', 'b', 'synthetic-dangling.jsonl')}: no such file`]);
    expect(listFolder(path.join(dir, 'logs'), 'logs', 1)).toMatchObject({ leftOut: 3 });
  });
});

describe('ctxray analyze <folder> (synthetic transcripts)', () => {
  it('writes per-day and per-model totals and the costliest conversations to the JSON record', async () => {
    const { code, stdout, stderr } = await run(['logs', '--json', '-']);
    expect(code).toBe(0);
    // Every skipped file is named on stderr, none is fatal.
    expect(stderr).toContain('synthetic-dangling.jsonl: no such file');
    expect(stderr).toContain('synthetic-empty.jsonl');
    expect(stderr).toContain('synthetic-not-a-log.json');
    const record = JSON.parse(stdout) as {
      requests: { timestamp: string | null }[];
      summary: { totals: { requests: number; promptTokens: number; cost: number }; days: { day: string; requests: number; promptTokens: number; cost: number }[]; models: { model: string; requests: number }[]; topConversations: { file: number; requests: number; cost: number; start: string }[] };
      transcripts?: unknown;
      folder: { analyses: number; requests: number; calibrated: number };
    };
    // Read one session at a time: no per-request rows or per-request sections, the counts in `folder`.
    expect(record.requests).toEqual([]);
    expect(record.transcripts).toBeUndefined();
    // Four files read, each its own session; two hold the three requests.
    expect(record.folder).toMatchObject({ analyses: 4, requests: 3 });
    expect(record.summary.totals).toMatchObject({ requests: 3, promptTokens: 3000 + 3210 + 500 });
    expect(record.summary.totals.cost).toBeCloseTo(COST_A + COST_B, 10);
    expect(record.summary.days.map((d) => [d.day, d.requests, d.promptTokens])).toEqual([
      ['2026-03-01', 2, 6210],
      ['2026-03-02', 1, 500],
    ]);
    expect(record.summary.days[0]?.cost).toBeCloseTo(COST_A, 10);
    expect(record.summary.models.map((m) => [m.model, m.requests])).toEqual([['claude-sonnet-4-5', 3]]);
    expect(record.summary.topConversations.map((c) => [c.file, c.requests, c.start])).toEqual([
      [0, 2, '2026-03-01T10:00:00.000Z'],
      [1, 1, '2026-03-02T09:00:00.000Z'],
    ]);
    expect(record.summary.topConversations[1]?.cost).toBeCloseTo(COST_B, 10);
    // No absolute path or payload text in the record; file names only as sessions[].file, relative to the folder.
    expect((record as unknown as { sessions: { file: string }[] }).sessions.map((row) => row.file).sort()).toEqual(['a/synthetic-session-a.jsonl', 'b/nested/synthetic-session-b.jsonl']);
    expect(stdout.split('synthetic-session').length - 1).toBe(2);
    expect(stdout).not.toContain('synthetic question');
    expect(stdout).not.toContain(dir);
  });

  it('prints the same tables in the terminal with --deep -v, spawned, exit 0', () => {
    const result = spawn(['logs', '--deep', '-v']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ctxray analyze: 4 files, 2 sessions, 3 requests');
    expect(result.stdout).toMatch(/2026-03-01\s+2\s+2\s+6,210/);
    expect(result.stdout).toMatch(/2026-03-02\s+1\s+1\s+500/);
    expect(result.stdout).toMatch(/claude-sonnet-4-5\s+3\s+3\s+6,710/);
    expect(result.stdout).toContain('Costliest conversations');
    expect(result.stdout).toContain(`$${COST_A.toFixed(4)}`);
    expect(result.stderr).toContain('skipped in folder input');
  });

  it('exits 1 for a folder without any log file, and for a folder whose files hold no request', () => {
    const none = spawn(['logs/empty']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no readable .jsonl, .json or .gz file');
    fs.mkdirSync(path.join(dir, 'only-bad'));
    fs.writeFileSync(path.join(dir, 'only-bad/synthetic.json'), '{"synthetic": true}\n');
    const bad = spawn(['only-bad']);
    expect(bad.status).toBe(1);
  });

  it('never overwrites a file of the folder, even with --force', async () => {
    const target = path.join('logs', 'a', 'synthetic-session-a.jsonl');
    const before = fs.readFileSync(path.join(dir, target));
    const { code, stderr } = await run(['logs', '--json', target, '--force']);
    expect(code).toBe(1);
    expect(stderr).toContain('inputs are never overwritten');
    // --html draws every request of one log: a folder is refused before anything is read or written.
    const html = await run(['logs', '--html', target, '--force']);
    expect(html.code).toBe(1);
    expect(html.stderr).toContain('--html takes log files, not a folder');
    expect(fs.readFileSync(path.join(dir, target))).toEqual(before);
    // A new file inside the folder is refused too (the next run would read it as input).
    expect((await run(['logs', '--json', path.join('logs', 'synthetic-out.json')])).stderr).toContain('inside an input directory');
  });

  it('shows reading progress per session on stderr with -v, the folder-wide bytes read', async () => {
    const { code, stderr } = await run(['logs', '-v', '--json', '-']);
    expect(code).toBe(0);
    // The first update is written at once: session 1 of 4, its records, the bytes of all four files.
    const total = ['a/synthetic-session-a.jsonl', 'b/nested/synthetic-session-b.jsonl', 'b/synthetic-empty.jsonl', 'b/synthetic-not-a-log.json'].reduce((sum, file) => sum + fs.statSync(path.join(dir, 'logs', file)).size, 0);
    expect(stderr).toMatch(new RegExp(`reading \\[1/4\\] ${path.join('logs', 'a', 'synthetic-session-a.jsonl').replaceAll('\\', '\\\\')}: \\d+ records?, [\\d.]+ / ${(total / 1e6).toFixed(1)} MB`));
  });

  it('exits 2 with --fail-on when a finding of some session is that severe', async () => {
    // A SYNTHETIC request log whose second request reorders the tools: a tools_reordered warning.
    const tool = (name: string) => ({ name, description: 'synthetic', input_schema: { type: 'object' } });
    const first = { model: 'claude-sonnet-4-5', system: 'synthetic', tools: [tool('alpha'), tool('beta')], messages: [{ role: 'user', content: 'synthetic' }] };
    const second = { ...first, tools: [tool('beta'), tool('alpha')], messages: [...first.messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }] };
    fs.mkdirSync(path.join(dir, 'requests'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'requests', 'synthetic-log.jsonl'), `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
    const failing = await run(['requests', '--fail-on', 'warning', '-v']);
    expect(failing.code).toBe(2);
    expect(failing.stderr).toMatch(/--fail-on warning: \d+ finding\(s\) at least that severe \(.*tools_reordered/);
    expect(failing.stdout).toMatch(/Findings by code[\s\S]*tools_reordered \(warning\): 1 finding on 1 request/);
    expect((await run(['requests', '--fail-on', 'error'])).code).toBe(0);
  });

  it('still fails on a named file that holds no request', async () => {
    const { code, stderr } = await run([path.join('logs', 'b', 'synthetic-not-a-log.json')]);
    expect(code).toBe(1);
    expect(stderr).toContain('unreadable input');
  });
});
