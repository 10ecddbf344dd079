// The application shell: opening input, the header pickers, the request selector, panel tabs and the URL fragment.
// All analysis happens in the worker; this module only keeps view state and renders.
import type { WireFormat } from '../core/model.ts';
import type { InputBlob, ProgressInfo } from '../worker/protocol.ts';
import { el } from './dom.ts';
import { fetchExample, loadExampleIndex, type ExampleEntry } from './examples.ts';
import { formatCount, formatTokens } from '../render/format.ts';
import { noteText } from './notes.ts';
import { PANELS } from './panels/index.ts';
import type { NavigationTarget, Panel, PanelContext, TreemapView } from './panels/types.ts';
import { showProgress } from './progress.ts';
import { installShortcuts } from './shortcuts.ts';
import { buildFragment, parseFragment, type ViewState } from './share.ts';
import { renderRequestStrip } from './request-strip.ts';
import { createRequestTable, missTitle, type RequestTableHandle } from './request-table.ts';
import { createFolderTable, type FolderTableState } from './folder-table.ts';
import type { FolderView } from '../worker/folder.ts';
import type { RequestRowsAnswer } from '../worker/handlers/request-rows.ts';
import { localFilesLinkMessage, renderStartScreen } from './start-screen.ts';
import { droppedEntries, isLogFileName, readDroppedEntries } from './folder-drop.ts';
import { prefillClearing, renderClearingWorkspace } from './panels/clearing.ts';
import type { ClearingRolesAnswer } from '../worker/handlers/clearing-roles.ts';
import { isFileLimitError } from './limit-errors.ts';
import type { AnalysisView, RequestView } from '../worker/view-model.ts';
import { WorkerClient, WorkerFailure } from './worker-client.ts';
import { shareRepeatedStrings } from './intern-view.ts';
import { startAnalysisWorker } from './worker-factory.ts';

type Source =
  | { kind: 'files'; inputs: InputBlob[] }
  | { kind: 'paste'; text: string }
  | { kind: 'example'; entry: ExampleEntry };

interface Message {
  kind: 'error' | 'info';
  text: string;
  details?: string[];
}

/** Transcript kinds a file can be read as: the header says the requests were rebuilt from them. */
const TRANSCRIPT_LABELS: Record<string, string> = {
  'pi-session': 'pi session',
  'claude-code': 'Claude Code transcript',
  'codex-rollout': 'Codex rollout',
};

/** "pi session" (the kinds read) when every file is a transcript, else null: the wire formats say more then. */
function transcriptKinds(files: readonly { format: string | null }[]): string | null {
  const kinds = files.map((f) => (f.format === null ? undefined : TRANSCRIPT_LABELS[f.format]));
  if (kinds.length === 0 || kinds.some((k) => k === undefined)) return null;
  return [...new Set(kinds)].join(', ');
}

const FORMAT_LABELS: Record<WireFormat, string> = {
  'anthropic-messages': 'Anthropic Messages',
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
};

/** A dropped folder of at most this many files is checked for a clearing case (journals, sidecar, routes, ...). */
const MAX_CASE_FILES = 500;

/** Cancel waits this long for the worker to stop cooperatively before the worker is replaced. */
const CANCEL_GRACE_MS = 1500;

export class App {
  private readonly client = new WorkerClient(
    startAnalysisWorker,
    (error) => this.workerCrashed(error),
    // How many workers this page has started: e2e tests see a replacement here, users never need it.
    (generation) => document.body.setAttribute('data-worker-generation', String(generation)),
  );
  private examples: ExampleEntry[] | null = null;
  private examplesLoading: Promise<ExampleEntry[]> | null = null;
  private examplesError: string | null = null;
  private source: Source | null = null;
  private view: AnalysisView | null = null;
  private requestIndex = 0;
  private panelId = PANELS[0]?.id ?? 'tokens';
  /** JSON path of the selected block: kept across requests that have it, and in the link. */
  private segmentPath: string | null = null;
  /** The Tokens treemap's zoom group and search: kept across requests (a zoom the request lacks shows it whole), in the link. */
  private treemap: TreemapView = { zoom: null, search: '' };
  /** Claude estimates calibrated on the log's recorded usage (the Cache panel's box; `calibrate=off` in links). */
  private calibration = true;
  /** The next panel render follows a navigation and should bring `segmentPath` into view and focus. */
  private revealNext = false;
  private format: WireFormat | undefined;
  private model: string | undefined;
  private running: AbortController | null = null;
  private panelAbort: AbortController | null = null;
  private message: Message | null = null;
  private cancelTimer: number | undefined;
  /** The fragment this app last wrote, so its own hashchange is not replayed. */
  private writtenHash = '';
  /** The request table of the view on screen; it stays while requests and panels change. */
  private table: RequestTableHandle | null = null;
  /** The worker's per-request cache columns for the view on screen, once they arrived. */
  private rows: RequestRowsAnswer | null = null;
  /** Parts of the loaded layout that are updated in place: the selected request's bar, the strip, the tabs. */
  private readonly requestBarHost = el('div', { className: 'request-bar-host' });
  private readonly stripHost = el('div', { className: 'strip-host' });
  private readonly tabsHost = el('div', { className: 'tabs-host' });
  private panelHost: HTMLElement = el('div');
  /** The clearing workspace fills the page while no request log is loaded (opened from the start screen). */
  private clearingOnly = false;
  private workspaceAbort: AbortController | null = null;
  /** A dropped folder's table (shown while no session of it is open), its inputs and how it was left. */
  private folder: { view: FolderView; inputs: InputBlob[]; label: string; state: FolderTableState } | null = null;

