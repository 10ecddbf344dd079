// The folder screen: a dropped folder's sessions, projects and days as a table; a row opens that session.
import { createFolderTable } from '../folder-table.ts';
import type { FolderEntry } from '../screen.ts';

export function mountFolderScreen(main: HTMLElement, folder: FolderEntry, openSession: (i: number) => void): void {
  main.className = 'main main-folder';
  const table = createFolderTable(folder.view, folder.label, folder.state, openSession);
  main.replaceChildren(table.element);
  // Back from a session: the focus returns to the row that was opened.
  if (folder.state.opened >= 0) table.focus();
}
