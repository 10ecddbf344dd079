// The session screen: an analysed input's request list, the selected request's bar and overview strip, the panel
// tabs and the open panel. It keeps what changes while the user moves within the input (the selected request, the
// table, the cache rows); what a link carries (panel, block, treemap, calibration) lives in the shared `prefs`.
import type { RequestRowsAnswer } from '../../worker/handlers/request-rows.ts';
import type { AnalysisView, RequestView } from '../../worker/view-model.ts';
import { el } from '../dom.ts';
import { PANELS } from '../panels/index.ts';
import type { NavigationTarget, Panel, PanelContext, PanelId, TreemapView } from '../panels/types.ts';
import { renderRequestBar } from '../request-bar.ts';
import { renderRequestStrip } from '../request-strip.ts';
import { createRequestTable, type RequestTableHandle } from '../request-table.ts';
import { renderTabs } from '../tabs.ts';
import type { WorkerClient } from '../worker-client.ts';

/** The view settings a link carries and a new input resets (src/ui/link.ts writes them to the fragment). */
export interface ViewPrefs {
  panelId: PanelId;
  /** JSON path of the selected block: kept across requests that have it, and in the link. */
  segmentPath: string | null;
  /** The Tokens treemap's zoom group and search: kept across requests (a zoom the request lacks shows it whole). */
  treemap: TreemapView;
  /** Claude estimates calibrated on the log's recorded usage (the Cache panel's box; `calibrate=off` in links). */
  calibration: boolean;
}

export interface SessionDeps {
  client: WorkerClient;
  prefs: ViewPrefs;
  /** The view moved (request, panel, block, ...): the address bar follows. */
  changed(): void;
}

export function panelAvailable(panel: Panel, view: AnalysisView): boolean {
  if (panel.readsBodies === true && view.usageOnly) return false;
  return (panel.needs ?? []).every((need) => view.sections.includes(need));
}

export class SessionScreen {
  requestIndex: number;
  private table: RequestTableHandle | null = null;
  private rows: RequestRowsAnswer | null = null;
  /** The next panel render follows a navigation and should bring `segmentPath` into view and focus. */
  private revealNext = false;
  private panelAbort: AbortController | null = null;
  private readonly requestBarHost = el('div', { className: 'request-bar-host' });
  private readonly stripHost = el('div', { className: 'strip-host' });
  private readonly tabsHost = el('div', { className: 'tabs-host' });
  private panelHost: HTMLElement = el('div');

  constructor(
    readonly view: AnalysisView,
    requestIndex: number,
    private readonly deps: SessionDeps,
  ) {
    this.requestIndex = this.clamp(requestIndex);
    const { prefs } = deps;
    if (!PANELS.some((p) => p.id === prefs.panelId && panelAvailable(p, view))) prefs.panelId = PANELS[0]?.id ?? 'tokens';
  }

  private clamp(index: number): number {
    return Math.min(Math.max(0, index), Math.max(0, this.view.requests.length - 1));
  }

  /** Builds the screen into `main`. */
  mount(main: HTMLElement): void {
    main.className = 'main main-loaded';
    const table = createRequestTable(this.view, this.requestIndex, (i) => this.selectRequest(i));
    this.table = table;
    this.rows = null;
    void this.deps.client.ask('request-rows', undefined).then(
      (rows) => {
        if (this.table !== table) return;
        this.rows = rows;
        table.setRows(rows);
        this.requestBarHost.replaceChildren(this.requestBar());
      },
      // Without a cache analysis the table keeps its token columns; the Cache panel reports the failure.
      () => undefined,
    );
    this.panelHost = el('div');
    main.replaceChildren(
      el('div', { className: 'session-layout' }, [
        this.requestList(table),
        el('div', { className: 'session-main' }, [this.requestBarHost, this.tabsHost, this.panelHost]),
      ]),
    );
    this.updateRequest();
  }

  /**
   * The request list beside the picture (the DevTools Network pattern): a side column on a wide screen; on a
   * narrow one it is folded behind a button, so the selected request's treemap is on the first screen.
   */
  private requestList(table: RequestTableHandle): HTMLElement {
    const count = this.view.requests.length;
    const toggle = el('button', {
      className: 'requests-toggle',
      text: `Requests (${count})`,
      attrs: { type: 'button', id: 'requests-toggle', 'aria-expanded': 'false', 'aria-controls': 'requests-list' },
    });
    const list = el('div', { className: 'requests-list', attrs: { id: 'requests-list' } }, [table.element, this.stripHost]);
    const side = el('aside', { className: 'requests-side folded', attrs: { 'aria-label': 'Request list' } }, [toggle, list]);
    this.unfold = () => {
      side.classList.remove('folded');
      toggle.setAttribute('aria-expanded', 'true');
    };
    toggle.addEventListener('click', () => {
      const folded = side.classList.toggle('folded');
      toggle.setAttribute('aria-expanded', String(!folded));
    });
    return side;
  }