  private readonly header = el('header', { className: 'topbar' });
  private readonly notice = el('div', { className: 'notice-host', attrs: { 'aria-live': 'polite' } });
  private readonly main = el('main', { className: 'main', attrs: { id: 'main' } });
  private readonly progressHost = el('div', { className: 'progress-host', attrs: { hidden: '' } });
  private readonly dropOverlay = el('div', { className: 'drop-overlay', attrs: { hidden: '' } }, [el('p', { text: 'Drop to analyze — nothing is uploaded' })]);
  private readonly fileInput = el('input', { attrs: { type: 'file', multiple: '', hidden: '', id: 'file-input' } });

  constructor(private readonly root: HTMLElement) {}

  start(): void {
    // How many worker calls are outstanding: the browser bench takes 0 (and a quiet DOM) as "the view settled".
    this.client.onPendingChange = (count) => document.body.setAttribute('data-worker-pending', String(count));
    this.root.replaceChildren(this.header, this.notice, this.main, this.progressHost, this.dropOverlay, this.fileInput);
    this.fileInput.addEventListener('change', () => {
      const files = [...(this.fileInput.files ?? [])];
      this.fileInput.value = '';
      if (files.length > 0) void this.openNew({ kind: 'files', inputs: files.map((f) => ({ name: f.name, blob: f })) });
    });
    this.installDragAndDrop();
    this.installPaste();
    installShortcuts({
      step: (delta) => this.stepRequest(delta),
      focusFilter: () => document.getElementById('request-filter')?.focus(),
      focusTable: () => this.table?.focus(),
      cancelLoad: () => {
        if (!this.running) return false;
        this.cancel(this.running);
        return true;
      },
    });
    window.addEventListener('hashchange', () => {
      if (location.hash !== this.writtenHash) void this.applyFragment(location.hash);
    });
    this.render();
    void this.exampleList().then(() => {
      if (!this.view && !this.running) this.render();
    });
    void this.applyFragment(location.hash);
  }

  // ---- opening input -------------------------------------------------------------------------------------------

  private async applyFragment(hash: string): Promise<void> {
    const parsed = parseFragment(hash);
    if (!parsed.ok) this.setMessage({ kind: 'error', text: `This link could not be read fully: ${parsed.error}.` });
    const state = parsed.state;
    // Same input and options as on screen (the address bar edited, back/forward): only move within it.
    const sameSource =
      state.example !== undefined
        ? this.source?.kind === 'example' && this.source.entry.id === state.example
        : state.input === undefined || (this.source?.kind === 'paste' && this.source.text === state.input);
    this.segmentPath = state.segment ?? null;
    this.treemap = { zoom: state.zoom ?? null, search: state.find ?? '' };
    this.calibration = state.calibrate ?? true;
    if (this.view && sameSource && state.format === this.format && state.model === this.model) {
      if (state.panel) this.panelId = state.panel;
      if (state.request !== undefined) {
        this.requestIndex = Math.min(Math.max(0, state.request - 1), Math.max(0, this.view.requests.length - 1));
      }
      this.render();
      this.syncFragment();
      return;
    }
    this.format = state.format;
    this.model = state.model;
    if (state.panel) this.panelId = state.panel;
    if (state.example !== undefined) {
      const entry = (await this.exampleList()).find((e) => e.id === state.example);
      if (!entry) {
        this.setMessage({ kind: 'error', text: `This link names an example "${state.example}" that this build does not have.` });
        return;
      }
      await this.open({ kind: 'example', entry }, state.request);
    } else if (state.input !== undefined) {
      await this.open({ kind: 'paste', text: state.input }, state.request);
    } else if (this.source) {
      // Options changed in the address bar for the input on screen.
      await this.open(this.source, state.request);
    } else if (parsed.ok) {
      // Nothing on screen and nothing in the link to open: it was shared from files opened from disk.
      const local = localFilesLinkMessage(state);
      if (local !== null) this.setMessage({ kind: 'info', text: local });
    }
  }

  /** The example index, fetched once (the start screen and a link's `example=` share it). */
  private exampleList(): Promise<ExampleEntry[]> {
    this.examplesLoading ??= loadExampleIndex().then(
      (examples) => (this.examples = examples),
      (error: unknown) => {
        this.examplesError = `The examples could not be listed: ${(error as Error).message}`;
        return (this.examples = []);
      },
    );
    return this.examplesLoading;
  }

  private sourceLabel(source: Source): string {
    if (source.kind === 'example') return `${source.entry.title} (synthetic example)`;
    if (source.kind === 'paste') return 'Pasted text';
    const [first] = source.inputs;
    return source.inputs.length === 1 && first ? first.name : `${source.inputs.length} files`;
  }

  /** A new input from the user: the format and model pickers apply to one input only, so they reset. */
  private openNew(source: Source, fromFolder = false): Promise<void> {
    // Anything but a session of the folder table leaves that table.
    if (!fromFolder) this.folder = null;
    this.format = undefined;
    this.model = undefined;
    this.segmentPath = null;
    this.treemap = { zoom: null, search: '' };
    this.calibration = true;
    return this.open(source);
  }

