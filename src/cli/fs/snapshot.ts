// Input snapshots for change detection: size, mtime and inode of every input file, every directory walked
// (including the names it holds) and every ABSENT companion (a SQLite -wal/-shm/-journal appearing later counts
// as a change). Taken before reading and compared after; a changed snapshot makes the analysis incomplete.
// This is change detection, not an atomic cross-file backup: a writer that restores metadata is not caught.
import fs from 'node:fs';
import path from 'node:path';
import { foldName, SQLITE_COMPANION_SUFFIXES } from './safe-output.ts';

type EntryKind = 'file' | 'directory' | 'absent' | 'other';

interface SnapshotEntry {
  path: string;
  kind: EntryKind;
  /** bigint stat fields as decimal strings (inode numbers and nanosecond mtimes can exceed 2^53). */
  dev: string;
  ino: string;
  size: string;
  mtimeNs: string;
  /** Sorted entry names, for directories. */
  children?: string[];
}

/** Opaque to callers (it holds paths: keep it in memory, never print it). */
export interface Snapshot {
  readonly entries: readonly SnapshotEntry[];
  /**
   * Per database spelling: the names in its directory that are a companion name ignoring case (`History.sqlite-WAL`
   * next to `history.sqlite`), as the output rules compare them. One appearing later counts as a change even on a
   * case-sensitive filesystem, where SQLite would not use it but a case-insensitive copy of the folder would.
   */
  readonly companionNames?: readonly { dir: string; base: string; names: string[] }[];
}

/** The names in `dir` equal to `base` + a companion suffix, compared with foldName; sorted. */
function companionNamesIn(dir: string, base: string): string[] {
  const wanted = new Set(SQLITE_COMPANION_SUFFIXES.map((suffix) => foldName(base + suffix)));
  try {
    return fs.readdirSync(dir).filter((name) => wanted.has(foldName(name))).sort();
  } catch {
    return [];
  }
}

export interface SnapshotOptions {
  /** SQLite databases whose companions must stay absent (or unchanged, if present). */
  companionsOf?: string | readonly string[];
  /** Upper bound on recorded entries, so a huge tree fails clearly instead of exhausting memory. */
  maxEntries?: number;
}

export const DEFAULT_SNAPSHOT_MAX_ENTRIES = 1_000_000;

function record(p: string): SnapshotEntry {
  let stats: fs.BigIntStats;
  try {
    stats = fs.statSync(p, { bigint: true });
  } catch {
    return { path: p, kind: 'absent', dev: '', ino: '', size: '', mtimeNs: '' };
  }
  const kind: EntryKind = stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
  const entry: SnapshotEntry = {
    path: p,
    kind,
    dev: String(stats.dev),
    ino: String(stats.ino),
    size: String(stats.size),
    mtimeNs: String(stats.mtimeNs),
  };
  if (kind === 'directory') {
    try {
      entry.children = fs.readdirSync(p).sort();
    } catch {
      entry.children = [];
    }
  }
  return entry;
}

/** Records the given paths, everything beneath given directories, and the companion names of `companionsOf`. */
export function takeSnapshot(paths: readonly string[], options: SnapshotOptions = {}): Snapshot {
  const limit = options.maxEntries ?? DEFAULT_SNAPSHOT_MAX_ENTRIES;
  const entries: SnapshotEntry[] = [];
  const seen = new Set<string>();
  const visitedDirs = new Set<string>(); // dev:ino, so symlink cycles are walked once
  const add = (p: string): SnapshotEntry | null => {
    const absolute = path.resolve(p);
    if (seen.has(absolute)) return null;
    if (entries.length >= limit) throw new Error(`snapshot limit: more than ${limit} files and directories under the inputs`);
    seen.add(absolute);
    const entry = record(absolute);
    entries.push(entry);
    return entry;
  };

  const pending = [...paths];
  while (pending.length > 0) {
    const entry = add(pending.pop()!);
    if (entry?.kind !== 'directory') continue;
    const identity = `${entry.dev}:${entry.ino}`;
    if (visitedDirs.has(identity)) continue;
    visitedDirs.add(identity);
    for (const child of entry.children ?? []) pending.push(path.join(entry.path, child));
  }

  const companionNames: { dir: string; base: string; names: string[] }[] = [];
  const databases = options.companionsOf === undefined ? [] : typeof options.companionsOf === 'string' ? [options.companionsOf] : options.companionsOf;
  for (const database of databases) {
    // SQLite may place companions next to the path as given or next to its resolved target: watch both.
    const spellings = new Set([path.resolve(database)]);
    try {
      spellings.add(fs.realpathSync.native(database));
    } catch {
      // A missing database has only the spelling given.
    }
    for (const spelling of spellings) {
      for (const suffix of SQLITE_COMPANION_SUFFIXES) add(spelling + suffix);
      companionNames.push({ dir: path.dirname(spelling), base: path.basename(spelling), names: companionNamesIn(path.dirname(spelling), path.basename(spelling)) });
    }
  }
  return { entries, companionNames };
}

function sameEntry(before: SnapshotEntry, now: SnapshotEntry): boolean {
  return (
    before.kind === now.kind &&
    before.dev === now.dev &&
    before.ino === now.ino &&
    before.size === now.size &&
    before.mtimeNs === now.mtimeNs &&
    (before.children ?? []).join('\0') === (now.children ?? []).join('\0')
  );
}

/** How many recorded entries differ now (appeared, vanished, resized, touched, replaced, or gained/lost names). */
export function countSnapshotChanges(snapshot: Snapshot): number {
  let changed = 0;
  for (const entry of snapshot.entries) if (!sameEntry(entry, record(entry.path))) changed++;
  for (const { dir, base, names } of snapshot.companionNames ?? []) {
    if (companionNamesIn(dir, base).join('\0') !== names.join('\0')) changed++;
  }
  return changed;
}

export function snapshotChanged(snapshot: Snapshot): boolean {
  return countSnapshotChanges(snapshot) > 0;
}