  /** Shows the request list where it is folded (a narrow screen). */
  private unfold: () => void = () => undefined;

  /** The screen is left: its panel's work stops, and late answers are ignored. */
  unmount(): void {
    this.panelAbort?.abort();
    this.panelAbort = null;
    this.table = null;
  }

  /** `unfold`: show a folded list first (the `t` shortcut); after opening an input a folded list stays folded. */
  focusTable(options: { unfold: boolean }): void {
    if (options.unfold) this.unfold();
    this.table?.focus();
  }

  /** The same input, moved to another request (a link edited in the address bar, back / forward); mount again to show it. */
  moveTo(request: number): void {
    this.requestIndex = this.clamp(request);
  }

  selectRequest(index: number): void {
    const clamped = this.clamp(index);
    if (clamped === this.requestIndex) return;
    this.requestIndex = clamped;
    this.updateRequest();
    this.deps.changed();
  }

  /** Go to a request, a panel and a block at once (a finding's or a miss's link); the block ends focused. */
  navigate(to: NavigationTarget): void {
    const { prefs } = this.deps;
    if (to.segment !== undefined) prefs.segmentPath = to.segment;
    if (to.panel !== undefined && PANELS.some((p) => p.id === to.panel && panelAvailable(p, this.view))) prefs.panelId = to.panel;
    this.revealNext = true;
    const request = to.request === undefined ? this.requestIndex : this.clamp(to.request);
    if (request !== this.requestIndex) {
      this.requestIndex = request;
      this.updateRequest();
    } else this.updatePanel(true);
    this.deps.changed();
  }

  /** The request `delta` rows from the open one in the request table's order (sorted, filtered), if any. */
  stepRequest(delta: number): void {
    const next = this.table?.neighbour(delta);
    if (next !== null && next !== undefined) this.selectRequest(next);
  }

  selectPanel(id: PanelId): void {
    if (id === this.deps.prefs.panelId) return;
    this.deps.prefs.panelId = id;
    this.updatePanel(true);
    this.deps.changed();
    document.getElementById(`tab-${id}`)?.focus();
  }

  private requestBar(): HTMLElement {
    return renderRequestBar({
      view: this.view,
      index: this.requestIndex,
      rows: this.rows,
      neighbour: (delta) => this.table?.neighbour(delta) ?? null,
      step: (delta) => this.stepRequest(delta),
      navigate: (to) => this.navigate(to),
    });
  }

  /** The selected request changed: its bar, the table's and the strip's marks, and the panel (if it shows it). */
  private updateRequest(): void {
    const { view } = this;
    if (!view.requests[this.requestIndex]) return;
    this.requestBarHost.replaceChildren(this.requestBar());
    this.table?.setSelected(this.requestIndex);
    this.stripHost.replaceChildren(view.requests.length > 1 ? renderRequestStrip(view, this.requestIndex, (i) => this.selectRequest(i)) : '');
    this.updatePanel(false);
  }

  /** Re-render the panel; a request change leaves a panel that does not show the request as it is. */
  private updatePanel(panelChanged: boolean): void {
    const { view } = this;
    const request = view.requests[this.requestIndex];
    if (!request) return;
    const panels = PANELS.filter((p) => panelAvailable(p, view));
    const active = panels.find((p) => p.id === this.deps.prefs.panelId) ?? panels[0];
    this.tabsHost.replaceChildren(renderTabs(panels, active, (id) => this.selectPanel(id)));
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
    if (active) this.renderPanel(active, panelHost, request);
  }

  private panelContext(request: RequestView, signal: AbortSignal): PanelContext {
    const { prefs, client } = this.deps;
    return {
      view: this.view,
      request,
      selectRequest: (index) => this.selectRequest(index),
      selectPanel: (id) => this.selectPanel(id),
      navigate: (to) => this.navigate(to),
      segment: prefs.segmentPath,
      selectSegment: (path) => {
        prefs.segmentPath = path;
        this.deps.changed();
      },
      treemap: prefs.treemap,
      setTreemap: (treemap) => {
        prefs.treemap = treemap;
        this.deps.changed();
      },
      reveal: this.revealNext,
      calibration: prefs.calibration,
      setCalibration: (on) => {
        prefs.calibration = on;
        this.updatePanel(true);
        this.deps.changed();
      },
      ask: client.asker(signal),
      signal,
    };
  }

  private renderPanel(panel: Panel, host: HTMLElement, request: RequestView): void {
    const controller = new AbortController();
    this.panelAbort = controller;
    const ctx = this.panelContext(request, controller.signal);
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
}
