// Which screen the app shows, as one value: the start page, a dropped folder's table, an analysed input (a session),
// or the clearing workspace. Every change of screen goes through `transition`, so the
// rules (what a failed open falls back to, when a folder's table is kept to return to) live in one place.
import type { ExampleEntry } from './examples.ts';
import type { FolderTableState } from './folder-table.ts';
import type { FolderView } from '../worker/folder.ts';
import type { InputBlob } from '../worker/inputs.ts';
import type { AnalysisView } from '../worker/view-model.ts';

/** Where an analysed input came from: files (opened, dropped, a folder's session), pasted text or a bundled example. */
export type Source =
  | { kind: 'files'; inputs: InputBlob[] }
  | { kind: 'paste'; text: string }
  | { kind: 'example'; entry: ExampleEntry };

/** A dropped folder's table: its rows, the inputs they name, its label and how the table was left. */
export interface FolderEntry {
  view: FolderView;
  inputs: InputBlob[];
  label: string;
  state: FolderTableState;
}

/** An analysed input on screen. */
export interface Loaded {
  source: Source;
  view: AnalysisView;
}

export type Screen =
  /** `unread`: an input that gave no request (its format can be forced from the header, a paste stays in the box). */
  | { kind: 'start'; unread: Loaded | null }
  | { kind: 'folder'; folder: FolderEntry }
  /** `folder`: the folder table this session was opened from ("← Sessions" goes back to it). */
  | { kind: 'session'; loaded: Loaded; folder: FolderEntry | null }
  | { kind: 'clearing' };

export type ScreenEvent =
  /** The brand link: back to the start page, dropping everything. */
  | { type: 'home' }
  /** An input was analysed; `folder` is the table it was opened from, if any. */
  | { type: 'opened'; loaded: Loaded; folder: FolderEntry | null }
  /** Opening failed or was cancelled: the worker dropped the previous session, so its view cannot stay. */
  | { type: 'open-failed'; folder: FolderEntry | null }
  | { type: 'folder-opened'; folder: FolderEntry }
  | { type: 'back-to-folder' }
  | { type: 'clearing' };

export const START: Screen = { kind: 'start', unread: null };

/** The folder table the screen can go back to (a session or comparison opened from it), if any. */
export function folderOf(screen: Screen): FolderEntry | null {
  if (screen.kind === 'folder') return screen.folder;
  if (screen.kind === 'session') return screen.folder;
  return null;
}

/** The analysed input the screen shows (a session, or the input that gave no request on the start page). */
export function loadedOf(screen: Screen): Loaded | null {
  if (screen.kind === 'session') return screen.loaded;
  if (screen.kind === 'start') return screen.unread;
  return null;
}

export function transition(screen: Screen, event: ScreenEvent): Screen {
  switch (event.type) {
    case 'home':
      return START;
    case 'opened':
      if (event.loaded.view.requests.length === 0) return event.folder ? { kind: 'folder', folder: event.folder } : { kind: 'start', unread: event.loaded };
      return { kind: 'session', loaded: event.loaded, folder: event.folder };
    case 'open-failed':
      if (event.folder) return { kind: 'folder', folder: event.folder };
      // The clearing workspace has its own inputs: a request log that failed to open leaves it as it was.
      return screen.kind === 'clearing' ? screen : START;
    case 'folder-opened':
      return { kind: 'folder', folder: event.folder };
    case 'back-to-folder': {
      const folder = folderOf(screen);
      return folder ? { kind: 'folder', folder } : screen;
    }
    case 'clearing':
      return { kind: 'clearing' };
  }
}