  /** Analyze a source; `request` is the 1-based request to open on (from a link). */
  private async open(source: Source, request?: number): Promise<void> {
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    this.setMessage(null);
    const label = this.sourceLabel(source);
    const progress = showProgress(this.progressHost, `Opening ${label}`, () => this.cancel(controller));
    const names: string[] = [];
    try {
      let inputs: InputBlob[];
      if (source.kind === 'files') inputs = source.inputs;
      else if (source.kind === 'paste') inputs = [{ name: 'pasted text', blob: new Blob([source.text], { type: 'text/plain' }) }];
      else {
        progress.phase(`Fetching examples/${source.entry.file}…`);
        inputs = [{ name: source.entry.file, blob: await fetchExample(source.entry, controller.signal) }];
      }
      names.push(...inputs.map((i) => i.name));
      const onProgress = (p: ProgressInfo): void => progress.update(p, names[p.file] ?? '', p.file === names.length - 1);
      const options = { ...(this.format && { format: this.format }), ...(this.model && { model: this.model }) };
      const view = await this.client.analyze(inputs, options, onProgress, controller.signal);
      if (controller.signal.aborted) return;
      shareRepeatedStrings(view);
      const limitHits = view.errors.filter(isFileLimitError);
      if (limitHits.length > 0) {
        this.refuseAtLimit(label, { ...view, errors: limitHits }, names);
        return;
      }
      this.source = source;
      this.view = view;
      this.clearingOnly = false;
      if (view.requests.length === 0) {
        this.setMessage({
          kind: 'error',
          text: `${label}: no request could be read.`,
          details: this.locatedErrors(view, names),
        });
      } else if (view.errors.length > 0) {
        this.setMessage({
          kind: 'info',
          text: `${formatCount(view.errors.length)} record${view.errors.length === 1 ? '' : 's'} could not be read and ${view.errors.length === 1 ? 'was' : 'were'} skipped; the rest is analyzed.`,
          details: this.locatedErrors(view, names),
        });
      }
      const wanted = request !== undefined ? request - 1 : view.initialRequest;
      this.requestIndex = Math.min(Math.max(0, wanted), Math.max(0, view.requests.length - 1));
      if (!PANELS.some((p) => p.id === this.panelId && this.panelAvailable(p))) this.panelId = PANELS[0]?.id ?? 'tokens';
      this.render();
      this.syncFragment();
      // The focus was on what opened the input (a button, the paste box) which is gone: the table comes next.
      if (document.activeElement === document.body || !document.activeElement?.isConnected) this.table?.focus();
    } catch (error) {
      if (this.running !== controller) return; // superseded by a newer open, which owns the screen now
      if (controller.signal.aborted || (error instanceof WorkerFailure && error.kind === 'cancelled')) {
        this.setMessage({ kind: 'info', text: `Cancelled opening ${label}.` });
      } else {
        const retry = error instanceof WorkerFailure && error.kind === 'crash' ? ' Open it again to retry in a fresh worker.' : '';
        this.setMessage({ kind: 'error', text: `${label}: ${(error as Error).message}${retry}` });
      }
      // The worker dropped its previous session when this analysis started; the old view cannot fetch content.
      this.view = null;
      this.source = null;
      this.render();
    } finally {
      if (this.running === controller) this.running = null;
      // The worker answered (even if only "cancelled"): it is responsive, so it need not be replaced.
      window.clearTimeout(this.cancelTimer);
      progress.remove();
    }
  }

  /**
   * A file stopped at a resource limit (decompressed or file size, one document's size): the input is not shown
   * cut short, and the worker that read it is replaced, since its heap may stay grown to the limit. Neither the
   * crash recovery nor anything else reads this input again; the next input starts in the fresh worker.
   */
  private refuseAtLimit(label: string, hits: AnalysisView, names: string[]): void {
    this.client.replace(new WorkerFailure('The worker was replaced after an input reached a size limit.', 'cancelled'));
    this.view = null;
    this.source = null;
    this.setMessage({
      kind: 'error',
      text: `${label} was not opened: it reached a size limit (below). The analysis worker was replaced, so the next input starts fresh.`,
      details: this.locatedErrors(hits, names),
    });
    this.render();
  }

  /**
   * The worker died and took the analyzed input with it. When that happened outside an analysis, read the input
   * again in a fresh worker so the view keeps working; a crash during an analysis is reported by that analysis
   * and not retried (the input itself may be the cause).
   */
  private workerCrashed(error: WorkerFailure): void {
    if (this.running || !this.source || !this.view) return;
    const source = this.source;
    void this.open(source, this.requestIndex + 1).then(() => {
      if (this.view && this.source === source) {
        this.setMessage({ kind: 'error', text: `${error.message} A fresh worker read the input again; the view is up to date.` });
      }
    });
  }

  private cancel(controller: AbortController): void {
    controller.abort();
    // A worker stuck in a long synchronous step would not see the abort; replace it after a grace period.
    window.clearTimeout(this.cancelTimer);
    this.cancelTimer = window.setTimeout(() => this.client.terminate('Cancelled.'), CANCEL_GRACE_MS);
  }

