// The application shell: which screen shows (src/ui/screen.ts), opening input, the header, the notice and the URL
// fragment. All analysis happens in the worker; the screens render what it answers.
import type { WireFormat } from '../core/model.ts';
import type { InputBlob } from '../worker/inputs.ts';
import { el } from './dom.ts';
import { ExampleIndex } from './examples.ts';
import { renderHeader, saveAnalysis } from './header.ts';
import { installDragAndDrop, installPaste } from './input-events.ts';
import { sourceLabel } from './labels.ts';
import { isFileLimitError } from './limit-errors.ts';
import { copyLink, linkCarries, writeFragment, type LinkState } from './link.ts';
import { renderNotice, type Message } from './notice.ts';
import { analyzeInputs, folderLabel, inputsOf, locatedErrors, openedMessage, readDroppedFolder, type FolderSource } from './opening.ts';
import { chooseAndCompare, type CompareFlowDeps } from './compare/flow.ts';
import { openFolder, type FolderOpenDeps } from './folder-open.ts';
import { mountCompareScreen } from './compare/view.ts';
import { PANELS } from './panels/index.ts';
import type { PanelId } from './panels/types.ts';
import { prefillClearing } from './panels/clearing.ts';
import { showProgress } from './progress.ts';
import { folderOf, loadedOf, START, transition, type FolderEntry, type Screen, type ScreenEvent, type Source } from './screen.ts';
import { mountClearingScreen } from './screens/clearing.ts';
import { mountFolderScreen } from './screens/folder.ts';
import { SessionScreen, type ViewPrefs } from './screens/session.ts';
import { parseFragment, type ParsedFragment } from './share.ts';
import { applyLinkPrefs, namesSource } from './link-open.ts';
import { installShortcuts } from './shortcuts.ts';
import { localFilesLinkMessage, renderStartScreen } from './start-screen.ts';
import { shareRepeatedStrings } from './intern-view.ts';
import { WorkerClient, WorkerFailure } from './worker-client.ts';
import { startAnalysisWorker } from './worker-factory.ts';

/** Cancel waits this long for the worker to stop cooperatively before the worker is replaced. */
const CANCEL_GRACE_MS = 1500;

const FIRST_PANEL: PanelId = PANELS[0]?.id ?? 'tokens';
const freshPrefs = (panelId: PanelId): ViewPrefs => ({ panelId, segmentPath: null, treemap: { zoom: null, search: '' }, calibration: true });

