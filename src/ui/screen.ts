// Which screen the app shows, as one value: the start page, a dropped folder's table, an analysed input (a session),
// two runs compared, or the clearing workspace. Every change of screen goes through `transition`, so the
// rules (what a failed open falls back to, when a folder's table is kept to return to) live in one place.
import type { ExampleEntry } from './examples.ts';
import type { FolderTableState } from './folder-table.ts';
import type { FolderView } from '../worker/folder.ts';
import type { InputBlob } from '../worker/inputs.ts';
import type { AnalysisView } from '../worker/view-model.ts';
import type { CompareRecord } from '../core/compare/index.ts';

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

/** Two runs compared: the worker's ctxray.compare/1 record and what each side is called on screen. */
export interface Compared {
  record: CompareRecord;
  names: { before: string; after: string };
}

/** What a comparison was started from, and goes back to (the session is still the worker's). */
export type CompareBack = { kind: 'session'; loaded: Loaded; folder: FolderEntry | null; request: number } | { kind: 'folder'; folder: FolderEntry } | { kind: 'start'; unread: null };

export type Screen =
  /** `unread`: an input that gave no request (its format can be forced from the header, a paste stays in the box). */
  | { kind: 'start'; unread: Loaded | null }
  | { kind: 'folder'; folder: FolderEntry }
  /** `folder`: the folder table this session was opened from ("← Sessions" goes back to it). */
  | { kind: 'session'; loaded: Loaded; folder: FolderEntry | null }
  | { kind: 'compare'; compared: Compared; back: CompareBack }
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
  /** A comparison finished; `request` is the session's open request, to come back to. */
  | { type: 'compared'; compared: Compared; request: number }
  /** Back from a comparison to what it was started from. */
  | { type: 'back-from-compare' }
  | { type: 'clearing' };

export const START: Screen = { kind: 'start', unread: null };

/** The folder table the screen can go back to (a session or comparison opened from it), if any. */
export function folderOf(screen: Screen): FolderEntry | null {
  if (screen.kind === 'folder') return screen.folder;
  if (screen.kind === 'session') return screen.folder;
  if (screen.kind === 'compare') return screen.back.kind === 'start' ? null : screen.back.folder;
  return null;
}

/** Where a comparison started now would go back to (a comparison again: where that one came from). */
function compareBack(screen: Screen, request: number): CompareBack {
  if (screen.kind === 'compare') return screen.back;
  if (screen.kind === 'session') return { kind: 'session', loaded: screen.loaded, folder: screen.folder, request };
  if (screen.kind === 'folder') return { kind: 'folder', folder: screen.folder };
  return { kind: 'start', unread: null };
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
    case 'compared':
      return { kind: 'compare', compared: event.compared, back: compareBack(screen, event.request) };
    case 'back-from-compare': {
      if (screen.kind !== 'compare') return screen;
      const { back } = screen;
      return back.kind === 'session' ? { kind: 'session', loaded: back.loaded, folder: back.folder } : back;
    }
    case 'clearing':
      return { kind: 'clearing' };
  }
}