  private locatedErrors(view: AnalysisView, names: string[]): string[] {
    return view.errors.slice(0, 50).map((e) => {
      const file = names[e.file] ?? view.files[e.file]?.name ?? `file ${e.file + 1}`;
      // A JSON array's errors hold a record number and say "record N (line L)" themselves.
      return e.line > 0 && e.recordNumber === undefined ? `${file}, line ${e.line}: ${e.message}` : `${file}: ${e.message}`;
    }).concat(view.errors.length > 50 ? [`… and ${formatCount(view.errors.length - 50)} more`] : []);
  }

  private reanalyze(): void {
    if (this.source) void this.open(this.source, this.requestIndex + 1);
    else this.syncFragment();
  }

  private installDragAndDrop(): void {
    let depth = 0;
    const hasFiles = (event: DragEvent): boolean => [...(event.dataTransfer?.types ?? [])].includes('Files');
    document.addEventListener('dragenter', (event) => {
      if (!hasFiles(event)) return;
      depth++;
      this.dropOverlay.hidden = false;
    });
    document.addEventListener('dragleave', () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) this.dropOverlay.hidden = true;
    });
    document.addEventListener('dragover', (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    });
    document.addEventListener('drop', (event) => {
      event.preventDefault();
      depth = 0;
      this.dropOverlay.hidden = true;
      const entries = droppedEntries(event.dataTransfer);
      if (entries !== null) {
        void this.openDroppedFolder(entries);
        return;
      }
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length > 0) void this.openNew({ kind: 'files', inputs: files.map((f) => ({ name: f.name, blob: f })) });
    });
  }

  /**
   * A dropped folder: a clearing case (journals and a sidecar, told by content) opens in the clearing workspace;
   * anything else opens every log file in it, recursively. What could not be read is listed, never fatal.
   */
  private async openDroppedFolder(entries: FileSystemEntry[]): Promise<void> {
    const all = await readDroppedEntries(entries, undefined, () => true);
    if (all.inputs.length > 0 && all.inputs.length <= MAX_CASE_FILES) {
      try {
        const { roles, isCase } = await this.client.ask<ClearingRolesAnswer>('clearing-roles', { files: all.inputs });
        if (isCase) {
          prefillClearing(all.inputs, roles);
          this.openClearing(true);
          return;
        }
      } catch {
        // Not sorted by role: read the folder as request logs, as before.
      }
    }
    const inputs = all.inputs.filter((input) => isLogFileName(input.name));
    const skipped = all.skipped;
    if (inputs.length === 0) {
      this.setMessage({ kind: 'error', text: 'The dropped folder holds no .jsonl, .json or .gz file that could be read.', details: skipped });
      return;
    }
    await this.openFolder(inputs, entries.map((entry) => entry.name).join(', '), skipped);
  }

  /**
   * A folder's sessions, read one at a time in the worker, as the folder table; a folder that holds one session
   * (with its subagents, a task's parts) opens that session's analysis at once.
   */
  private async openFolder(inputs: InputBlob[], label: string, skipped: string[]): Promise<void> {
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    this.setMessage(null);
    const progress = showProgress(this.progressHost, `Reading the sessions in ${label}`, () => this.cancel(controller));
    let single: InputBlob[] | null = null;
    let notes = skipped;
    try {
      const view = await this.client.analyzeFolder(inputs, (p) => progress.update(p, inputs[p.file]?.name ?? '', false), controller.signal);
      if (controller.signal.aborted) return;
      notes = [...skipped, ...view.skipped];
      const [only] = view.sessions;
      if (view.sessions.length === 1 && only) single = only.inputs.flatMap((i) => inputs[i] ?? []);
      else if (view.sessions.length === 0) this.setMessage({ kind: 'error', text: `${label}: no session with a request could be read.`, details: notes });
      else {
        this.folder = { view, inputs, label, state: { tab: 'sessions', only: null, opened: -1 } };
        this.source = null;
        this.view = null;
        this.clearingOnly = false;
        this.render();
        this.syncFragment();
      }
    } catch (error) {
      if (this.running !== controller) return;
      const cancelled = controller.signal.aborted || (error instanceof WorkerFailure && error.kind === 'cancelled');
      this.setMessage(cancelled ? { kind: 'info', text: `Cancelled reading ${label}.` } : { kind: 'error', text: `${label}: ${(error as Error).message}` });
      return;
    } finally {
      if (this.running === controller) this.running = null;
      window.clearTimeout(this.cancelTimer);
      progress.remove();
    }
    if (single !== null) await this.openNew({ kind: 'files', inputs: single });
    if (notes.length > 0 && this.message === null) {
      this.setMessage({ kind: 'info', text: `${notes.length} file${notes.length === 1 ? '' : 's'} of the dropped folder could not be read or held no request.`, details: notes });
    }
  }

  /** Opens session `i` of the folder table as a normal analysis (its subagents' files with it). */
  private openFolderSession(i: number): void {
    const folder = this.folder;
    const row = folder?.view.sessions[i];
    if (!folder || !row) return;
    folder.state.opened = i;
    void this.openNew({ kind: 'files', inputs: row.inputs.flatMap((j) => folder.inputs[j] ?? []) }, true);
  }

  /** Back from a session to the folder table, as it was left. */
  private backToFolder(): void {
    this.running?.abort();
    this.source = null;
    this.view = null;
    this.setMessage(null);
    this.render();
    this.syncFragment();
  }

  private installPaste(): void {
    document.addEventListener('paste', (event) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, [contenteditable]')) return;
      const text = event.clipboardData?.getData('text/plain') ?? '';
      if (text.trim() === '') return;
      event.preventDefault();
      void this.openNew({ kind: 'paste', text });
    });
  }

  // ---- view state ------------------------------------------------------------------------------------------------

  private panelAvailable(panel: Panel): boolean {
    return panel.needs.every((need) => this.view?.sections.includes(need) ?? false);
  }

  selectRequest(index: number): void {
    if (!this.view) return;
    const clamped = Math.min(Math.max(0, index), this.view.requests.length - 1);
    if (clamped === this.requestIndex) return;
    this.requestIndex = clamped;
    this.updateRequest();
    this.syncFragment();
  }

  /** Go to a request, a panel and a block at once (a finding's or a miss's link); the block ends focused. */
  navigate(to: NavigationTarget): void {
    if (!this.view) return;
    if (to.segment !== undefined) this.segmentPath = to.segment;
    if (to.panel !== undefined && PANELS.some((p) => p.id === to.panel && this.panelAvailable(p))) this.panelId = to.panel;
    this.revealNext = true;
    const request = to.request === undefined ? this.requestIndex : Math.min(Math.max(0, to.request), this.view.requests.length - 1);
    if (request !== this.requestIndex) {
      this.requestIndex = request;
      this.updateRequest();
    } else this.updatePanel(true);
    this.syncFragment();
  }

  /** The request `delta` rows from the open one in the request table's order (sorted, filtered), if any. */
  stepRequest(delta: number): void {
    const next = this.table?.neighbour(delta);
    if (next !== null && next !== undefined) this.selectRequest(next);
  }

  private selectPanel(id: string): void {
    if (id === this.panelId) return;
    this.panelId = id;
    this.updatePanel(true);
    this.syncFragment();
    document.getElementById(`tab-${id}`)?.focus();
  }

  private viewState(): ViewState {
    const state: ViewState = {};
    if (this.source?.kind === 'example') state.example = this.source.entry.id;
    if (this.source?.kind === 'paste') state.input = this.source.text;
    if (this.view && this.view.requests.length > 0) state.request = this.requestIndex + 1;
    if (this.view) state.panel = this.panelId;
    if (this.view && this.segmentPath !== null) state.segment = this.segmentPath;
    if (this.view && this.treemap.zoom !== null) state.zoom = this.treemap.zoom;
    if (this.view && this.treemap.search !== '') state.find = this.treemap.search;
    if (this.view && !this.calibration) state.calibrate = false;
    if (this.format) state.format = this.format;
    if (this.model) state.model = this.model;
    return state;
  }

  /** Keeps the address bar on the current view (without the pasted input: it goes in only on "Copy link"). */
  private syncFragment(): void {
    const { input, ...state } = this.viewState();
    // The address bar never holds the pasted text itself, but says a paste was on screen, so a reload is honest.
    if (input !== undefined) state.pasted = true;
    const { hash } = buildFragment(state);
    this.writtenHash = hash;
    history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
  }

  private async copyLink(): Promise<void> {
    const built = buildFragment(this.viewState());
    // A link without the pasted input it was made for would open an empty app that cannot show this view.
    if (!built.ok) {
      this.setMessage({ kind: 'error', text: built.reason });
      return;
    }
    // Everything before the fragment, so the link works wherever the app is hosted (a sub-path, file://).
    const url = `${location.href.split('#')[0] ?? ''}${built.hash}`;
    const notes: string[] = [];
    if (this.source?.kind === 'files') notes.push('Opened files are never put in links; the link opens this view once the same files are opened.');
    try {
      await navigator.clipboard.writeText(url);
      this.setMessage({ kind: 'info', text: `Link copied.${notes.length ? ' ' + notes.join(' ') : ''}` });
    } catch {
      this.setMessage({ kind: 'info', text: `Copy this link: ${url}${notes.length ? ' — ' + notes.join(' ') : ''}` });
    }
  }

  /** The clearing workspace with no request log: from the start screen's entry or a dropped case folder. */
  private openClearing(analyzeNow: boolean): void {
    this.running?.abort();
    this.source = null;
    this.view = null;
    this.clearingOnly = true;
    this.setMessage(null);
    this.render();
    if (analyzeNow) this.renderClearingOnly(true);
    this.syncFragment();
  }

  private renderClearingOnly(analyzeNow: boolean): void {
    this.workspaceAbort?.abort();
    const controller = new AbortController();
    this.workspaceAbort = controller;
    this.main.className = 'main main-workspace';
    const host = el('div', { className: 'panel', attrs: { id: 'panel', 'data-panel': 'clearing' } });
    this.main.replaceChildren(el('h1', { className: 'workspace-title', text: 'Tool-result clearing', attrs: { tabindex: '-1', id: 'workspace-title' } }), host);
    renderClearingWorkspace(host, { ask: (name, params) => this.client.ask(name, params, controller.signal), signal: controller.signal }, analyzeNow);
    document.getElementById('workspace-title')?.focus({ preventScroll: true });
  }

  /** What "Copy link" puts in a link, for its tooltip: the user knows before sharing. */
  private linkCarries(): string {
    const view = 'the view (request, panel, selected block, treemap zoom and search, format and model)';
    if (this.source?.kind === 'example') return `Copies a link to this example and ${view}`;
    if (this.source?.kind === 'paste') return `Copies a link carrying the pasted input (compressed, in the fragment, which no server sees) and ${view}; refused if the input does not fit`;
    return `Copies a link to ${view} only: opened files never travel in a link, so whoever opens it must open the same files`;
  }

  private setMessage(message: Message | null): void {
    this.message = message;
    this.renderNotice();
  }

  // ---- rendering -------------------------------------------------------------------------------------------------

  private render(): void {
    this.renderHeader();
    this.renderNotice();
    this.panelAbort?.abort();
    this.panelAbort = null;
    const view = this.view;
    const request = view?.requests[this.requestIndex];
    this.workspaceAbort?.abort();
    this.workspaceAbort = null;
    if ((!view || !request) && this.clearingOnly) {
      this.table = null;
      this.renderClearingOnly(false);
      return;
    }
    if ((!view || !request) && this.folder) {
      this.table = null;
      this.main.className = 'main main-folder';
      const table = createFolderTable(this.folder.view, this.folder.label, this.folder.state, (i) => this.openFolderSession(i));
      this.main.replaceChildren(table.element);
      if (this.folder.state.opened >= 0) table.focus();
      return;
    }
    if (!view || !request) {
      this.table = null;
      this.main.className = 'main main-start';
      // A paste that could not be read stays in the box, ready to be fixed.
      const pasted = this.source?.kind === 'paste' ? this.source.text : '';
      renderStartScreen(this.main, this.examples, this.examplesError, pasted, {
        chooseFiles: () => this.fileInput.click(),
        paste: (text) => void this.openNew({ kind: 'paste', text }),
        openExample: (entry) => void this.openNew({ kind: 'example', entry }),
        openClearing: () => this.openClearing(false),
      });
      return;
    }
    this.main.className = 'main main-loaded';
    const table = createRequestTable(view, this.requestIndex, (i) => this.selectRequest(i));
    this.table = table;
    this.rows = null;
    void this.client.ask<RequestRowsAnswer>('request-rows', undefined).then(
      (rows) => {
        if (this.table !== table) return;
        this.rows = rows;
        table.setRows(rows);
        const request = this.view?.requests[this.requestIndex];
        if (this.view && request) this.requestBarHost.replaceChildren(this.requestBar(this.view, request));
      },
      // Without a cache analysis the table keeps its token columns; the Cache panel reports the failure.
      () => undefined,
    );
    this.panelHost = el('div');
    this.main.replaceChildren(this.requestBarHost, table.element, this.stripHost, this.tabsHost, this.panelHost);
    this.updateRequest();
  }

  /** The selected request changed: its bar, the table's and the strip's marks, and the panel (if it shows it). */
  private updateRequest(): void {
    const view = this.view;
    const request = view?.requests[this.requestIndex];
    if (!view || !request) return;
    this.requestBarHost.replaceChildren(this.requestBar(view, request));
    this.table?.setSelected(this.requestIndex);
    this.stripHost.replaceChildren(view.requests.length > 1 ? renderRequestStrip(view, this.requestIndex, (i) => this.selectRequest(i)) : '');
    this.updatePanel(false);
  }

  /** Re-render the panel; a request change leaves a panel that does not show the request as it is. */
  private updatePanel(panelChanged: boolean): void {
    const view = this.view;
    const request = view?.requests[this.requestIndex];
    if (!view || !request) return;
    const panels = PANELS.filter((p) => this.panelAvailable(p));
    const active = panels.find((p) => p.id === this.panelId) ?? panels[0];
    this.tabsHost.replaceChildren(this.tabs(panels, active));
    // On a narrow screen the tab bar scrolls: keep the open tab in it.
    document.getElementById(`tab-${active?.id ?? ''}`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    if (!panelChanged && active?.showsRequest === false && this.panelHost.dataset['panel'] === active.id) return;
    this.panelAbort?.abort();
    this.panelAbort = null;
    const panelHost = el('div', {
      className: 'panel',
      attrs: { role: 'tabpanel', id: 'panel', 'aria-labelledby': `tab-${active?.id ?? ''}`, 'data-panel': active?.id ?? '' },
    });
    this.panelHost.replaceWith(panelHost);
    this.panelHost = panelHost;
    if (active) this.renderPanel(active, panelHost, view, request);
  }

  private renderPanel(panel: Panel, host: HTMLElement, view: AnalysisView, request: RequestView): void {
    const controller = new AbortController();
    this.panelAbort = controller;
    const ctx: PanelContext = {
      view,
      request,
      selectRequest: (index) => this.selectRequest(index),
      selectPanel: (id) => this.selectPanel(id),
      navigate: (to) => this.navigate(to),
      segment: this.segmentPath,
      selectSegment: (path) => {
        this.segmentPath = path;
        this.syncFragment();
      },
      treemap: this.treemap,
      setTreemap: (treemap) => {
        this.treemap = treemap;
        this.syncFragment();
      },
      reveal: this.revealNext,
      calibration: this.calibration,
      setCalibration: (on) => {
        this.calibration = on;
        this.updatePanel(true);
        this.syncFragment();
      },
      ask: <T>(name: string, params?: unknown) => this.client.ask<T>(name, params, controller.signal),
      signal: controller.signal,
    };
    this.revealNext = false;
    const fail = (error: unknown): void => {
      if (controller.signal.aborted) return;
      host.replaceChildren(el('p', { className: 'error', text: `The ${panel.title} panel failed: ${(error as Error).message}` }));
    };
    try {
      const result = panel.render(host, ctx);
      if (result instanceof Promise) result.catch(fail);
    } catch (error) {
      fail(error);
    }
  }

  private renderHeader(): void {
    const view = this.view;
    const brand = el('a', { className: 'brand', attrs: { href: './', title: 'Start over' } }, [
      el('span', { className: 'brand-mark', attrs: { 'aria-hidden': 'true' } }),
      'ctxray',
    ]);
    brand.addEventListener('click', (event) => {
      event.preventDefault();
      this.running?.abort();
      this.source = null;
      this.view = null;
      this.folder = null;
      this.clearingOnly = false;
      this.setMessage(null);
      this.render();
      this.syncFragment();
    });
    const sourceInfo = this.source && view
      ? el('div', { className: 'source' }, [
          // The view's one h1: what was opened (the start screen and the folder table have their own).
          el('h1', { className: 'source-name', text: this.sourceLabel(this.source), attrs: { title: this.sourceLabel(this.source) } }),
          this.source.kind === 'example' ? el('span', { className: 'badge', text: 'synthetic' }) : null,
          el('span', {
            className: 'muted',
            text: `${formatCount(view.requests.length)} request${view.requests.length === 1 ? '' : 's'} · ${transcriptKinds(view.files) ?? (view.formats.map((f) => FORMAT_LABELS[f]).join(', ') || 'no format')}`,
          }),
        ])
      : this.folder
        ? el('div', { className: 'source' }, [
            el('span', { className: 'source-name', text: this.folder.label, attrs: { title: this.folder.label } }),
            el('span', { className: 'muted', text: `folder · ${formatCount(this.folder.view.sessions.length)} sessions` }),
          ])
        : el('div', { className: 'source muted', text: 'Local-first X-ray of LLM agent requests' });

    const formatSelect = el('select', { attrs: { id: 'format-picker', 'aria-label': 'Input format' } }, [
      el('option', { text: 'Format: detect', attrs: { value: 'auto' } }),
      ...(Object.keys(FORMAT_LABELS) as WireFormat[]).map((f) => el('option', { text: FORMAT_LABELS[f], attrs: { value: f } })),
    ]);
    formatSelect.value = this.format ?? 'auto';
    formatSelect.addEventListener('change', () => {
      this.format = formatSelect.value === 'auto' ? undefined : (formatSelect.value as WireFormat);
      this.reanalyze();
    });

    const modelSelect = el('select', { attrs: { id: 'model-picker', 'aria-label': 'Model to count and price as' } }, [
      el('option', { text: 'Model: as in requests', attrs: { value: '' } }),
    ]);
    for (const provider of ['anthropic', 'openai'] as const) {
      const models = view?.knownModels.filter((m) => m.provider === provider) ?? [];
      if (models.length === 0) continue;
      modelSelect.append(
        el('optgroup', { attrs: { label: provider === 'anthropic' ? 'Anthropic' : 'OpenAI' } }, models.map((m) => el('option', { text: m.displayName === m.id ? m.id : `${m.displayName} (${m.id})`, attrs: { value: m.id } }))),
      );
    }
    if (this.model && ![...modelSelect.options].some((o) => o.value === this.model)) {
      modelSelect.append(el('option', { text: this.model, attrs: { value: this.model } }));
    }
    modelSelect.value = this.model ?? '';
    modelSelect.addEventListener('change', () => {
      this.model = modelSelect.value === '' ? undefined : modelSelect.value;
      this.reanalyze();
    });

    const folder = this.folder;
    const actions = el('div', { className: 'actions' }, [
      folder && view
        ? el('button', { className: 'folder-back', text: '← Sessions', attrs: { type: 'button', id: 'folder-back', title: `Back to the sessions in ${folder.label}` }, on: { click: () => this.backToFolder() } })
        : null,
      view ? formatSelect : null,
      view ? modelSelect : null,
      el('button', { text: 'Open…', attrs: { type: 'button', id: 'open-files', title: 'Open request files' }, on: { click: () => this.fileInput.click() } }),
      view ? el('button', { text: 'Copy link', attrs: { type: 'button', id: 'copy-link', title: this.linkCarries() }, on: { click: () => void this.copyLink() } }) : null,
    ]);
    this.header.replaceChildren(brand, sourceInfo, actions);
  }

  private renderNotice(): void {
    const message = this.message;
    if (!message) {
      this.notice.replaceChildren();
      return;
    }
    const details = message.details && message.details.length > 0
      ? el('ul', { className: 'notice-details mono' }, message.details.map((d) => el('li', { text: d })))
      : null;
    this.notice.replaceChildren(
      el('div', { className: `notice notice-${message.kind}`, attrs: { role: message.kind === 'error' ? 'alert' : 'status', id: 'notice' } }, [
        el('div', { className: 'notice-text', text: message.text }),
        details,
        el('button', { className: 'notice-close', text: '×', attrs: { type: 'button', 'aria-label': 'Dismiss' }, on: { click: () => this.setMessage(null) } }),
      ]),
    );
  }

  private requestBar(view: AnalysisView, request: RequestView): HTMLElement {
    const count = view.requests.length;
    const step = (delta: number, label: string, text: string): HTMLButtonElement => {
      const button = el('button', { className: 'icon', text, attrs: { type: 'button', 'aria-label': label, title: `${label} (${delta < 0 ? 'k' : 'j'})` } });
      button.disabled = (this.table?.neighbour(delta) ?? null) === null;
      button.addEventListener('click', () => this.stepRequest(delta));
      return button;
    };
    const file = view.files[request.file];
    // Each term and its value in one group, so a wrapped line never separates them.
    const stat = (term: string, value: HTMLElement): HTMLElement => el('div', { className: 'stat' }, [el('dt', { text: term }), value]);
    const stats = el('dl', { className: 'request-stats' }, [
      stat(
        'Tokens',
        el('dd', {
          className: 'big',
          text: formatTokens(request.total, request.exact),
          attrs: { id: 'request-total', 'data-total': String(request.total), 'data-exact': String(request.exact) },
        }),
      ),
      request.recordedPrompt !== null
        ? stat(
            'Provider counted',
            el('dd', {
              text: formatCount(request.recordedPrompt),
              attrs: { id: 'recorded-total', title: 'Prompt tokens the provider reported for this request (input + cache reads + cache writes), read from the log' },
            }),
          )
        : null,
      // The request's own blocks; the inferred setup is not one of them.
      stat('Segments', el('dd', { text: formatCount(request.segments.filter((s) => s.category !== 'setup_inferred').length), attrs: { id: 'segment-count' } })),
      stat('Messages', el('dd', { text: formatCount(request.messageCount) })),
      stat('Model', el('dd', { className: 'mono', text: request.model ?? 'none named' })),
      stat('Source', el('dd', { className: 'mono', text: `${file?.name ?? ''}${count > 1 || request.line > 1 ? `, line ${request.line}` : ''}` })),
    ]);
    const unknownModel = view.models.find((m) => m.id === request.model && !m.known);
    const notes = [
      !request.exact
        ? request.format === 'anthropic-messages'
          ? 'Counts marked ≈ are estimates (Claude has no public tokenizer; media and some framing are estimated).'
          : 'Counts marked ≈ are estimates (OpenAI tool definitions, media and unverified framing are estimated; the rest is exact).'
        : null,
      unknownModel && request.model ? `“${request.model}” has no pricing entry (prices checked ${view.pricedOn}); it is reported, not priced as another model.` : null,
      ...request.notes.map(noteText),
    ].filter((n): n is string => n !== null);
    // The open request's cache miss, with links to the block it names and to the diff that shows it.
    const cause = this.rows?.missCause[this.requestIndex] ?? null;
    const missBlock = this.rows?.missBlock[this.requestIndex] ?? null;
    // A block the request shows gets a link; the unrecorded setup a miss may name is no segment of it.
    const blockLink =
      missBlock !== null && request.segments.some((s) => s.path === missBlock)
        ? el('button', { className: 'link', text: `block ${missBlock}`, attrs: { type: 'button' }, on: { click: () => this.navigate({ panel: 'tokens', segment: missBlock }) } })
        : null;
    const miss =
      cause === null || this.rows === null
        ? null
        : el('p', { className: 'request-miss', attrs: { id: 'request-miss' } }, [
            el('strong', { text: 'Cache miss: ' }),
            missTitle(this.rows, this.requestIndex),
            ' · ',
            blockLink,
            blockLink !== null ? ' · ' : null,
            el('button', { className: 'link', text: 'diff', attrs: { type: 'button' }, on: { click: () => this.navigate({ panel: 'diff', ...(missBlock !== null && { segment: missBlock }) }) } }),
            ' · ',
            el('button', { className: 'link', text: 'cache row', attrs: { type: 'button' }, on: { click: () => this.navigate({ panel: 'cache' }) } }),
          ]);
    return el('section', { className: 'request-bar', attrs: { 'aria-label': 'Selected request' } }, [
      el('div', { className: 'request-nav' }, [
        el('h2', { className: 'section-title', text: 'Request' }),
        step(-1, 'Previous request', '‹'),
        el('strong', { className: 'request-number', text: `#${formatCount(this.requestIndex + 1)}`, attrs: { id: 'request-current', 'data-index': String(this.requestIndex) } }),
        step(1, 'Next request', '›'),
        el('span', { className: 'muted small', text: `of ${formatCount(count)}` }),
      ]),
      stats,
      miss,
      notes.length > 0 ? el('ul', { className: 'request-notes' }, notes.map((n) => el('li', { text: n }))) : null,
    ]);
  }

  private tabs(panels: Panel[], active: Panel | undefined): HTMLElement {
    const list = el(
      'div',
      { className: 'tabs', attrs: { role: 'tablist', 'aria-label': 'Views' } },
      panels.map((panel) =>
        el('button', {
          className: 'tab',
          text: panel.title,
          attrs: {
            type: 'button',
            role: 'tab',
            id: `tab-${panel.id}`,
            'aria-selected': String(panel === active),
            'aria-controls': 'panel',
            tabindex: panel === active ? '0' : '-1',
          },
          on: { click: () => this.selectPanel(panel.id) },
        }),
      ),
    );
    list.addEventListener('keydown', (event) => {
      const index = panels.findIndex((p) => p === active);
      const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (delta === 0 || panels.length === 0) return;
      event.preventDefault();
      const next = panels[(index + delta + panels.length) % panels.length];
      if (next) this.selectPanel(next.id);
    });
    return list;
  }
}
