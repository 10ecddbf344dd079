// `ctxray analyze <dir>`: the log files of a folder, recursively. Sorted so every run reads them in the same
// order; files that cannot be listed or read are reported and skipped, never fatal (a folder of a thousand
// transcripts should not fail on one). Symbolic links to folders are not followed (they can loop).
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { claudeCodeSessionId, isFlatAgentFile, sessionGroups } from '../../core/folder/index.ts';
import { opencodeKind } from '../../core/formats/opencode-storage.ts';
import type { InputFile } from '../../core/input/index.ts';

/** Extensions read from a folder: JSONL, JSON, gzipped either. */
export const FOLDER_EXTENSIONS: readonly string[] = ['.jsonl', '.json', '.gz'];
/**
 * More files than this in one folder is almost certainly the wrong folder: the rest are reported, not read. A
 * heavy user's Claude Code history is tens of thousands of files (each subagent run is a file of its own): at
 * 20,000, a folder of 30,000 sessions was summed from two thirds of them.
 */
export const MAX_FOLDER_FILES = 200_000;

export interface FolderFile {
  /** Path as shown to the user: the folder as given, joined with the path inside it. */
  name: string;
  full: string;
  size: number;
}

export interface FolderListing {
  files: FolderFile[];
  /** "<name>: <reason>" for every entry that could not be listed or read. */
  skipped: string[];
  /** Files beyond MAX_FOLDER_FILES, left unread. */
  leftOut: number;
}

const wanted = (name: string) => FOLDER_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function reason(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String((error as NodeJS.ErrnoException).code) : '';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'no such file';
  if (code === 'ENAMETOOLONG') return 'path too long (ENAMETOOLONG)';
  if (code === 'ELOOP') return 'too many symbolic links (ELOOP)';
  return code !== '' ? code : 'cannot be read';
}

/** Why a folder yielded nothing, from its skipped entries: "3 × permission denied, 1 × path too long (ENAMETOOLONG)". */
export function skipCauses(skipped: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const line of skipped) {
    const cause = line.slice(line.lastIndexOf(': ') + 2);
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  return [...counts].map(([cause, n]) => `${n} × ${cause}`).join(', ');
}

/** Why a named input cannot be read, for its message. */
export function describeFsError(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String((error as NodeJS.ErrnoException).code) : '';
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/** Every wanted file under `full` (shown as `shown`), depth first in sorted order. */
export function listFolder(full: string, shown: string, limit: number = MAX_FOLDER_FILES): FolderListing {
  const listing: FolderListing = { files: [], skipped: [], leftOut: 0 };
  const visit = (dir: string, dirShown: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      listing.skipped.push(`${dirShown}: ${reason(error)}`);
      return;
    }
    entries.sort((a, b) => byCodeUnit(a.name, b.name));
    for (const entry of entries) {
      const entryFull = path.join(dir, entry.name);
      const entryShown = path.join(dirShown, entry.name);
      if (entry.isDirectory()) {
        visit(entryFull, entryShown);
        continue;
      }
      if (!wanted(entry.name) || !(entry.isFile() || entry.isSymbolicLink())) continue;
      // opencode's message parts (text and tool output, no usage; several per message) are not read: left out
      // before the file limit, so they never crowd out the message files.
      if (opencodeKind(entryFull) === 'part') continue;
      let stats: fs.Stats;
      try {
        stats = fs.statSync(entryFull);
        if (!stats.isFile()) continue; // a link to a folder or a device
        fs.accessSync(entryFull, fs.constants.R_OK);
      } catch (error) {
        listing.skipped.push(`${entryShown}: ${reason(error)}`);
        continue;
      }
      if (listing.files.length >= limit) listing.leftOut++;
      else listing.files.push({ name: entryShown, full: entryFull, size: stats.size });
    }
  };
  visit(full, shown);
  return listing;
}

/**
 * A stream that opens its file on the first read, so a folder of thousands of files does not hold thousands of
 * descriptors open while the files before it are read. A file that vanished or turned unreadable since it was
 * listed reads as empty, and is then reported like any file without requests.
 */
export function lazyFileStream(full: string): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          reader ??= (Readable.toWeb(fs.createReadStream(full)) as ReadableStream<Uint8Array>).getReader();
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch {
          controller.close();
        }
      },
      cancel(why) {
        return reader?.cancel(why);
      },
    },
    // A high-water mark of 0: no pull (no open) until the first read; the default of 1 pulls as the stream is made.
    { highWaterMark: 0 },
  );
}