export class App {
  private readonly client = new WorkerClient(
    startAnalysisWorker,
    (error) => this.workerCrashed(error),
    // How many workers this page has started: e2e tests see a replacement here, users never need it.
    (generation) => document.body.setAttribute('data-worker-generation', String(generation)),
  );
  private screen: Screen = START;
  /** The session screen's own state while a session shows (the selected request, its table). */
  private session: SessionScreen | null = null;
  private readonly prefs: ViewPrefs = freshPrefs(FIRST_PANEL);
  private format: WireFormat | undefined;
  private model: string | undefined;
  private readonly examples = new ExampleIndex();
  private running: AbortController | null = null;
  private message: Message | null = null;
  private cancelTimer: number | undefined;
  /** The fragment this app last wrote, so its own hashchange is not replayed. */
  private writtenHash = '';
  /** Stops the clearing screen's work when it is left. */
  private workspaceAbort: AbortController | null = null;

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
    const input = {
      files: (inputs: InputBlob[]) => void this.openNew({ kind: 'files', inputs }),
      folder: (entries: FileSystemEntry[]) => void this.openDroppedFolder({ entries }),
      paste: (text: string) => void this.openNew({ kind: 'paste', text }),
    };
    this.fileInput.addEventListener('change', () => {
      const files = [...(this.fileInput.files ?? [])];
      this.fileInput.value = '';
      if (files.length > 0) input.files(files.map((f) => ({ name: f.name, blob: f })));
    });
    installDragAndDrop(this.dropOverlay, input);
    installPaste(input);
    installShortcuts({
      step: (delta) => this.session?.stepRequest(delta),
      focusFilter: () => document.getElementById('request-filter')?.focus(),
      focusTable: () => this.session?.focusTable({ unfold: true }),
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
    void this.examples.list().then(() => {
      if (this.screen.kind === 'start' && !this.running) this.render();
    });
    void this.applyFragment(location.hash);
  }

  /** The one place the screen changes; `session` is the new session screen when the event opened one. */
  private go(event: ScreenEvent, session: SessionScreen | null = null): void {
    this.screen = transition(this.screen, event);
    if (this.session !== session) this.session?.unmount();
    this.session = this.screen.kind === 'session' ? session : null;
    this.render();
    this.syncFragment();
  }

  // ---- opening input -------------------------------------------------------------------------------------------

  private async applyFragment(hash: string): Promise<void> {
    const parsed = parseFragment(hash);
    if (!parsed.ok) this.setMessage({ kind: 'error', text: `This link could not be read fully: ${parsed.error}.` });
    const state = parsed.state;
    const source = loadedOf(this.screen)?.source;
    applyLinkPrefs(this.prefs, state, FIRST_PANEL);
    // Same input and options as on screen (the address bar edited, back/forward): only move within it.
    if (source && namesSource(state, source) && state.format === this.format && state.model === this.model) {
      if (state.request !== undefined) this.session?.moveTo(state.request - 1);
      this.render();
      this.syncFragment();
      return;
    }
    this.format = state.format;
    this.model = state.model;
    await this.openLinked(parsed, source);
  }

  /** Opens what a link names: an example, pasted input, or the input on screen with the link's options. */
  private async openLinked({ ok, state }: ParsedFragment, source: Source | undefined): Promise<void> {
    if (state.example !== undefined) {
      const entry = (await this.examples.list()).find((e) => e.id === state.example);
      if (entry) await this.open({ kind: 'example', entry }, state.request);
      else this.setMessage({ kind: 'error', text: `This link names an example "${state.example}" that this build does not have.` });
    } else if (state.input !== undefined) {
      await this.open({ kind: 'paste', text: state.input }, state.request);
    } else if (source) {
      // Options changed in the address bar for the input on screen.
      await this.open(source, state.request);
    } else if (ok) {
      // Nothing on screen and nothing in the link to open: it was shared from files opened from disk.
      const local = localFilesLinkMessage(state);
      if (local !== null) this.setMessage({ kind: 'info', text: local });
    }
  }

  /** A new input from the user: the format and model pickers and the view settings apply to one input only. */
  private openNew(source: Source, options: { folder: FolderEntry | null } = { folder: null }): Promise<void> {
    this.format = undefined;
    this.model = undefined;
    Object.assign(this.prefs, freshPrefs(this.prefs.panelId));
    return this.open(source, undefined, options.folder);
  }

  /** Starts a worker job of its own: a newer one supersedes it; the progress box can cancel it. */
  private begin(title: string): { controller: AbortController; progress: ReturnType<typeof showProgress> } {
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    this.setMessage(null);
    return { controller, progress: showProgress(this.progressHost, title, () => this.cancel(controller)) };
  }

  private end(controller: AbortController, progress: ReturnType<typeof showProgress>): void {
    if (this.running === controller) this.running = null;
    // The worker answered (even if only "cancelled"): it is responsive, so it need not be replaced.
    window.clearTimeout(this.cancelTimer);
    progress.remove();
  }

  /**
   * Analyze a source; `request` is the 1-based request to open on (from a link); `folder` the table it was opened
   * from (kept to go back to; null for any other input, which leaves the folder).
   */
  private async open(source: Source, request?: number, folder: FolderEntry | null = folderOf(this.screen)): Promise<void> {
    const label = sourceLabel(source);
    const { controller, progress } = this.begin(`Opening ${label}`);
    try {
      const inputs = await inputsOf(source, progress, controller.signal);
      const names = inputs.map((i) => i.name);
      const options = { ...(this.format && { format: this.format }), ...(this.model && { model: this.model }) };
      const view = await analyzeInputs(this.client, { inputs, options, progress, signal: controller.signal });
      if (controller.signal.aborted) return;
      shareRepeatedStrings(view);
      const limitHits = view.errors.filter(isFileLimitError);
      if (limitHits.length > 0) {
        this.refuseAtLimit(label, locatedErrors({ ...view, errors: limitHits }, names), folder);
        return;
      }
      this.setMessage(openedMessage(label, view, names));
      this.go({ type: 'opened', loaded: { source, view }, folder }, this.sessionScreen(view, request !== undefined ? request - 1 : view.initialRequest));
      // The focus was on what opened the input (a button, the paste box) which is gone: the table comes next.
      if (document.activeElement === document.body || !document.activeElement?.isConnected) this.session?.focusTable({ unfold: false });
    } catch (error) {
      if (this.running !== controller) return; // superseded by a newer open, which owns the screen now
      if (controller.signal.aborted || (error instanceof WorkerFailure && error.kind === 'cancelled')) {
        this.setMessage({ kind: 'info', text: `Cancelled opening ${label}.` });
      } else {
        const retry = error instanceof WorkerFailure && error.kind === 'crash' ? ' Open it again to retry in a fresh worker.' : '';
        this.setMessage({ kind: 'error', text: `${label}: ${(error as Error).message}${retry}` });
      }
      // The worker dropped its previous session when this analysis started; the old view cannot fetch content.
      this.go({ type: 'open-failed', folder });
    } finally {
      this.end(controller, progress);
    }
  }

  private sessionScreen(view: SessionScreen['view'], request: number): SessionScreen {
    return new SessionScreen(view, request, { client: this.client, prefs: this.prefs, changed: () => this.syncFragment() });
  }

  /** The compare flow's hooks into the shell; a comparison leaves the worker's session as it was, to go back to. */
  private readonly compareDeps: CompareFlowDeps = {
    client: this.client,
    begin: (title) => this.begin(title), end: (job) => this.end(job.controller, job.progress),
    setMessage: (message) => this.setMessage(message),
    show: (compared) => this.go({ type: 'compared', compared, request: this.session?.requestIndex ?? 0 }),
  };

  /** Back from a comparison: to its session (the worker still holds it), folder or the start page. */
  private backFromCompare(): void {
    const back = this.screen.kind === 'compare' ? this.screen.back : null;
    this.leave({ type: 'back-from-compare' }, back?.kind === 'session' ? this.sessionScreen(back.loaded.view, back.request) : null);
  }

  /**
   * A file stopped at a resource limit (decompressed or file size, one document's size): the input is not shown
   * cut short, and the worker that read it is replaced, since its heap may stay grown to the limit. Neither the
   * crash recovery nor anything else reads this input again; the next input starts in the fresh worker.
   */
  private refuseAtLimit(label: string, details: string[], folder: FolderEntry | null): void {
    this.client.replace(new WorkerFailure('The worker was replaced after an input reached a size limit.', 'cancelled'));
    const text = `${label} was not opened: it reached a size limit (below). The analysis worker was replaced, so the next input starts fresh.`;
    this.setMessage({ kind: 'error', text, details });
    this.go({ type: 'open-failed', folder });
  }

  /**
   * The worker died and took the analyzed input with it. When that happened outside an analysis, read the input
   * again in a fresh worker so the view keeps working; a crash during an analysis is reported by that analysis
   * and not retried (the input itself may be the cause).
   */
  private workerCrashed(error: WorkerFailure): void {
    const loaded = loadedOf(this.screen);
    if (this.running || !loaded) return;
    const { source } = loaded;
    void this.open(source, (this.session?.requestIndex ?? 0) + 1).then(() => {
      if (loadedOf(this.screen)?.source === source) {
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

  private reanalyze(options: { format: WireFormat | undefined; model: string | undefined }): void {
    this.format = options.format;
    this.model = options.model;
    const loaded = loadedOf(this.screen);
    if (loaded) void this.open(loaded.source, (this.session?.requestIndex ?? 0) + 1);
    else this.syncFragment();
  }

  /** A dropped or chosen folder: a clearing case opens in the clearing workspace; anything else as request logs. */
  private async openDroppedFolder(source: FolderSource): Promise<void> {
    const dropped = await readDroppedFolder(this.client, source);
    if (dropped.kind === 'clearing') {
      prefillClearing(dropped.inputs, dropped.roles);
      this.openClearing({ analyzeNow: true });
    } else if (dropped.kind === 'empty') {
      this.setMessage({ kind: 'error', text: `${folderLabel(source)} holds no .jsonl, .json or .gz file that could be read.`, details: dropped.skipped });
    } else {
      const label = folderLabel(source);
      await this.openFolder(dropped.inputs, dropped.sessions === undefined ? label : `${label}/${dropped.sessions}`, dropped.skipped);
    }
  }

  /** A folder's sessions, read on a pool of session workers, as the folder table (src/ui/folder-open.ts). */
  private openFolder(inputs: InputBlob[], label: string, skipped: string[]): Promise<void> {
    return openFolder(this.folderDeps, { inputs, label, skipped });
  }

  private readonly folderDeps: FolderOpenDeps = {
    client: this.client,
    begin: (title) => this.begin(title), end: (job) => this.end(job.controller, job.progress),
    current: (controller) => this.running === controller,
    setMessage: (message) => this.setMessage(message), hasMessage: () => this.message !== null,
    go: (event) => this.go(event), openFiles: (inputs) => this.openNew({ kind: 'files', inputs }),
    header: () => this.renderTop(),
  };

  /** Opens session `i` of the folder table as a normal analysis (its subagents' files with it). */
  private openFolderSession(folder: FolderEntry, i: number): void {
    const row = folder.view.sessions[i];
    if (!row) return;
    folder.state.opened = i;
    void this.openNew({ kind: 'files', inputs: row.inputs.flatMap((j) => folder.inputs[j] ?? []) }, { folder });
  }

  /** The clearing workspace with no request log: from the start screen's entry or a dropped case folder. */
  private openClearing(options: { analyzeNow: boolean }): void {
    this.leave({ type: 'clearing' });
    if (options.analyzeNow) this.mountClearing(options);
  }

  /** Leaves the screen (for the start page, a folder table, the clearing workspace…), stopping any open in progress. */
  private leave(event: ScreenEvent, session: SessionScreen | null = null): void {
    this.running?.abort();
    this.setMessage(null);
    this.go(event, session);
  }

  /** The header alone (a folder filling in changes its counts, not the screen). */
  private renderTop(): void {
    renderHeader(this.header, {
      screen: this.screen,
      format: this.format,
      model: this.model,
      linkTitle: linkCarries(this.screen),
      home: () => this.leave({ type: 'home' }),
      reanalyze: (options) => this.reanalyze(options),
      openFiles: () => this.fileInput.click(),
      copyLink: () => void copyLink(this.linkState()).then((message) => this.setMessage(message)),
      backToFolder: () => this.leave({ type: 'back-to-folder' }),
      exportAnalysis: (format) => void saveAnalysis(this.client, format, (message) => this.setMessage(message)),
      compareWith: () => chooseAndCompare(this.compareDeps, this.screen),
    });
  }

  private linkState(): LinkState {
    return { screen: this.screen, session: this.session, prefs: this.prefs, format: this.format, model: this.model };
  }

  private syncFragment(): void {
    this.writtenHash = writeFragment(this.linkState());
  }

  private setMessage(message: Message | null): void {
    this.message = message;
    renderNotice(this.notice, message, () => this.setMessage(null));
  }

  private mountClearing(options: { analyzeNow: boolean }): void {
    this.workspaceAbort?.abort();
    this.workspaceAbort = mountClearingScreen(this.main, this.client, options);
  }

  private render(): void {
    const { screen } = this;
    this.renderTop();
    renderNotice(this.notice, this.message, () => this.setMessage(null));
    this.workspaceAbort?.abort();
    this.workspaceAbort = null;
    this.session?.unmount();
    switch (screen.kind) {
      case 'session':
        this.session?.mount(this.main);
        return;
      case 'clearing':
        this.mountClearing({ analyzeNow: false });
        return;
      case 'compare':
        return mountCompareScreen(this.main, screen, { back: () => this.backFromCompare() });
      case 'folder':
        mountFolderScreen(this.main, screen.folder, (i) => this.openFolderSession(screen.folder, i));
        return;
      case 'start':
        this.main.className = 'main main-start';
        // A paste that could not be read stays in the box, ready to be fixed.
        renderStartScreen(this.main, { examples: this.examples.entries, examplesError: this.examples.error, pasted: screen.unread?.source.kind === 'paste' ? screen.unread.source.text : '' }, {
          chooseFiles: () => this.fileInput.click(),
          chooseFolder: (files) => void this.openDroppedFolder({ files }),
          paste: (text) => void this.openNew({ kind: 'paste', text }),
          openExample: (entry) => void this.openNew({ kind: 'example', entry }),
          openClearing: () => this.openClearing({ analyzeNow: false }),
        });
    }
  }
}
