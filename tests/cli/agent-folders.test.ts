// `ctxray analyze` with no path, in a temporary HOME laid out as each agent writes it (the real fixtures, read from
// ../shared/fixtures/real and copied into the temporary home only), and the location table itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAgentFolders } from '../../src/cli/agent-folders.ts';
import { analyzeInProcess } from './analyze-in-process.ts';
import { agentFolders, agentFoldersByPlatform, configFolderOf } from '../../src/core/agents/locations.ts';

const real = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts');
const present = fs.existsSync(real);


describe('the location table', () => {
  it('follows each agent and its environment overrides', () => {
    const ctx = { home: '/h', platform: 'linux' as const, env: {} };
    expect(agentFolders(ctx, 'claude-code').map((f) => f.path)).toEqual(['/h/.claude/projects', '/h/.config/claude/projects']);
    expect(agentFolders({ ...ctx, env: { CLAUDE_CONFIG_DIR: '/a, /b/' } }, 'claude-code').map((f) => [f.path, f.from])).toEqual([
      ['/a/projects', 'CLAUDE_CONFIG_DIR'],
      ['/b/projects', 'CLAUDE_CONFIG_DIR'],
    ]);
    expect(agentFolders({ ...ctx, env: { CODEX_HOME: '/c' } }, 'codex')[0]).toMatchObject({ path: '/c/sessions', from: 'CODEX_HOME' });
    expect(agentFolders(ctx, 'gemini-cli')[0]!.path).toBe('/h/.gemini/tmp/*/chats');
    expect(agentFolders({ ...ctx, env: { GEMINI_CLI_HOME: '/g' } }, 'gemini-cli')[0]!.path).toBe('/g/.gemini/tmp/*/chats');
    expect(agentFolders({ ...ctx, env: { PI_CODING_AGENT_DIR: '/p' } }, 'pi')[0]!.path).toBe('/p/sessions');
    expect(agentFolders(ctx, 'opencode')[0]!.path).toBe('/h/.local/share/opencode/storage');
    expect(agentFolders(ctx, 'cline')[0]!.path).toBe('/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks');
    expect(agentFolders({ home: '/Users/u', platform: 'darwin', env: {} }, 'roo')[2]!.path).toBe('/Users/u/Library/Application Support/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks');
    expect(agentFolders({ home: 'C:\\Users\\u', platform: 'win32', env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' } }, 'kilo')[1]!.path).toBe(
      'C:\\Users\\u\\AppData\\Roaming\\Code - Insiders\\User\\globalStorage\\kilocode.kilo-code\\tasks',
    );
  });

  it('gives the start page each OS in the form people type', () => {
    const [linux, mac, windows] = agentFoldersByPlatform();
    expect(linux!.folders[0]!.path).toBe('~/.claude/projects');
    expect(mac!.folders.find((f) => f.agent === 'cline')!.path).toBe('~/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/tasks');
    expect(windows!.folders.find((f) => f.agent === 'codex')!.path).toBe('%USERPROFILE%\\.codex\\sessions');
  });
});

describe('an agent config folder named in place of its sessions folder', () => {
  it("is known by its sessions folder beside one of the agent's own entries", () => {
    expect(configFolderOf(new Set(['projects', 'history.jsonl', 'settings.json']))?.agent).toBe('claude-code');
    expect(configFolderOf(new Set(['projects', 'todos']))?.sessions).toBe('projects');
    expect(configFolderOf(new Set(['sessions', 'auth.json', 'config.toml']))).toMatchObject({ agent: 'codex', sessions: 'sessions' });
    // A projects folder beside a settings file is anybody's: not taken for Claude Code's.
    expect(configFolderOf(new Set(['projects', 'settings.json', 'README.md']))).toBeNull();
    expect(configFolderOf(new Set(['history.jsonl', 'todos']))).toBeNull();
  });
});

describe.skipIf(!present)(present ? 'ctxray analyze <a config folder> (a temporary ~/.claude and CODEX_HOME)' : `config folders: SKIPPED, ${real} is absent`, () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-config-'));
    const put = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    put('.claude/projects/-home-u-demo/3b1c.jsonl', fs.readFileSync(path.join(real, 'claude-code/short.jsonl'), 'utf8'));
    // What Claude Code keeps beside its sessions (SYNTHETIC contents in its shapes): none of it is a session.
    put('.claude/history.jsonl', '{"display":"fix the tests","pastedContents":{},"timestamp":1759000000000,"project":"/home/u/demo"}\n');
    put('.claude/.credentials.json', '{"claudeAiOauth":{"accessToken":"sk-ant-oat01-SYNTHETIC"}}\n');
    put('.claude/settings.json', '{"model":"opus"}\n');
    put('.claude/todos/3b1c-agent-3b1c.json', '[{"content":"Fix bug","status":"completed","activeForm":"Fixing bug"}]\n');
    put('.codex/sessions/2026/02/23/rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl', fs.readFileSync(path.join(real, 'codex/rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl'), 'utf8'));
    put('.codex/auth.json', '{"OPENAI_API_KEY":null,"tokens":{"id_token":"SYNTHETIC"}}\n');
    put('.codex/history.jsonl', '{"session_id":"019c8a4c","ts":1771850423,"text":"hello"}\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads ~/.claude as its projects/ alone: the sessions grouped by project, nothing else opened', async () => {
    const brief = await analyzeInProcess([path.join(dir, '.claude')], {});
    expect(brief.code).toBe(0);
    expect(brief.stderr).toContain(`${path.join(dir, '.claude')} is Claude Code's config folder: reading the sessions in its projects/ only`);
    expect(brief.stderr).not.toContain('unreadable');
    const verbose = await analyzeInProcess([path.join(dir, '.claude'), '-v'], {});
    // The project is the session's own folder (was "projects" for every session, the folder above them).
    expect(verbose.stdout).toMatch(/^ {2}-home-u-demo {2,}1 /m);
    expect(verbose.stdout + verbose.stderr).not.toMatch(/history\.jsonl|credentials|settings\.json|todos/);
  }, 120_000);

  it('reads CODEX_HOME as its sessions/ alone', async () => {
    const run = await analyzeInProcess([path.join(dir, '.codex'), '-v'], {});
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("is Codex's config folder: reading the sessions in its sessions/ only");
    expect(run.stdout + run.stderr).not.toMatch(/auth\.json|history\.jsonl|unreadable/);
  }, 120_000);
});

describe.skipIf(!present)(present ? 'ctxray analyze with no path (a temporary home)' : `agent folders: SKIPPED, ${real} is absent`, () => {
  let home: string;
  const put = (rel: string, from: string) => {
    const target = path.join(home, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(real, from), target);
  };
  beforeAll(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-home-'));
    put('.claude/projects/-home-u-demo/3b1c.jsonl', 'claude-code/short.jsonl');
    put('.claude/projects/-home-u-other/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl', 'claude-code/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
    put('.codex/sessions/2026/02/23/rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl', 'codex/rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl');
    put('.gemini/tmp/9f2a77/chats/session-2026-01-16T11-01-file-ops-37b7abef.json', 'gemini-cli/session-2026-01-16T11-01-file-ops-37b7abef.json');
    // A folder that is not one: pi's sessions path holds a file.
    fs.mkdirSync(path.join(home, '.pi/agent'), { recursive: true });
    fs.writeFileSync(path.join(home, '.pi/agent/sessions'), 'not a folder');
    // Something outside the agents' folders must not be read.
    fs.writeFileSync(path.join(home, 'stray.jsonl'), '{"model":"gpt-4o","messages":[{"role":"user","content":"x"}]}\n');
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('finds Claude Code, Codex and Gemini CLI sessions and says what it looked for', () => {
    const search = searchAgentFolders({ env: { HOME: home } }, null, 'linux');
    expect(search.found.map((f) => [f.agent, path.relative(home, f.path), f.sessions])).toEqual([
      ['claude-code', '.claude/projects', 2],
      ['codex', '.codex/sessions', 1],
      ['gemini-cli', '.gemini/tmp/9f2a77/chats', 1],
    ]);
    expect(search.notRead.map((n) => [n.folder.agent, n.reason])).toEqual([['pi', 'not a folder']]);
    expect(search.absent.map((f) => f.agent)).toContain('cline');
    expect(search.absent.some((f) => f.path.endsWith(path.join('.config', 'claude', 'projects')))).toBe(true);
  });

  it('reads them as one folder analysis: every request of the three agents and nothing else', async () => {
    const result = await analyzeInProcess(['--json', '-'], { HOME: home });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Agent folders found (read below):');
    expect(result.stderr).toMatch(/Claude Code\s+\S+\.claude\/projects\s+2 sessions/);
    // Where else it looked, in one line: each agent once (the paths under -v, or when nothing was found).
    expect(result.stderr).toMatch(/^Looked for, not present: .*Cline \(\d+ places\).*; -v lists the paths$/m);
    expect(result.stderr).not.toContain('saoudrizwan.claude-dev');
    const record = JSON.parse(result.stdout) as { files: { format: string; requests: number }[] };
    expect(record.files.map((f) => f.format).sort()).toEqual(['claude-code', 'claude-code', 'codex-rollout', 'gemini-cli']);
    expect(record.files.every((f) => f.requests > 0)).toBe(true);
    expect(JSON.stringify(record)).not.toContain('stray');
  }, 120_000);

  it('narrows to one agent with --agent, and says so when that agent has no folder', async () => {
    const codex = await analyzeInProcess(['--agent', 'codex'], { HOME: home });
    expect(codex.code).toBe(0);
    expect(codex.stdout).toMatch(/Codex\s+\S+\.codex\/sessions\s+1 session,/);
    expect(codex.stdout).not.toContain('Claude Code');
    const cline = await analyzeInProcess(['--agent', 'cline'], { HOME: home });
    expect(cline.code).toBe(1);
    expect(cline.stdout).toContain('Looked for, not present:');
    expect(cline.stdout).toContain('saoudrizwan.claude-dev');
    expect(cline.stderr).toContain('no cline session folder found; give a path');
  }, 120_000);
});
