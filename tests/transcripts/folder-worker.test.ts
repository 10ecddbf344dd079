// The worker's folder analysis (src/worker/folder.ts) on SYNTHETIC Claude Code sessions (written by this test,
// labelled synthetic): one row per session with its nested subagent's calls counted in it, files that hold no
// request listed as skipped, progress per session, and a cancelled read stopping with the abort.
import { describe, expect, it } from 'vitest';
import { analyzeFolder } from '../../src/worker/folder.ts';
import type { InputBlob, ProgressInfo } from '../../src/worker/inputs.ts';
import { asSubagent, syntheticClaudeCodeSession as session } from './claude-code-session.ts';

const input = (folderPath: string, text: string): InputBlob => ({ name: `synthetic/${folderPath}`, folderPath, blob: new Blob([text]) });

const A = session('synthetic-a', '2026-03-01T10:00:00.000Z', [
  { input: 1000, read: 0, write5m: 2000, output: 100 },
  { input: 10, read: 3000, write5m: 200, output: 50 },
]);
const A_AGENT = asSubagent(session('synthetic-a', '2026-03-01T10:05:00.000Z', [{ input: 7, read: 0, write5m: 300, output: 9 }]), 'synthetic-agent');
const B = session('synthetic-b', '2026-03-02T09:00:00.000Z', [{ input: 500, read: 0, write5m: 0, output: 20 }]);

const inputs = [
  input('proj-a/synthetic-a.jsonl', A),
  input('proj-a/synthetic-a/subagents/agent-synthetic-agent.jsonl', A_AGENT),
  input('proj-b/synthetic-b.jsonl', B),
  input('proj-b/synthetic-not-a-log.json', '{"synthetic": "not a request"}\n'),
];

describe('analyzeFolder (synthetic sessions)', () => {
  it('lists a session stopped by a work limit under the file and line where it stopped, and reads the others', async () => {
    // Session A and its subagent hold 3 requests; a cap of 2 stops the read at the subagent's one call (its line 2, after the user line).
    const folder = await analyzeFolder(inputs, { signal: new AbortController().signal, onProgress: () => {}, limits: { maxRequests: 2 } });
    expect(folder.sessions.map((row) => row.file)).toEqual(['proj-b/synthetic-b.jsonl']);
    expect(folder.skipped[0]).toMatch(/^proj-a\/synthetic-a\/subagents\/agent-synthetic-agent\.jsonl line 2: LIMIT_REQUESTS: more than 2 requests/);
  });

  it('gives a row per session, the nested subagent in its parent, and lists the file without requests', async () => {
    const progress: ProgressInfo[] = [];
    const folder = await analyzeFolder(inputs, { signal: new AbortController().signal, onProgress: (p) => progress.push(p) });
    expect(folder.sessions.map((row) => [row.file, row.project, row.requests, row.subagents, row.inputs, row.days])).toEqual([
      ['proj-a/synthetic-a.jsonl', 'proj-a', 3, { files: 1, requests: 1 }, [0, 1], ['2026-03-01']],
      ['proj-b/synthetic-b.jsonl', 'proj-b', 1, { files: 0, requests: 0 }, [2], ['2026-03-02']],
    ]);
    // Recorded sums by hand: A 1000+10+7 input, 100+50+9 output, 3000 read, 2000+200+300 written.
    expect(folder.sessions[0]!.recorded).toEqual({ input: 1017, output: 159, cacheRead: 3000, cacheWrite5m: 2500, cacheWrite1h: 0 });
    expect(folder.projects.map((p) => [p.key, p.sessions, p.requests])).toEqual([
      ['proj-a', 1, 3],
      ['proj-b', 1, 1],
    ]);
    expect(folder.days.map((d) => [d.key, d.sessions, d.requests])).toEqual([
      ['2026-03-01', 1, 3],
      ['2026-03-02', 1, 1],
    ]);
    expect(folder.skipped).toHaveLength(1);
    expect(folder.skipped[0]).toMatch(/^proj-b\/synthetic-not-a-log\.json: /);
    expect(folder.files).toBe(4);
    // Each session announces itself before it is read: 3 groups (the non-log file is one of its own).
    expect([...new Set(progress.map((p) => p.sessions?.done))]).toEqual([0, 1, 2]);
    expect(progress.every((p) => p.sessions?.total === 3 && p.bytesTotal === inputs.reduce((sum, i) => sum + i.blob.size, 0))).toBe(true);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(analyzeFolder(inputs, { signal: controller.signal, onProgress: () => undefined })).rejects.toThrow();
  });
});
