// Opening a dropped folder of request logs: its sessions read on the page's pool of session workers
// (src/ui/folder-pool.ts), the table shown as soon as the first rows are in and filled in as sessions settle
// (src/ui/screens/folder.ts); a folder that holds one session (with its subagents, a task's parts) opens that
// session's analysis. Cancelled (a new drop, leaving the folder) the pool's workers are terminated at once.
import type { FolderView } from '../worker/folder.ts';
import type { InputBlob, ProgressInfo } from '../worker/inputs.ts';
import { poolSize, startFolderPool } from './folder-pool.ts';
import type { Message } from './notice.ts';
import type { ProgressHandle } from './progress.ts';
import type { FolderEntry, ScreenEvent } from './screen.ts';
import { folderStopped, showFolderView } from './screens/folder.ts';
import { WorkerFailure, type WorkerClient } from './worker-client.ts';

export interface FolderOpenDeps {
  client: WorkerClient;
  /** A job of the app's own (supersedes any other, shows the progress box that can cancel it). */
  begin(title: string): { controller: AbortController; progress: ProgressHandle };
  end(job: { controller: AbortController; progress: ProgressHandle }): void;
  /** Whether `controller`'s job is still the app's current one (not superseded by a newer open). */
  current(controller: AbortController): boolean;
  setMessage(message: Message | null): void;
  hasMessage(): boolean;
  go(event: ScreenEvent): void;
  openFiles(inputs: InputBlob[]): Promise<void>;
  /** Renders the header again (it counts the folder's sessions). */
  header(): void;
}

export interface FolderReadOptions {
  signal: AbortSignal;
  onProgress: (progress: ProgressInfo) => void;
  onView: (view: FolderView) => void;
}

/** The folder's sessions on a pool of session workers, terminated when the read ends or is cancelled. */
export async function readFolder(client: WorkerClient, inputs: InputBlob[], options: FolderReadOptions): Promise<FolderView> {
  const local = new AbortController();
  let failure: string | null = null;
  const pool = startFolderPool(poolSize(inputs.length), (message) => {
    failure ??= message;
    stop();
  });
  function stop(): void {
    pool.terminate();
    local.abort();
  }
  options.signal.addEventListener('abort', stop, { once: true });
  try {
    return await client.analyzeFolder(inputs, options.onProgress, local.signal, { ports: pool.ports, onView: options.onView });
  } catch (error) {
    throw failure !== null ? new WorkerFailure(failure, 'crash') : error;
  } finally {
    options.signal.removeEventListener('abort', stop);
    pool.terminate();
  }
}

const entryOf = (view: FolderView, inputs: InputBlob[], label: string): FolderEntry => ({ view, inputs, label, state: { tab: 'sessions', only: null, opened: -1 } });

/**
 * Where the page is with a dropped folder, on <body data-folder-read>: `listing` its files, `reading` its sessions,
 * `done` (read, or opened as a clearing case, a session, a message) or `stopped` (cancelled, superseded, failed).
 */
export const folderReadState = (state: 'listing' | 'reading' | 'done' | 'stopped'): void => document.body.setAttribute('data-folder-read', state);

export async function openFolder(deps: FolderOpenDeps, folder: { inputs: InputBlob[]; label: string; skipped: string[] }): Promise<void> {
  const { inputs, label, skipped } = folder;
  const job = deps.begin(`Reading the sessions in ${label}`);
  const { controller, progress } = job;
  let single: InputBlob[] | null = null;
  let notes = skipped;
  /** The table on screen while the folder fills in (a folder of more than one session, once it has a row). */
  let shown: FolderEntry | null = null;
  folderReadState('reading');
  const show = (entry: FolderEntry, view: FolderView): void => {
    const before = entry.view.sessions.length;
    showFolderView(entry, view);
    if (view.sessions.length !== before) deps.header();
  };
  const onView = (view: FolderView): void => {
    if (shown !== null) show(shown, view);
    else if ((view.progress?.total ?? 0) > 1 && view.sessions.length > 0) deps.go({ type: 'folder-opened', folder: (shown = entryOf(view, inputs, label)) });
  };
  try {
    const onProgress = (p: ProgressInfo): void => progress.update(p, inputs[p.file]?.name ?? '', false);
    const view = await readFolder(deps.client, inputs, { signal: controller.signal, onProgress, onView });
    if (controller.signal.aborted) return;
    notes = [...skipped, ...view.skipped];
    const [only] = view.sessions;
    if (view.sessions.length === 1 && only) single = only.inputs.flatMap((i) => inputs[i] ?? []);
    else if (view.sessions.length === 0) deps.setMessage({ kind: 'error', text: `${label}: no session with a request could be read.`, details: notes });
    else if (shown !== null) show(shown, view);
    else deps.go({ type: 'folder-opened', folder: entryOf(view, inputs, label) });
    folderReadState('done');
  } catch (error) {
    if (shown !== null) folderStopped(shown);
    folderReadState('stopped');
    if (!deps.current(controller)) return;
    const cancelled = controller.signal.aborted || (error instanceof WorkerFailure && error.kind === 'cancelled');
    deps.setMessage(cancelled ? { kind: 'info', text: `Cancelled reading ${label}.` } : { kind: 'error', text: `${label}: ${(error as Error).message}` });
    return;
  } finally {
    deps.end(job);
  }
  if (single !== null) await deps.openFiles(single);
  if (notes.length > 0 && !deps.hasMessage()) {
    deps.setMessage({ kind: 'info', text: `${notes.length} file${notes.length === 1 ? '' : 's'} of ${label} could not be read or held no request.`, details: notes });
  }
}
