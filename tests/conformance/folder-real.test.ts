// The checks on real agent sessions (../shared/fixtures/real/transcripts, copied into a temp folder laid out
// like ~/.claude/projects; never into the repository): every session opens alone with exit 0, and the folder gives
// one sessions[] row per session whose requests and recorded sums are the session's own — counted from the raw
// lines for Claude Code, and equal to the session's own analysis for every agent. A subagent derived from a real
// file (its lines marked as a sidechain of another real session, in the flat agent-*.jsonl layout) is counted in
// that session's row and gets none of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import { runInProcess } from '../cli/in-process.ts';
import { analysisValidator } from '../analysis/schema.ts';

const real = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts');
const present = fs.existsSync(path.join(real, 'claude-code'));
const suite = present ? describe : describe.skip;
const title = present ? 'a folder of real sessions (../shared/fixtures/real/transcripts)' : `a folder of real sessions: SKIPPED, ${real} is absent`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RawLine = Record<string, any>;
const linesOf = (file: string): RawLine[] =>
  fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as RawLine);
/** A line whose API call is another's: its message and request ids prefixed (a copy would be counted once). */
const withOwnIds = (l: RawLine, prefix: string): RawLine =>
  l.type === 'assistant' && l.message?.id ? { ...l, requestId: `${prefix}_${l.requestId ?? ''}`, message: { ...l.message, id: `${prefix}_${l.message.id}` } } : l;
const sessionIdOf = (file: string): string => linesOf(file).find((l) => typeof l.sessionId === 'string')!.sessionId as string;

/** A Claude Code file's own API calls and recorded sums: the usage of each message id's last line. */
function claudeCodeSums(file: string) {
  const last = new Map<string, RawLine>();
  for (const l of linesOf(file)) if (l.type === 'assistant' && l.message?.model !== '<synthetic>') last.set(l.message.id, l.message.usage);
  const sums = { requests: last.size, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const u of last.values()) {
    sums.input += u.input_tokens;
    sums.output += u.output_tokens;
    sums.cacheRead += u.cache_read_input_tokens ?? 0;
    sums.cacheWrite += u.cache_creation_input_tokens ?? 0;
  }
  return sums;
}

interface Row {
  file: string;
  agent: string;
  requests: number;
  subagents: { files: number; requests: number };
  recorded: { input: number; output: number; cacheRead: number; cacheWrite5m: number; cacheWrite1h: number };
}
const sumsOf = (row: Row) => ({ requests: row.requests, input: row.recorded.input, output: row.recorded.output, cacheRead: row.recorded.cacheRead, cacheWrite: row.recorded.cacheWrite5m + row.recorded.cacheWrite1h });

let dir = '';
const cc = (name: string) => path.join(real, 'claude-code', name);
const short = () => sessionIdOf(cc('short.jsonl'));

