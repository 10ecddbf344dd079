// `ctxray analyze` with no path: look in the folders where the agents ctxray knows write their sessions
// (src/core/agents/locations.ts), say which were found (agent, folder, sessions, size) and which were looked for,
// and hand the found ones to the folder analysis. Nothing outside those folders is read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentById, agentFolders, AGENTS, configFolderOf, type AgentFolder, type AgentId, type Platform } from '../core/agents/locations.ts';
import { formatBytes } from '../core/text/format.ts';
import { describeFsError, listFolderSessions } from './fs/folder-inputs.ts';
import type { CliIO } from './io.ts';

export interface FoundFolder extends AgentFolder {
  sessions: number;
  bytes: number;
}

export interface AgentSearch {
  /** Folders that exist and hold sessions ctxray reads. */
  found: FoundFolder[];
  /** Folders that exist but were not analysed: unreadable, empty, or an agent whose format is not read yet. */
  notRead: { folder: AgentFolder; reason: string }[];
  /** Folders looked for and absent. */
  absent: AgentFolder[];
}

export const AGENT_NAMES: readonly AgentId[] = AGENTS.map((agent) => agent.id);

function platformOf(name: string): Platform {
  return name === 'darwin' || name === 'win32' ? name : 'linux';
}

/** `a/*\/b` → every `a/<dir>/b` that exists (one level; Gemini CLI's project hashes), sorted. */
function expand(folder: AgentFolder): AgentFolder[] {
  const parts = folder.path.split(/[\\/]/);
  const star = parts.indexOf('*');
  if (star < 0) return [folder];
  const sep = folder.path.includes('\\') && !folder.path.includes('/') ? '\\' : '/';
  const parent = parts.slice(0, star).join(sep);
  let names: string[];
  try {
    names = fs.readdirSync(parent, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  } catch {
    return [folder];
  }
  const found = names.map((name) => ({ ...folder, path: [parent, name, ...parts.slice(star + 1)].join(sep) })).filter((f) => fs.existsSync(f.path));
  return found.length > 0 ? found : [folder];
}

function examine(folder: AgentFolder, search: AgentSearch): void {
  if (folder.path.split(/[\\/]/).includes('*')) {
    search.absent.push(folder);
    return;
  }
  let stats: fs.Stats;
  try {
    stats = fs.statSync(folder.path);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? (error as NodeJS.ErrnoException).code : '';
    if (code === 'ENOENT' || code === 'ENOTDIR') search.absent.push(folder);
    else search.notRead.push({ folder, reason: describeFsError(error) });
    return;
  }
  if (!stats.isDirectory()) {
    search.notRead.push({ folder, reason: 'not a folder' });
    return;
  }
  const listing = listFolderSessions(folder.path, folder.path);
  const bytes = listing.sessions.flat().reduce((sum, file) => sum + file.size, 0);
  if (agentById(folder.agent)?.readable === false) {
    search.notRead.push({ folder, reason: `${listing.sessions.length} file(s), ${formatBytes(bytes)}: ctxray does not read this agent's format yet` });
  } else if (listing.sessions.length === 0) {
    search.notRead.push({ folder, reason: listing.skipped.length > 0 ? `cannot be read (${listing.skipped[0]})` : 'no .jsonl, .json or .gz file in it' });
  } else {
    search.found.push({ ...folder, sessions: listing.sessions.length, bytes });
  }
}

/** Looks in every default folder of `only` (or of every agent) for the user `io.env` describes. */
export function searchAgentFolders(io: Pick<CliIO, 'env'>, only: AgentId | null, platform: string = process.platform): AgentSearch {
  const kind = platformOf(platform);
  const home = (kind === 'win32' ? io.env['USERPROFILE'] : undefined) ?? io.env['HOME'] ?? os.homedir();
  const search: AgentSearch = { found: [], notRead: [], absent: [] };
  const seen = new Set<string>();
  for (const folder of agentFolders({ env: io.env, home: path.resolve(home), platform: kind }, only).flatMap(expand)) {
    if (seen.has(folder.path)) continue;
    seen.add(folder.path);
    examine(folder, search);
    if (folder.agent === 'opencode') opencodeDatabase(folder, search);
  }
  return search;
}

/**
 * Newer opencode versions keep their sessions in an SQLite database beside the storage folder (copying the folder
 * into it once, storage/json-migration.ts): said when present, since what they wrote since is not in the folder.
 */
function opencodeDatabase(storage: AgentFolder, search: AgentSearch): void {
  const database = path.join(path.dirname(storage.path), 'opencode.db');
  if (!fs.existsSync(database)) return;
  search.notRead.push({ folder: { ...storage, path: database }, reason: 'the SQLite database newer opencode versions keep their sessions in: not read (the storage folder holds what earlier versions wrote)' });
}

const nameOf = (id: AgentId) => agentById(id)?.name ?? id;

/**
 * The sessions folder of an agent's config folder (`~/.claude` → `~/.claude/projects`), when `full` is one: it holds
 * the sessions folder and one of the agent's markers (core/agents/locations.ts, CONFIG_FOLDERS). Null otherwise.
 */
export function configFolderSessions(full: string): { agent: string; sessions: string; name: string } | null {
  let names: string[];
  try {
    names = fs.readdirSync(full);
  } catch {
    return null;
  }
  const config = configFolderOf(new Set(names));
  if (config === null) return null;
  const sessions = path.join(full, config.sessions);
  try {
    if (!fs.statSync(sessions).isDirectory()) return null;
  } catch {
    return null;
  }
  return { agent: nameOf(config.agent), sessions, name: config.sessions };
}

/** Where else was looked, one line: each agent once with how many places (the paths under -v). */
function absentBrief(absent: readonly AgentFolder[]): string {
  const places = new Map<string, number>();
  for (const folder of absent) places.set(nameOf(folder.agent), (places.get(nameOf(folder.agent)) ?? 0) + 1);
  const agents = [...places].map(([name, n]) => (n === 1 ? name : `${name} (${n} places)`)).join(', ');
  return `Looked for, not present: ${agents}; -v lists the paths`;
}

/**
 * The search as the user reads it: what was found, what was not read and why, and where else was looked — every
 * path when `verbose` or when nothing was found (then the paths are the answer), else one line.
 */
export function renderAgentSearch(search: AgentSearch, options: { verbose: boolean }): string {
  const lines: string[] = [];
  if (search.found.length > 0) {
    lines.push('Agent folders found (read below):');
    const width = Math.max(...search.found.map((f) => nameOf(f.agent).length));
    for (const f of search.found) {
      const via = f.from === 'default' ? '' : ` (from ${f.from})`;
      lines.push(`  ${nameOf(f.agent).padEnd(width)}  ${f.path}${via}  ${f.sessions} session${f.sessions === 1 ? '' : 's'}, ${formatBytes(f.bytes)}`);
    }
  }
  if (search.notRead.length > 0) {
    lines.push('Found but not read:');
    for (const { folder, reason } of search.notRead) lines.push(`  ${nameOf(folder.agent)}  ${folder.path}: ${reason}`);
  }
  if (search.absent.length > 0 && !options.verbose && search.found.length > 0) lines.push(absentBrief(search.absent));
  else if (search.absent.length > 0) {
    lines.push('Looked for, not present:');
    for (const folder of search.absent) lines.push(`  ${nameOf(folder.agent)}  ${folder.path}${folder.from === 'default' ? '' : ` (from ${folder.from})`}`);
  }
  return `${lines.join('\n')}\n`;
}
