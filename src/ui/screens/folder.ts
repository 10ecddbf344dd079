// The folder screen: a dropped folder's sessions, projects and days as a table; a row opens that session. While
// the folder is read the table fills in (showFolderView: rows, sums and charts anew, the tab, sort and scroll kept)
// under a line saying how many sessions are analysed in full.
import { el } from '../dom.ts';
import { formatCount } from '../../render/format.ts';
import { createFolderTable, type FolderTableHandle } from '../folder-table.ts';
import type { FolderView } from '../../worker/folder.ts';
import type { FolderEntry } from '../screen.ts';

/** The folder on screen, if any: its table and its progress line. */
let mounted: { folder: FolderEntry; table: FolderTableHandle; line: HTMLElement } | null = null;
/** Folders whose reading stopped before every session was read (cancelled, or a session opened meanwhile). */
const stopped = new WeakSet<FolderEntry>();

function progressText(folder: FolderEntry): string {
  const progress = folder.view.progress;
  if (progress === undefined) return '';
  const counts = `${formatCount(progress.done)} of ${formatCount(progress.total)} sessions`;
  if (stopped.has(folder)) return `Reading stopped: ${counts} analysed in full, the other rows from recorded usage alone. Drop the folder again to read it all.`;
  return `${counts} analysed in full… rows not yet analysed show their recorded usage; cache-miss losses settle as each is analysed.`;
}

function showProgressLine(folder: FolderEntry, line: HTMLElement): void {
  line.textContent = progressText(folder);
  line.hidden = line.textContent === '';
  line.toggleAttribute('data-filling', folder.view.progress !== undefined && !stopped.has(folder));
}

export function mountFolderScreen(main: HTMLElement, folder: FolderEntry, openSession: (i: number) => void): void {
  main.className = 'main main-folder';
  const table = createFolderTable(folder.view, folder.label, folder.state, openSession);
  const line = el('p', { className: 'folder-progress muted small', attrs: { id: 'folder-progress', role: 'status' } });
  showProgressLine(folder, line);
  // Under the title and the table's note, above its sums.
  table.element.querySelector('#folder-summary')?.before(line);
  main.replaceChildren(table.element);
  mounted = { folder, table, line };
  // Back from a session: the focus returns to the row that was opened.
  if (folder.state.opened >= 0) table.focus();
}

/** The folder's rows as read so far (or all of them): kept for the screen, and shown if it is on screen. */
export function showFolderView(folder: FolderEntry, view: FolderView): void {
  folder.view = view;
  if (mounted?.folder !== folder || !mounted.table.element.isConnected) return;
  mounted.table.update(view);
  showProgressLine(folder, mounted.line);
}

/** The folder's reading stopped before its end: its table says so. */
export function folderStopped(folder: FolderEntry): void {
  if (folder.view.progress === undefined) return;
  stopped.add(folder);
  if (mounted?.folder === folder) showProgressLine(folder, mounted.line);
}
