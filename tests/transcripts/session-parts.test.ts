// Session parts (src/core/transcripts/sessions.ts): sessions analysed one at a time give the same tables as one
// analysis of all of them — what `ctxray analyze <folder>` relies on to keep only each session's row. SYNTHETIC
// Claude Code sessions, built in memory by this test.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import type { InputFile } from '../../src/core/input/index.ts';
import { sessionPartsOf, sessionsOf, sessionTableOf } from '../../src/core/transcripts/index.ts';
import { asSubagent, syntheticClaudeCodeSession as session } from './claude-code-session.ts';

const encode = (text: string) => new TextEncoder().encode(text);

// s1 runs across midnight UTC (23:59 and 00:00, 00:01), with a subagent; s2 on the next day only.
const s1 = session('s1', '2026-03-01T23:59:00.000Z', [
  { input: 1000, read: 0, write5m: 2000, output: 100 },
  { input: 10, read: 3000, write5m: 200, output: 50 },
  { input: 20, read: 3200, write5m: 100, output: 30 },
]);
const agent = asSubagent(session('s1', '2026-03-02T00:00:30.000Z', [{ input: 400, read: 0, write5m: 0, output: 40 }]), 'a1');
const s2 = session('s2', '2026-03-02T09:00:00.000Z', [{ input: 500, read: 0, write5m: 0, output: 20 }]);
const file = (name: string, folderPath: string, text: string): InputFile => ({ name, bytes: encode(text), folderPath });

describe('session parts', () => {
  it('join into the tables one analysis of every session gives', async () => {
    const combined = await analyzeInput([file('s1.jsonl', 'p-a/s1.jsonl', s1), file('agent-a1.jsonl', 'p-a/s1/subagents/agent-a1.jsonl', agent), file('s2.jsonl', 'p-b/s2.jsonl', s2)]);
    const first = await analyzeInput([file('s1.jsonl', 'p-a/s1.jsonl', s1), file('agent-a1.jsonl', 'p-a/s1/subagents/agent-a1.jsonl', agent)]);
    const second = await analyzeInput([file('s2.jsonl', 'p-b/s2.jsonl', s2)]);
    const joined = sessionTableOf([...sessionPartsOf(first), ...sessionPartsOf(second)]);
    expect(joined).toEqual(sessionsOf(combined));
    expect(joined.sessions.map((row) => [row.file, row.requests, row.subagents])).toEqual([
      ['p-a/s1.jsonl', 4, { files: 1, requests: 1 }],
      ['p-b/s2.jsonl', 1, { files: 0, requests: 0 }],
    ]);
  });

  it('split a session across the UTC days its requests fall on', async () => {
    const parts = sessionPartsOf(await analyzeInput([file('s1.jsonl', 'p-a/s1.jsonl', s1), file('agent-a1.jsonl', 'p-a/s1/subagents/agent-a1.jsonl', agent)]));
    expect(parts).toHaveLength(1);
    // 23:59 on the 1st; 00:00 and 00:01 on the 2nd, and the subagent's 00:00:30.
    expect(parts[0]!.days.map((d) => [d.key, d.sessions, d.requests, d.recorded.input, d.recorded.output])).toEqual([
      ['2026-03-01', 1, 1, 1000, 100],
      ['2026-03-02', 1, 3, 430, 120],
    ]);
    const table = sessionTableOf([...parts, ...sessionPartsOf(await analyzeInput([file('s2.jsonl', 'p-b/s2.jsonl', s2)]))]);
    // The 2nd holds requests of both sessions; the 1st of s1 only.
    expect(table.days.map((d) => [d.key, d.sessions, d.requests])).toEqual([
      ['2026-03-01', 1, 1],
      ['2026-03-02', 2, 4],
    ]);
    expect(table.projects.map((p) => [p.key, p.sessions, p.requests])).toEqual([
      ['p-a', 1, 4],
      ['p-b', 1, 1],
    ]);
  });

  it('give no part for an analysis without requests', async () => {
    expect(sessionPartsOf(await analyzeInput([file('empty.jsonl', 'empty.jsonl', '')]))).toEqual([]);
    expect(sessionTableOf([])).toEqual({ sessions: [], projects: [], days: [] });
  });
});