beforeAll(() => {
  if (!present) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-real-folder-'));
  const put = (from: string, to: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, to));
  };
  // Claude Code names a session's file by its id.
  put(cc('short.jsonl'), `projects/-real-a/${short()}.jsonl`);
  put(cc('tool_heavy.jsonl'), `projects/-real-a/${sessionIdOf(cc('tool_heavy.jsonl'))}.jsonl`);
  put(cc('session-624a4a58.jsonl'), `projects/-real-b/${sessionIdOf(cc('session-624a4a58.jsonl'))}.jsonl`);
  // tool_heavy's lines as a subagent of the short session (flat layout of older Claude Code versions).
  // Its calls get ids of their own: the same message and request ids in two files are one call, counted once.
  const derived = linesOf(cc('tool_heavy.jsonl')).map((l) => JSON.stringify({ ...withOwnIds(l, 'derived1'), sessionId: short(), isSidechain: true, agentId: 'derived1' }));
  fs.writeFileSync(path.join(dir, 'projects/-real-a/agent-derived1.jsonl'), derived.join('\n') + '\n');
  for (const name of fs.readdirSync(path.join(real, 'codex'))) put(path.join(real, 'codex', name), `projects/codex/${name}`);
  for (const name of fs.readdirSync(path.join(real, 'gemini-cli'))) put(path.join(real, 'gemini-cli', name), `projects/gemini/chats/${name}`);
  for (const task of fs.readdirSync(path.join(real, 'cline'))) {
    for (const name of fs.readdirSync(path.join(real, 'cline', task))) put(path.join(real, 'cline', task, name), `projects/cline/${task}/${name}`);
  }
});
afterAll(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

const run = (argv: string[]) => runInProcess(analyzeCommand, argv, dir);
const rowsOf = (stdout: string) => (JSON.parse(stdout) as { sessions: Row[] }).sessions;

suite(title, () => {
  it('gives one sessions[] row per session, each with the requests and recorded sums of its own analysis', async () => {
    const folder = await run(['projects', '--json', '-']);
    expect(folder.code, folder.stderr).toBe(0);
    const record = JSON.parse(folder.stdout) as unknown;
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    const rows = rowsOf(folder.stdout);
    const sessionFiles = [
      `-real-a/${short()}.jsonl`,
      `-real-a/${sessionIdOf(cc('tool_heavy.jsonl'))}.jsonl`,
      `-real-b/${sessionIdOf(cc('session-624a4a58.jsonl'))}.jsonl`,
      ...fs.readdirSync(path.join(real, 'codex')).map((name) => `codex/${name}`),
      ...fs.readdirSync(path.join(real, 'gemini-cli')).map((name) => `gemini/chats/${name}`),
    ];
    // A Cline task's row is on the part its requests are rebuilt on; the subagent has none.
    expect(rows.filter((row) => row.agent !== 'cline-task').map((row) => row.file).sort()).toEqual([...sessionFiles].sort());
    expect(rows.filter((row) => row.agent === 'cline-task')).toHaveLength(1);
    expect(rows.some((row) => row.file.includes('agent-'))).toBe(false);
    for (const row of rows) {
      // The session opened alone (its companions with it) gives the same row.
      const alone = await run([path.join('projects', row.file), '--json', '-']);
      expect(alone.code, `${row.file}: ${alone.stderr}`).toBe(0);
      expect(rowsOf(alone.stdout).map(sumsOf), row.file).toEqual([sumsOf(row)]);
      expect((JSON.parse(alone.stdout) as { requests: unknown[] }).requests).toHaveLength(row.requests);
    }
  });

  it("counts Claude Code sessions' API calls and recorded usage as the files record them, a subagent's in its parent's row", async () => {
    const rows = rowsOf((await run(['projects', '--json', '-'])).stdout);
    const row = (file: string) => rows.find((r) => r.file === file)!;
    const withAgent = row(`-real-a/${short()}.jsonl`);
    const own = claudeCodeSums(cc('short.jsonl'));
    const agent = claudeCodeSums(cc('tool_heavy.jsonl'));
    expect(withAgent.subagents).toEqual({ files: 1, requests: agent.requests });
    expect(sumsOf(withAgent)).toEqual({
      requests: own.requests + agent.requests,
      input: own.input + agent.input,
      output: own.output + agent.output,
      cacheRead: own.cacheRead + agent.cacheRead,
      cacheWrite: own.cacheWrite + agent.cacheWrite,
    });
    expect(sumsOf(row(`-real-b/${sessionIdOf(cc('session-624a4a58.jsonl'))}.jsonl`))).toEqual(claudeCodeSums(cc('session-624a4a58.jsonl')));
    expect(sumsOf(row(`-real-a/${sessionIdOf(cc('tool_heavy.jsonl'))}.jsonl`))).toEqual(agent);
  });

  it('opens every real session file alone with exit 0', async () => {
    const files = ['claude-code', 'codex', 'gemini-cli', 'pi'].flatMap((agent) => fs.readdirSync(path.join(real, agent)).map((name) => path.join(real, agent, name)));
    for (const task of fs.readdirSync(path.join(real, 'cline'))) files.push(path.join(real, 'cline', task, 'api_conversation_history.json'));
    for (const file of files) {
      const result = await runInProcess(analyzeCommand, [file, '--json', '-'], os.tmpdir());
      expect(result.code, `${file}: ${result.stderr}`).toBe(0);
      expect((JSON.parse(result.stdout) as { requests: unknown[] }).requests.length, file).toBeGreaterThan(0);
    }
  });
});
