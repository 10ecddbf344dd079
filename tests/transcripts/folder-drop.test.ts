// Reading a dropped folder (src/ui/folder-drop.ts) through fake FileSystemEntry objects: recursion over batched
// readEntries, the extension filter inside folders, sorted paths, and entries that fail being listed, not fatal.
import { describe, expect, it } from 'vitest';
import { droppedEntries, readDroppedEntries } from '../../src/ui/folder-drop.ts';

interface FakeTree { [name: string]: string | FakeTree | Error }

function fileEntry(fullPath: string, content: string | Error): FileSystemFileEntry {
  const name = fullPath.slice(fullPath.lastIndexOf('/') + 1);
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (ok: (file: File) => void, fail?: (error: Error) => void) => (content instanceof Error ? fail?.(content) : ok(new File([content], name))),
  } as unknown as FileSystemFileEntry;
}

function folderEntry(fullPath: string, tree: FakeTree | Error): FileSystemDirectoryEntry {
  const name = fullPath.slice(fullPath.lastIndexOf('/') + 1);
  return {
    isFile: false,
    isDirectory: true,
    name,
    fullPath,
    createReader: () => {
      // Two batches, then an empty one, as browsers do for large folders.
      const children = tree instanceof Error ? [] : Object.entries(tree).map(([child, value]) => entryOf(`${fullPath}/${child}`, value));
      const batches = [children.slice(0, 1), children.slice(1), []];
      return {
        readEntries: (ok: (entries: FileSystemEntry[]) => void, fail?: (error: Error) => void) =>
          tree instanceof Error ? fail?.(tree) : ok(batches.shift() ?? []),
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}

function entryOf(fullPath: string, value: string | FakeTree | Error): FileSystemEntry {
  return typeof value === 'string' || (value instanceof Error && fullPath.includes('.')) ? fileEntry(fullPath, value as string | Error) : folderEntry(fullPath, value as FakeTree | Error);
}

describe('readDroppedEntries (synthetic entries)', () => {
  it('reads log files recursively in sorted path order and lists what failed', async () => {
    const root = folderEntry('/logs', {
      'z.jsonl': 'synthetic z',
      'notes.txt': 'ignored: wrong extension',
      sub: { 'b.json': 'synthetic b', 'a.jsonl.gz': 'synthetic a', 'broken.jsonl': new Error('synthetic read failure') },
      locked: new Error('synthetic listing failure'),
    });
    const { inputs, skipped } = await readDroppedEntries([root, fileEntry('/loose.txt', 'dropped on its own: kept')]);
    expect(inputs.map((i) => i.name)).toEqual(['logs/sub/a.jsonl.gz', 'logs/sub/b.json', 'logs/z.jsonl', 'loose.txt']);
    // The path below the dropped folder names a file in the folder table (its first part is the project).
    expect(inputs.map((i) => i.folderPath)).toEqual(['sub/a.jsonl.gz', 'sub/b.json', 'z.jsonl', 'loose.txt']);
    expect(await inputs[0]!.blob.text()).toBe('synthetic a');
    expect(skipped).toEqual(['logs/locked: the folder could not be listed', 'logs/sub/broken.jsonl: the file could not be read']);
  });

  it('stops at the file limit and says how many were left out', async () => {
    const root = folderEntry('/logs', { 'a.jsonl': 'x', 'b.jsonl': 'y', 'c.jsonl': 'z' });
    const { inputs, skipped } = await readDroppedEntries([root], 2);
    expect(inputs).toHaveLength(2);
    expect(skipped).toEqual(['1 more file(s) beyond the first 2 were left out']);
  });
});

describe('droppedEntries', () => {
  const transferOf = (entries: (FileSystemEntry | null)[]) =>
    ({ items: entries.map((entry) => ({ kind: 'file', webkitGetAsEntry: () => entry })) }) as unknown as DataTransfer;

  it('returns the entries only when the drop holds a folder', () => {
    const folder = folderEntry('/logs', {});
    const file = fileEntry('/a.jsonl', 'x');
    expect(droppedEntries(transferOf([folder, file]))).toEqual([folder, file]);
    expect(droppedEntries(transferOf([file]))).toBeNull();
    expect(droppedEntries(transferOf([null]))).toBeNull();
    expect(droppedEntries(null)).toBeNull();
  });
});