/** A file of a session: where it is, and its path inside the folder given (what the session tables group by). */
export interface SessionFile extends FolderFile {
  folderPath: string;
}

/**
 * A session's files as inputs, each opened when the read first asks for its bytes (not when the inputs are made):
 * a lazyFileStream unless `open` gives other bytes (the summary's whole files, read into one reused buffer).
 */
export function lazyInputs(files: readonly SessionFile[], open: (file: SessionFile) => InputFile['bytes'] = (file) => lazyFileStream(file.full)): InputFile[] {
  return files.map((file) => {
    let bytes: InputFile['bytes'] | null = null;
    return {
      name: file.name,
      size: file.size,
      folderPath: file.folderPath,
      get bytes() {
        return (bytes ??= open(file));
      },
    };
  });
}

/** Bytes of a file's start read to find the session id its lines carry (a Claude Code line is rarely longer). */
const HEAD_BYTES = 64 * 1024;

/**
 * The session id a Claude Code transcript's first lines carry, or null (unreadable, not a transcript, not a regular
 * file: a named pipe is never read here, that would block and take the bytes its analysis needs).
 */
export function peekSessionId(full: string): string | null {
  let fd: number | null = null;
  try {
    if (!fs.statSync(full).isFile()) return null;
    fd = fs.openSync(full, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = fs.readSync(fd, buffer, 0, HEAD_BYTES, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    // Read to its end, the file's last line is whole even without a final newline.
    return claudeCodeSessionId(read < HEAD_BYTES ? `${text}\n` : text);
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/**
 * Files an agent keeps beside a session file, which its analysis needs: a Claude Code session's subagent
 * transcripts (`<session>/subagents/agent-*.jsonl` next to `<session>.jsonl`, and the flat `agent-*.jsonl` older
 * versions wrote in the same folder, when their lines carry this session's id) and the other half of a Cline / Roo /
 * Kilo task (`api_conversation_history.json` ↔ `ui_messages.json`). Shown names are relative to the given one's.
 */
export function companionFiles(full: string, shown: string): FolderFile[] {
  const dir = path.dirname(full);
  const shownDir = path.dirname(shown);
  const base = path.basename(full);
  const found: FolderFile[] = [];
  const add = (fileFull: string, fileShown: string) => {
    try {
      const stats = fs.statSync(fileFull);
      if (stats.isFile()) found.push({ name: fileShown, full: fileFull, size: stats.size });
    } catch {
      // Absent or unreadable: the reader reports what the analysis then lacks.
    }
  };
  const agentNames = (folder: string) => {
    try {
      return fs.readdirSync(folder).filter((name) => /^agent-.+\.jsonl$/.test(name)).sort(byCodeUnit);
    } catch {
      return [];
    }
  };
  const partner = { 'api_conversation_history.json': 'ui_messages.json', 'ui_messages.json': 'api_conversation_history.json' }[base];
  if (partner !== undefined) add(path.join(dir, partner), path.join(shownDir, partner));
  if (base.endsWith('.jsonl') && !base.startsWith('agent-')) {
    const stem = base.slice(0, -'.jsonl'.length);
    const subagents = path.join(dir, stem, 'subagents');
    for (const name of agentNames(subagents)) add(path.join(subagents, name), path.join(shownDir, stem, 'subagents', name));
    // Claude Code names a session's file by its id; the id its lines carry decides when the file was renamed.
    const flat = agentNames(dir);
    const ids = new Set(flat.length > 0 ? [stem, peekSessionId(full) ?? stem] : []);
    for (const name of flat) {
      const agentFull = path.join(dir, name);
      const id = peekSessionId(agentFull);
      if (id !== null && ids.has(id)) add(agentFull, path.join(shownDir, name));
    }
  }
  return found;
}

/** A folder's files as sessions (src/core/folder/groups.ts), each file with its path inside the folder. */
export interface FolderSessions {
  sessions: SessionFile[][];
  skipped: string[];
  leftOut: number;
}

export function listFolderSessions(full: string, shown: string, limit: number = MAX_FOLDER_FILES): FolderSessions {
  const listing = listFolder(full, shown, limit);
  const files = listing.files.map((file) => ({ ...file, folderPath: path.relative(full, file.full).split(path.sep).join('/') }));
  const groups = sessionGroups(
    files.map((file) => file.folderPath),
    (i) => (isFlatAgentFile(files[i]!.folderPath) ? peekSessionId(files[i]!.full) : null),
  );
  return { sessions: groups.map((group) => group.map((i) => files[i]!)), skipped: listing.skipped, leftOut: listing.leftOut };
}
