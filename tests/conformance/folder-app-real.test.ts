// The app's folder table (src/worker/folder.ts, what the worker computes for a dropped folder) against the CLI's
// record for the same folder: real sessions (../shared/fixtures/real/transcripts, copied into a temp folder laid
// out like ~/.claude/projects; never into the repository), with a subagent derived from a real file both nested
// (<session>/subagents/agent-*.jsonl) and flat (agent-*.jsonl beside its session). Every row equals the CLI's
// sessions[] row, and the per-project and per-day tables equal the CLI's terminal tables' sums.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import { sessionRecordRow } from '../../src/core/transcripts/index.ts';
import type { InputBlob } from '../../src/worker/inputs.ts';
import { analyzeFolder, type FolderView } from '../../src/worker/folder.ts';
import { runInProcess } from '../cli/in-process.ts';
import { buildRealSessionFolder, filesBelow } from './real-session-folder.ts';

const real = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts');
const present = fs.existsSync(path.join(real, 'claude-code'));
const suite = present ? describe : describe.skip;
const title = present ? 'the app folder table on real sessions (../shared/fixtures/real/transcripts)' : `the app folder table on real sessions: SKIPPED, ${real} is absent`;

let dir = '';
/** Every file below `projects`, as a folder drop hands them to the worker: sorted, named by their path in it. */
let inputs: InputBlob[] = [];

beforeAll(() => {
  if (!present) return;
  dir = buildRealSessionFolder(real, { nested: true, agents: ['codex', 'gemini-cli', 'pi'] });
  inputs = filesBelow(path.join(dir, 'projects')).map((rel) => ({ name: `projects/${rel}`, folderPath: rel, blob: new Blob([fs.readFileSync(path.join(dir, 'projects', rel))]) }));
});
afterAll(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

const signal = new AbortController().signal;

suite(title, () => {
  let folder: FolderView;
  const progress: { done: number; total: number }[] = [];

  it('gives the rows of `ctxray analyze <folder> --json` sessions[], one per session, subagents in their parents', async () => {
    folder = await analyzeFolder(inputs, { signal, onProgress: (p) => p.sessions && progress.push(p.sessions) });
    const cli = await runInProcess(analyzeCommand, ['projects', '--json', '-'], dir);
    expect(cli.code, cli.stderr).toBe(0);
    const record = JSON.parse(cli.stdout) as { sessions: unknown[] };
    const rows = folder.sessions.map(({ inputs: _inputs, days: _days, ...row }) => sessionRecordRow(row));
    expect(rows).toEqual(record.sessions);
    expect(folder.sessions.some((row) => row.file.includes('agent-'))).toBe(false);
    const withAgent = folder.sessions.filter((row) => row.subagents.files === 1).map((row) => row.project).sort();
    expect(withAgent).toEqual(['-real-a', '-real-b']);
    // Progress names each session as it is read, and every session is read once.
    expect(progress.at(-1)).toEqual({ done: progress.at(-1)!.total - 1, total: progress.at(-1)!.total });
    expect(folder.skipped).toEqual([]);
  });

  it('names the inputs of each row: its own file first, then its subagents (and a task its parts)', () => {
    const nameOf = (i: number) => inputs[i]!.folderPath;
    for (const row of folder.sessions) {
      expect(nameOf(row.inputs[0]!) === row.file || row.agent === 'cline-task', row.file).toBe(true);
      expect(row.inputs.length, row.file).toBe(row.agent === 'cline-task' ? 3 : 1 + row.subagents.files);
    }
    const nested = folder.sessions.find((row) => row.project === '-real-b' && row.subagents.files === 1)!;
    expect(nested.inputs.map(nameOf)[1]).toMatch(/^-real-b\/[^/]+\/subagents\/agent-derived2\.jsonl$/);
  });

  it('sums the projects and days of the rows (each session once per group it has requests in)', () => {
    const requests = folder.sessions.reduce((sum, row) => sum + row.requests, 0);
    expect(folder.projects.reduce((sum, p) => sum + p.requests, 0)).toBe(requests);
    expect(folder.days.reduce((sum, d) => sum + d.requests, 0)).toBe(requests);
    expect(folder.projects.reduce((sum, p) => sum + p.sessions, 0)).toBe(folder.sessions.length);
    for (const project of folder.projects) {
      const members = folder.sessions.filter((row) => row.project === project.key);
      expect(project.sessions).toBe(members.length);
      expect(project.recorded.cacheRead).toBe(members.reduce((sum, row) => sum + row.recorded.cacheRead, 0));
      expect(project.cost).toBeCloseTo(members.reduce((sum, row) => sum + row.cost, 0), 9);
    }
  });
});
