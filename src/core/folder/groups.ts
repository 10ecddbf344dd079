// Which files of a folder are one session, so each session is read and analysed on its own: a Claude Code session
// with its subagents' transcripts (`<session>/subagents/agent-*.jsonl`, and the flat `agent-*.jsonl` older versions
// wrote beside it, whose lines carry the parent's session id), the two halves of a Cline / Roo / Kilo task, and any
// opencode session's files (its session file and one file per message; the message parts hold no usage and are
// left out), and any other file alone. Pure: paths are relative to the folder with `/` separators; the caller peeks at the flat agent
// files' first lines (`claudeCodeSessionId`).

/**
 * The first `sessionId` a Claude Code transcript's lines carry, from the file's first bytes: whole lines only (a
 * head that is the whole file ends with a newline added by the caller).
 */
export function claudeCodeSessionId(head: string): string | null {
  const lines = head.split('\n');
  // The last piece may be a cut line: only lines that ended inside the head are parsed.
  for (const line of lines.slice(0, -1)) {
    const text = line.trim();
    if (text === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const id = (value as Record<string, unknown>)['sessionId'];
      if (typeof id === 'string' && id !== '') return id;
    }
  }
  return null;
}

const AGENT_FILE = /^agent-.+\.jsonl$/;
import { opencodeKind } from '../formats/opencode-storage.ts';

/** The files of a Cline / Roo / Kilo task folder (task_metadata.json holds no request, but is the task's). */
const TASK_PARTS = new Set(['api_conversation_history.json', 'ui_messages.json', 'task_metadata.json']);

/** Whether a file is a flat Claude Code subagent transcript, whose session the caller must peek at. */
export const isFlatAgentFile = (path: string): boolean => {
  const parts = path.split('/');
  return AGENT_FILE.test(parts[parts.length - 1] ?? '') && parts[parts.length - 2] !== 'subagents';
};

/**
 * Groups of file indices, each one session, in the order of each group's main file (a subagent whose session is
 * not in the folder is a group of its own). `sessionIdOf(i)` is asked only for flat agent files.
 */
export function sessionGroups(paths: readonly string[], sessionIdOf: (index: number) => string | null): number[][] {
  const index = new Map<string, number>();
  paths.forEach((path, i) => index.set(path, i));
  const opencode = opencodeOwners(paths);
  const ownerOf = paths.map((path, i): number => {
    const piece = opencode.get(i);
    if (piece !== undefined) return piece;
    const slash = path.lastIndexOf('/');
    const dir = slash >= 0 ? path.slice(0, slash + 1) : '';
    const base = path.slice(slash + 1);
    if (TASK_PARTS.has(base)) {
      // The task's first part in the listing owns both.
      const first = [...TASK_PARTS].map((name) => index.get(dir + name)).filter((at): at is number => at !== undefined);
      return Math.min(...first);
    }
    if (!AGENT_FILE.test(base)) return i;
    const parts = dir.split('/').filter((part) => part !== '');
    if (parts[parts.length - 1] === 'subagents' && parts.length >= 2) {
      // <dir>/<session>/subagents/agent-*.jsonl belongs to <dir>/<session>.jsonl.
      const sessionPath = [...parts.slice(0, -1)].join('/') + '.jsonl';
      return index.get(sessionPath) ?? i;
    }
    const sessionId = sessionIdOf(i);
    if (sessionId === null) return i;
    const owner = index.get(`${dir}${sessionId}.jsonl`);
    return owner !== undefined && owner !== i ? owner : i;
  });
  const groups = new Map<number, number[]>();
  // Main files first, in listing order; their subagents after them.
  for (const i of [...paths.keys()].filter((i) => ownerOf[i]! >= 0).sort((a, b) => ownerOf[a]! - ownerOf[b]! || (ownerOf[a] === a ? -1 : ownerOf[b] === b ? 1 : a - b))) {
    const owner = ownerOf[i]!;
    const group = groups.get(owner);
    if (group === undefined) groups.set(owner, [i]);
    else group.push(i);
  }
  return [...groups.values()];
}

const OPENCODE_SESSION = /(?:^|\/)ses_[^/]+(?=\.json$|\/msg_[^/]+\.json$)/;

/**
 * opencode's files, by index: the owner of the session each belongs to (its session file, else its first message
 * file), or -1 for a message part (text and tool output, no usage: not read).
 */
function opencodeOwners(paths: readonly string[]): Map<number, number> {
  const owners = new Map<number, number>();
  const sessionOf = new Map<number, string>();
  const ownerBySession = new Map<string, number>();
  paths.forEach((path, i) => {
    const kind = opencodeKind(path);
    if (kind === 'part') owners.set(i, -1);
    const id = kind === 'session' || kind === 'message' ? OPENCODE_SESSION.exec(path)?.[0].replace(/^\//, '') : undefined;
    if (id === undefined) return;
    sessionOf.set(i, id);
    if (kind === 'session' || !ownerBySession.has(id)) ownerBySession.set(id, i);
  });
  for (const [i, id] of sessionOf) owners.set(i, ownerBySession.get(id)!);
  return owners;
}
