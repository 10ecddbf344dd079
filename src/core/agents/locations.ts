// Where each agent ctxray knows keeps its logs, per OS, with the environment overrides the agent itself reads: one
// table for the CLI (`ctxray analyze` with no path looks there) and the app's start page (it says where to look).
// Each entry is taken from the agent's own source or docs (docs/transcripts.md, "Where the logs are"). Pure: the
// caller passes the environment, home folder and platform; nothing here touches a file system.

export type AgentId = 'claude-code' | 'codex' | 'gemini-cli' | 'pi' | 'opencode' | 'cline' | 'roo' | 'kilo';
export type Platform = 'linux' | 'darwin' | 'win32';

export interface AgentInfo {
  id: AgentId;
  name: string;
  /** ctxray reads this agent's session files (an agent it can only find and name would be false). */
  readable: boolean;
}

export const AGENTS: readonly AgentInfo[] = [
  { id: 'claude-code', name: 'Claude Code', readable: true },
  { id: 'codex', name: 'Codex', readable: true },
  { id: 'gemini-cli', name: 'Gemini CLI', readable: true },
  { id: 'pi', name: 'pi', readable: true },
  { id: 'opencode', name: 'opencode', readable: true },
  { id: 'cline', name: 'Cline', readable: true },
  { id: 'roo', name: 'Roo Code', readable: true },
  { id: 'kilo', name: 'Kilo Code', readable: true },
];

/** One place an agent writes its sessions. `*` in `path` is one folder level of any name (Gemini's project hashes). */
export interface AgentFolder {
  agent: AgentId;
  /** Absolute path, with the platform's separator. */
  path: string;
  /** Why this path: the environment variable that gave it, or "default". */
  from: string;
}

export interface LocationContext {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  platform: Platform;
}

// VS Code extension ids (their globalStorage folders) and the editors that host them.
const EXTENSIONS: Record<'cline' | 'roo' | 'kilo', string> = { cline: 'saoudrizwan.claude-dev', roo: 'rooveterinaryinc.roo-cline', kilo: 'kilocode.kilo-code' };
const EDITORS = ['Code', 'Code - Insiders', 'Cursor', 'Windsurf', 'VSCodium'];

const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

function joiner(platform: Platform): (...parts: string[]) => string {
  const sep = platform === 'win32' ? '\\' : '/';
  return (...parts) => parts.map((part, i) => (i === 0 ? part.replace(/[\\/]+$/, '') : part.replace(/^[\\/]+|[\\/]+$/g, ''))).join(sep);
}

/** The user's config folder: XDG on Linux, Application Support on macOS, %APPDATA% on Windows. */
function configHome({ env, home, platform }: LocationContext): string {
  const join = joiner(platform);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  if (platform === 'win32') return set(env['APPDATA']) ? env['APPDATA'] : join(home, 'AppData', 'Roaming');
  return set(env['XDG_CONFIG_HOME']) ? env['XDG_CONFIG_HOME'] : join(home, '.config');
}

function claudeCode(ctx: LocationContext): AgentFolder[] {
  const join = joiner(ctx.platform);
  // Claude Code reads CLAUDE_CONFIG_DIR; ccusage reads it as a comma-separated list of config folders.
  const configured = ctx.env['CLAUDE_CONFIG_DIR'];
  if (set(configured)) {
    return configured.split(',').map((dir) => dir.trim()).filter((dir) => dir !== '').map((dir) => ({ agent: 'claude-code', path: join(dir, 'projects'), from: 'CLAUDE_CONFIG_DIR' }));
  }
  const xdg = set(ctx.env['XDG_CONFIG_HOME']) ? ctx.env['XDG_CONFIG_HOME'] : join(ctx.home, '.config');
  return [
    { agent: 'claude-code', path: join(ctx.home, '.claude', 'projects'), from: 'default' },
    { agent: 'claude-code', path: join(xdg, 'claude', 'projects'), from: 'default' },
  ];
}

function codex(ctx: LocationContext): AgentFolder[] {
  const join = joiner(ctx.platform);
  const home = ctx.env['CODEX_HOME'];
  return [{ agent: 'codex', path: join(set(home) ? home : join(ctx.home, '.codex'), 'sessions'), from: set(home) ? 'CODEX_HOME' : 'default' }];
}

function geminiCli(ctx: LocationContext): AgentFolder[] {
  const join = joiner(ctx.platform);
  // gemini-cli's homedir() is GEMINI_CLI_HOME when set; its storage is <home>/.gemini/tmp/<project hash>/chats.
  const home = ctx.env['GEMINI_CLI_HOME'];
  return [{ agent: 'gemini-cli', path: join(set(home) ? home : ctx.home, '.gemini', 'tmp', '*', 'chats'), from: set(home) ? 'GEMINI_CLI_HOME' : 'default' }];
}

