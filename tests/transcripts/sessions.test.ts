// Folder sessions (sessions.ts, `ctxray analyze <folder>` and its JSON sessions[]) on a temp folder laid out like
// ~/.claude/projects, of SYNTHETIC Claude Code sessions written by this test: one row per session, subagent calls
// in their parent's row, sums and costs worked out by hand, paths relative to the folder given.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import { projectOf } from '../../src/core/transcripts/sessions.ts';
import { analysisValidator } from '../analysis/schema.ts';
import { runInProcess } from '../cli/in-process.ts';
import { asSubagent, syntheticClaudeCodeSession as session } from './claude-code-session.ts';

let dir = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-sessions-'));
  fs.mkdirSync(path.join(dir, 'projects/-synthetic-proj-a/s1/subagents'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'projects/-synthetic-proj-b'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'projects/-synthetic-proj-a/s1.jsonl'),
    session('s1', '2026-03-01T10:00:00.000Z', [
      { input: 1000, read: 0, write5m: 2000, output: 100 },
      { input: 10, read: 3000, write5m: 200, output: 50 },
    ]),
  );
  // The subagent's lines carry its parent's session id.
  fs.writeFileSync(path.join(dir, 'projects/-synthetic-proj-a/s1/subagents/agent-a1.jsonl'), asSubagent(session('s1', '2026-03-01T10:00:30.000Z', [{ input: 400, read: 0, write5m: 0, output: 40 }]), 'a1'));
  fs.writeFileSync(path.join(dir, 'projects/-synthetic-proj-b/s2.jsonl'), session('s2', '2026-03-02T09:00:00.000Z', [{ input: 500, read: 0, write5m: 0, output: 20 }]));
  // Older Claude Code versions: flat agent-<id>.jsonl files beside the session files, lines carrying the parent's id.
  fs.mkdirSync(path.join(dir, 'flat/-synthetic-proj-c'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'flat/-synthetic-proj-c/s3.jsonl'), session('s3', '2026-03-03T08:00:00.000Z', [{ input: 300, read: 0, write5m: 0, output: 30 }]));
  fs.writeFileSync(path.join(dir, 'flat/-synthetic-proj-c/agent-b7.jsonl'), asSubagent(session('s3', '2026-03-03T08:00:20.000Z', [{ input: 70, read: 0, write5m: 0, output: 7 }, { input: 71, read: 0, write5m: 0, output: 8 }]), 'b7'));
  fs.writeFileSync(path.join(dir, 'flat/-synthetic-proj-c/s4.jsonl'), session('s4', '2026-03-04T08:00:00.000Z', [{ input: 400, read: 0, write5m: 0, output: 40 }]));
  fs.writeFileSync(path.join(dir, 'flat/-synthetic-proj-c/agent-c9.jsonl'), asSubagent(session('s4', '2026-03-04T08:00:20.000Z', [{ input: 90, read: 0, write5m: 0, output: 9 }]), 'c9'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (argv: string[]) => runInProcess(analyzeCommand, argv, dir);

// Claude Sonnet 4.5 per million: input 3, 5m write 3.75, read 0.3, output 15.
// s1: 1000×3 + 2000×3.75 + 100×15 = 12000; 10×3 + 3000×0.3 + 200×3.75 + 50×15 = 2430; subagent 400×3 + 40×15 = 1800.
const COST_S1 = (12000 + 2430 + 1800) / 1e6;
// s2: 500×3 + 20×15 = 1800.
const COST_S2 = 1800 / 1e6;

describe('folder sessions', () => {
  it('gives one sessions[] row per session, subagent calls in the parent row, with the recorded sums', async () => {
    const { code, stdout, stderr } = await run([path.join(dir, 'projects'), '--json', '-']);
    // Nothing skipped or unreadable (stderr may carry the usage-calibration notice).
    expect(stderr).not.toMatch(/skipped|unreadable/);
    expect(code).toBe(0);
    const record = JSON.parse(stdout) as { sessions: Record<string, unknown>[] };
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    expect(record.sessions).toHaveLength(2);
    const [first, second] = record.sessions;
    expect(first).toMatchObject({
      file: '-synthetic-proj-a/s1.jsonl',
      agent: 'claude-code',
      project: '-synthetic-proj-a',
      start: '2026-03-01T10:00:00.000Z',
      requests: 3,
      subagents: { files: 1, requests: 1 },
      recordedRequests: 3,
      recorded: { input: 1410, output: 190, cacheRead: 3000, cacheWrite5m: 2200, cacheWrite1h: 0 },
      unpricedRequests: 0,
    });
    expect(first!['cost']).toBeCloseTo(COST_S1, 10);
    // 3000 read of 1410 + 3000 + 2200 prompt tokens.
    expect(first!['hitRate']).toBe(Math.round((3000 / 6610) * 10_000) / 10_000);
    expect(second).toMatchObject({ file: '-synthetic-proj-b/s2.jsonl', requests: 1, subagents: { files: 0, requests: 0 }, recorded: { input: 500, output: 20, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 }, hitRate: 0 });
    expect(second!['cost']).toBeCloseTo(COST_S2, 10);
    // The folder holds no per-request rows (bounded memory): `folder` counts them.
    const folder = JSON.parse(stdout) as { requests: unknown[]; folder: { analyses: number; requests: number } };
    expect(folder.requests).toEqual([]);
    expect(folder.folder).toMatchObject({ analyses: 2, requests: 4 });
    // A row's misses are those of the session's own full analysis (its file given alone reads its subagent with
    // it): the sum of that record's requests[].miss.
    const missesOf = async (file: string) => {
      const single = await run([path.join(dir, 'projects', file), '--json', '-']);
      expect(single.code).toBe(0);
      const rows = (JSON.parse(single.stdout) as { requests: { miss: { tokens: number; cost: number | null } | null }[] }).requests.filter((r) => r.miss !== null);
      return { count: rows.length, tokens: rows.reduce((a, r) => a + r.miss!.tokens, 0), cost: rows.reduce((a, r) => a + (r.miss!.cost ?? 0), 0) };
    };
    expect(first!['misses']).toEqual(await missesOf('-synthetic-proj-a/s1.jsonl'));
    expect(second!['misses']).toEqual(await missesOf('-synthetic-proj-b/s2.jsonl'));
    expect((first!['misses'] as { count: number }).count).toBeGreaterThan(0);
    // No absolute path anywhere in the record.
    expect(stdout).not.toContain(dir);
  });

  it('prints the sessions, project and day tables, the costliest session first', async () => {
    const { code, stdout } = await run(['projects', '-v']);
    expect(code).toBe(0);
    const table = stdout.slice(stdout.indexOf('Sessions (2'));
    expect(table).toMatch(/-synthetic-proj-a\/s1\.jsonl\s+Claude Code transcript\s+2026-03-01 10:00\s+3 \(1 in 1 subagents\)\s+1,410\s+190\s+3,000\s+2,200\s+\$0\.0162/);
    expect(table.indexOf('s1.jsonl')).toBeLessThan(table.indexOf('s2.jsonl'));
    expect(table).toMatch(/Per project[\s\S]*-synthetic-proj-a\s+1\s+3\s/);
    expect(table).toMatch(/Per day \(UTC\)[\s\S]*2026-03-02\s+1\s+1\s+500/);
  });

  it('reads a session file given alone with its subagents beside it', async () => {
    const { code, stdout } = await run(['projects/-synthetic-proj-a/s1.jsonl', '--json', '-']);
    expect(code).toBe(0);
    const record = JSON.parse(stdout) as { sessions: { file: string; requests: number; subagents: unknown }[]; files: unknown[] };
    expect(record.files).toHaveLength(2);
    expect(record.sessions).toEqual([expect.objectContaining({ file: 's1.jsonl', requests: 3, subagents: { files: 1, requests: 1 } })]);
  });

  it('counts flat agent-*.jsonl files in the row of the session whose id their lines carry, never in rows of their own', async () => {
    const { code, stdout } = await run(['flat', '--json', '-']);
    expect(code).toBe(0);
    const record = JSON.parse(stdout) as { sessions: { file: string; requests: number; subagents: unknown; recorded: { input: number; output: number } }[] };
    expect(record.sessions.map((row) => [row.file, row.requests, row.subagents, row.recorded.input, row.recorded.output])).toEqual([
      ['-synthetic-proj-c/s4.jsonl', 2, { files: 1, requests: 1 }, 490, 49],
      ['-synthetic-proj-c/s3.jsonl', 3, { files: 1, requests: 2 }, 441, 45],
    ]);
  });

  it('reads a session file given alone with the flat agent files of its session beside it, and only those', async () => {
    const { code, stdout } = await run(['flat/-synthetic-proj-c/s3.jsonl', '--json', '-']);
    expect(code).toBe(0);
    const record = JSON.parse(stdout) as { sessions: { file: string; requests: number; subagents: unknown }[]; files: unknown[]; requests: unknown[] };
    // s3.jsonl and agent-b7.jsonl; agent-c9.jsonl carries s4.
    expect(record.files).toHaveLength(2);
    expect(record.requests).toHaveLength(3);
    expect(record.sessions).toEqual([expect.objectContaining({ file: 's3.jsonl', requests: 3, subagents: { files: 1, requests: 2 } })]);
  });

  it('takes the first folder of the path as the project', () => {
    expect(projectOf('-home-synthetic-app/abc.jsonl')).toBe('-home-synthetic-app');
    expect(projectOf('abc.jsonl')).toBe('');
    expect(projectOf('./x/y/z.json')).toBe('x');
  });
});
