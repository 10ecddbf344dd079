// A dropped folder opens every log file in it, recursively (DataTransferItem.webkitGetAsEntry): `.jsonl`, `.json`
// and `.gz` files, in sorted path order, named by their path inside the folder. Files dropped on their own are
// opened whatever their name, as before. Nothing is uploaded: the files go to the worker like chosen files.
import type { InputBlob } from '../worker/inputs.ts';

/** The extensions read from inside a dropped folder (the CLI reads the same, src/cli/fs/folder-inputs.ts). */
const FOLDER_EXTENSIONS = ['.jsonl', '.json', '.gz'];
/** A folder with more files than this is cut off rather than freezing the page while it is listed. */
export const MAX_DROPPED_FILES = 20_000;

export interface DroppedFiles {
  inputs: InputBlob[];
  /** Entries that could not be read (listed to the user; never fatal). */
  skipped: string[];
}

/** Whether a file inside a dropped folder is read as a request log. */
export const isLogFileName = (name: string) => FOLDER_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const pathOf = (entry: FileSystemEntry) => entry.fullPath.replace(/^\//, '') || entry.name;

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every entry of a folder: readEntries returns them in batches until an empty one. */
async function childrenOf(folder: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = folder.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

const isFolder = (entry: FileSystemEntry): entry is FileSystemDirectoryEntry => entry.isDirectory;
const isFile = (entry: FileSystemEntry): entry is FileSystemFileEntry => entry.isFile;

/**
 * Takes the entries synchronously (a DataTransfer is emptied when the drop handler returns), then reads folders.
 * Returns null when the drop holds no folder, so the caller keeps using `dataTransfer.files`.
 */
export function droppedEntries(transfer: DataTransfer | null): FileSystemEntry[] | null {
  if (transfer === null) return null;
  const entries: FileSystemEntry[] = [];
  for (const item of [...transfer.items]) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry === null) return null;
    entries.push(entry);
  }
  return entries.some(isFolder) ? entries : null;
}

/** `accept` picks the files read from inside folders (log files by default; every file for a clearing case). */
export async function readDroppedEntries(entries: readonly FileSystemEntry[], limit: number = MAX_DROPPED_FILES, accept: (name: string) => boolean = isLogFileName): Promise<DroppedFiles> {
  const found: { path: string; folderPath: string; entry: FileSystemFileEntry }[] = [];
  const skipped: string[] = [];
  let leftOut = 0;
  /** `root`: the path of the dropped folder the entry is in (its files' folderPath is the path below it). */
  const visit = async (entry: FileSystemEntry, topLevel: boolean, root: string): Promise<void> => {
    if (isFolder(entry)) {
      let children: FileSystemEntry[];
      try {
        children = await childrenOf(entry);
      } catch {
        skipped.push(`${pathOf(entry)}: the folder could not be listed`);
        return;
      }
      for (const child of children) await visit(child, false, topLevel ? pathOf(entry) : root);
      return;
    }
    if (!isFile(entry) || (!topLevel && !accept(entry.name))) return;
    if (found.length >= limit) leftOut++;
    else found.push({ path: pathOf(entry), folderPath: topLevel ? entry.name : pathOf(entry).slice(root.length + 1), entry });
  };
  for (const entry of entries) await visit(entry, true, '');
  found.sort((a, b) => byCodeUnit(a.path, b.path));
  const inputs: InputBlob[] = [];
  for (const { path, folderPath, entry } of found) {
    try {
      inputs.push({ name: path, folderPath, blob: await fileOf(entry) });
    } catch {
      skipped.push(`${path}: the file could not be read`);
    }
  }
  if (leftOut > 0) skipped.push(`${leftOut} more file(s) beyond the first ${limit} were left out`);
  return { inputs, skipped };
}

/**
 * The files of a folder chosen with the folder picker (`<input type="file" webkitdirectory>`), read as a dropped
 * folder's: named by their path from the chosen folder (`webkitRelativePath`), `folderPath` the path below it,
 * `accept`ed by name, sorted, at most `limit`.
 */
export function readChosenFolder(files: readonly File[], limit: number = MAX_DROPPED_FILES, accept: (name: string) => boolean = isLogFileName): DroppedFiles {
  const found = files
    .map((file) => ({ path: file.webkitRelativePath || file.name, file }))
    .filter(({ file }) => accept(file.name))
    .sort((a, b) => byCodeUnit(a.path, b.path));
  const inputs = found.slice(0, limit).map(({ path, file }) => ({ name: path, folderPath: path.includes('/') ? path.slice(path.indexOf('/') + 1) : path, blob: file }));
  const skipped = found.length > limit ? [`${found.length - limit} more file(s) beyond the first ${limit} were left out`] : [];
  return { inputs, skipped };
}
