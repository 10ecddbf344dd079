// A temp folder laid out like ~/.claude/projects, of the real sessions under ../shared/fixtures/real/transcripts
// (copied, never into the repository), for the app's folder-table tests (Vitest and the browser e2e). Claude Code
// sessions are named by their id; tool_heavy's lines, marked as a sidechain, are a flat subagent of the short
// session and, with `nested`, a nested one (<session>/subagents/agent-*.jsonl) of the long one. Free of test
// framework imports so the Playwright specs can load it too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asSubagent } from '../transcripts/claude-code-session.ts';

const sessionIdOf = (file: string): string =>
  fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { sessionId?: unknown }).find((l) => typeof l.sessionId === 'string')!.sessionId as string;

/** Every file below `folder`, as paths relative to it with `/`, in code-unit order (as a folder drop lists them). */
export function filesBelow(folder: string): string[] {
  const below = (rel: string): string[] =>
    fs.readdirSync(path.join(folder, rel), { withFileTypes: true }).flatMap((entry) => {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      return entry.isDirectory() ? below(child) : [child];
    });
  return below('').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Builds `<temp>/projects` from `real` (the transcripts folder); returns the temp folder. */
export function buildRealSessionFolder(real: string, options: { nested: boolean; agents: readonly string[] }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-real-sessions-'));
  const put = (to: string, bytes: Buffer | string) => {
    fs.mkdirSync(path.dirname(path.join(dir, 'projects', to)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'projects', to), bytes);
  };
  const cc = (name: string) => path.join(real, 'claude-code', name);
  const short = sessionIdOf(cc('short.jsonl'));
  const heavy = sessionIdOf(cc('tool_heavy.jsonl'));
  const long = sessionIdOf(cc('session-624a4a58.jsonl'));
  put(`-real-a/${short}.jsonl`, fs.readFileSync(cc('short.jsonl')));
  put(`-real-a/${heavy}.jsonl`, fs.readFileSync(cc('tool_heavy.jsonl')));
  put(`-real-b/${long}.jsonl`, fs.readFileSync(cc('session-624a4a58.jsonl')));
  const heavyText = fs.readFileSync(cc('tool_heavy.jsonl'), 'utf8');
  put('-real-a/agent-derived1.jsonl', asSubagent(heavyText.replaceAll(heavy, short), 'derived1'));
  if (options.nested) put(`-real-b/${long}/subagents/agent-derived2.jsonl`, asSubagent(heavyText.replaceAll(heavy, long), 'derived2'));
  for (const agent of options.agents) for (const name of fs.readdirSync(path.join(real, agent))) put(`${agent}/${name}`, fs.readFileSync(path.join(real, agent, name)));
  for (const task of fs.readdirSync(path.join(real, 'cline'))) {
    for (const name of fs.readdirSync(path.join(real, 'cline', task))) put(`cline/${task}/${name}`, fs.readFileSync(path.join(real, 'cline', task, name)));
  }
  return dir;
}