function pi(ctx: LocationContext): AgentFolder[] {
  const join = joiner(ctx.platform);
  const dir = ctx.env['PI_CODING_AGENT_DIR'];
  return [{ agent: 'pi', path: join(set(dir) ? dir : join(ctx.home, '.pi', 'agent'), 'sessions'), from: set(dir) ? 'PI_CODING_AGENT_DIR' : 'default' }];
}

function opencode(ctx: LocationContext): AgentFolder[] {
  const join = joiner(ctx.platform);
  // opencode's Global.Path.data is xdg-basedir's data folder (XDG_DATA_HOME, else ~/.local/share) on every OS.
  const data = ctx.env['XDG_DATA_HOME'];
  return [{ agent: 'opencode', path: join(set(data) ? data : join(ctx.home, '.local', 'share'), 'opencode', 'storage'), from: set(data) ? 'XDG_DATA_HOME' : 'default' }];
}

function vscodeTasks(agent: 'cline' | 'roo' | 'kilo', ctx: LocationContext): AgentFolder[] {
  const join = joiner(ctx.platform);
  const base = configHome(ctx);
  const from = ctx.platform === 'win32' && set(ctx.env['APPDATA']) ? 'APPDATA' : ctx.platform === 'linux' && set(ctx.env['XDG_CONFIG_HOME']) ? 'XDG_CONFIG_HOME' : 'default';
  return EDITORS.map((editor) => ({ agent, path: join(base, editor, 'User', 'globalStorage', EXTENSIONS[agent], 'tasks'), from }));
}

/** Every folder to look in, for one agent or all, in AGENTS order. */
export function agentFolders(ctx: LocationContext, only: AgentId | null = null): AgentFolder[] {
  const of: Record<AgentId, () => AgentFolder[]> = {
    'claude-code': () => claudeCode(ctx),
    codex: () => codex(ctx),
    'gemini-cli': () => geminiCli(ctx),
    pi: () => pi(ctx),
    opencode: () => opencode(ctx),
    cline: () => vscodeTasks('cline', ctx),
    roo: () => vscodeTasks('roo', ctx),
    kilo: () => vscodeTasks('kilo', ctx),
  };
  return AGENTS.filter((agent) => only === null || agent.id === only).flatMap((agent) => of[agent.id]());
}

/**
 * An agent's own config folder, which a person may name in place of the sessions folder inside it (`ctxray analyze
 * ~/.claude`, the folder ccusage calls CLAUDE_CONFIG_DIR): where in it the sessions are, and entries only that
 * agent's config folder holds (a folder with a `projects` subfolder alone is not taken for Claude Code's). The rest
 * of such a folder is settings, prompt history and credentials, never read.
 */
export interface ConfigFolder {
  agent: AgentId;
  /** The sessions folder's name inside it. */
  sessions: string;
  /** Files or folders the agent writes beside its sessions (any one is enough). */
  markers: readonly string[];
}

export const CONFIG_FOLDERS: readonly ConfigFolder[] = [
  // Claude Code: projects/ beside its prompt history, credentials, todo lists and shell snapshots.
  { agent: 'claude-code', sessions: 'projects', markers: ['history.jsonl', '.credentials.json', 'todos', 'statsig', 'shell-snapshots', 'session-env', 'file-history'] },
  // Codex (CODEX_HOME): sessions/ beside auth.json, config.toml, version.json and log/.
  { agent: 'codex', sessions: 'sessions', markers: ['auth.json', 'config.toml', 'version.json', 'log'] },
];

/** The config folder whose top-level entries (names of its files and folders) these are, or null. */
export function configFolderOf(topLevel: ReadonlySet<string>): ConfigFolder | null {
  return CONFIG_FOLDERS.find((config) => topLevel.has(config.sessions) && config.markers.some((marker) => topLevel.has(marker))) ?? null;
}

export function agentById(id: string): AgentInfo | undefined {
  return AGENTS.find((agent) => agent.id === id);
}

/** The folders as a person would type them on each OS (`~`, `%APPDATA%`), for the app's start page. */
export function agentFoldersByPlatform(): { platform: Platform; label: string; folders: AgentFolder[] }[] {
  const labels: Record<Platform, string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };
  return (['linux', 'darwin', 'win32'] as const).map((platform) => ({
    platform,
    label: labels[platform],
    folders: agentFolders({ platform, home: platform === 'win32' ? '%USERPROFILE%' : '~', env: platform === 'win32' ? { APPDATA: '%APPDATA%' } : {} }),
  }));
}
