// A `~/.claude/projects`-shaped folder built from the real Claude Code fixtures (../shared/fixtures/real, not in
// the repository): each fixture session copied `copies` times with its session id, message ids and request ids
// rewritten per copy (so no call is a copy of another, as in a real history), spread over `projects` project
// folders. Each copy of a 2.x session with no subagent of its own gets one beside it
// (`<session>/subagents/agent-<id>.jsonl`): a DERIVED file, the lines of the 2.1.38 tool_heavy fixture marked as the
// subagent's (isSidechain, agentId, the parent's session id; ids rewritten). Used by the bench's
// `claude-projects-real-summary` case and to compare with ccusage by hand (docs/performance.md).
//   node --import tsx scripts/bench/real-folder.ts <out dir> [copies] [projects]
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RealFolder {
  path: string;
  bytes: number;
  sessions: number;
  files: number;
}

const SESSION_ID = /"sessionId":"([0-9a-f-]{36})"/;

/** The copy's own id: the original with its last group replaced by the copy number (still a UUID's shape). */
const copyUuid = (uuid: string, copy: number, salt: number) => `${uuid.slice(0, 24)}${(salt * 0x10000 + copy).toString(16).padStart(12, '0')}`;

function rewrite(text: string, sessionId: string, newSessionId: string, tag: string): string {
  return text
    .split(sessionId)
    .join(newSessionId)
    .replace(/"(msg_[A-Za-z0-9_]+)"/g, `"$1${tag}"`)
    .replace(/"requestId":"(req_[A-Za-z0-9_]+)"/g, `"requestId":"$1${tag}"`);
}

/** The tool_heavy fixture's lines as a subagent's own transcript of the session `sessionId`. */
function subagentOf(text: string, sessionId: string, agentId: string, tag: string): string {
  const own = SESSION_ID.exec(text)![1]!;
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (value['type'] === 'user' || value['type'] === 'assistant' || value['type'] === 'system' || value['type'] === 'progress') {
        value['isSidechain'] = true;
        value['agentId'] = agentId;
      }
      return rewrite(JSON.stringify(value), own, sessionId, tag);
    })
    .join('\n')
    .concat('\n');
}

export function buildRealFolder(fixtures: string, out: string, copies = 40, projects = 8): RealFolder {
  const names = readdirSync(fixtures)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
  const texts = names.map((name) => readFileSync(join(fixtures, name), 'utf8'));
  const subagentSource = texts[names.indexOf('tool_heavy.jsonl')] ?? null;
  rmSync(out, { recursive: true, force: true });
  let sessions = 0;
  let files = 0;
  let bytes = 0;
  const write = (path: string, text: string) => {
    writeFileSync(path, text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  for (let copy = 0; copy < copies; copy++) {
    texts.forEach((text, f) => {
      const sessionId = SESSION_ID.exec(text)![1]!;
      const newId = copyUuid(sessionId, copy, f);
      const project = join(out, 'projects', `-Users-user-project-${(sessions % projects) + 1}`);
      mkdirSync(project, { recursive: true });
      write(join(project, `${newId}.jsonl`), rewrite(text, sessionId, newId, `c${copy}`));
      sessions++;
      const v2 = /"version":"2\./.test(text);
      if (subagentSource !== null && v2 && names[f] !== 'tool_heavy.jsonl') {
        const agentId = `a${copy.toString(16).padStart(4, '0')}${f}`;
        mkdirSync(join(project, newId, 'subagents'), { recursive: true });
        write(join(project, newId, 'subagents', `agent-${agentId}.jsonl`), subagentOf(subagentSource, newId, agentId, `c${copy}s${f}`));
      }
    });
  }
  return { path: join(out, 'projects'), bytes, sessions, files };
}

/** The folder under `dir`, built once (again when the fixtures are newer). Null without the fixtures. */
export function realFolderInput(root: string, dir: string, copies = 40): RealFolder | null {
  const fixtures = join(root, '../shared/fixtures/real/transcripts/claude-code');
  if (!existsSync(fixtures)) return null;
  const out = join(dir, `claude-real-${copies}`);
  const done = join(out, 'built.json');
  if (existsSync(done) && statSync(done).mtimeMs > statSync(fixtures).mtimeMs) return JSON.parse(readFileSync(done, 'utf8')) as RealFolder;
  const folder = buildRealFolder(fixtures, out, copies);
  writeFileSync(done, JSON.stringify(folder));
  return folder;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out, copies = '40', projects = '8'] = process.argv.slice(2);
  if (out === undefined) throw new Error('usage: real-folder.ts <out dir> [copies] [projects]');
  const fixtures = join(fileURLToPath(new URL('../..', import.meta.url)), '../shared/fixtures/real/transcripts/claude-code');
  const folder = buildRealFolder(fixtures, out, Number(copies), Number(projects));
  console.log(`${folder.path}: ${folder.sessions} sessions, ${folder.files} files, ${(folder.bytes / 1e6).toFixed(1)} MB`);
}
