// How a panel plugs into the web app. A panel is a plain object: it declares which optional analysis sections it
// needs, and renders into a container it owns. Heavy or text-bearing data stays in the worker; a panel asks for it
// through `ask`, answered by a handler registered in src/worker/handlers.ts.
import type { Ask } from '../../worker/queries.ts';
import type { AnalysisView, RequestView, SectionName } from '../../worker/view-model.ts';

/** Every panel's id, in the URL fragment (`&panel=<id>`) and in element ids: a new panel adds its id here. */
export type PanelId = 'tokens' | 'findings' | 'cache' | 'diff' | 'conversations' | 'timeline' | 'summary' | 'duplicates' | 'clearing';

export interface PanelContext {
  /** The current analysis, text-free. */
  view: AnalysisView;
  /** The request selected in the request selector. */
  request: RequestView;
  /** Select another request (updates the selector, the treemap, the URL and every panel). */
  selectRequest(index: number): void;
  /** Switch to another panel by id (as clicking its tab does). */
  selectPanel(id: PanelId): void;
  /**
   * Go where a finding, a miss or a link points: a request, a panel and a block (by JSON path) in one step. The
   * panel that opens gets `reveal` set and brings the block into view, selected and focused.
   */
  navigate(to: NavigationTarget): void;
  /** JSON path of the selected block (kept while stepping between requests, and in the link), or null. */
  segment: string | null;
  /** Remember the selected block (null: none); changes nothing on screen. */
  selectSegment(path: string | null): void;
  /** The treemap's zoom group (`zoomGroupOf` in src/render/treemap-zoom.ts, null: whole request) and search text. */
  treemap: TreemapView;
  /** Remember the treemap's zoom and search (kept across requests, in the link); changes nothing on screen. */
  setTreemap(view: TreemapView): void;
  /** True when this render follows a navigation: show the block named by `segment` and move the focus there. */
  reveal: boolean;
  /** Whether Claude estimates are calibrated on the log's recorded usage (on unless turned off; in the link). */
  calibration: boolean;
  /** Turn calibration on or off: the open panel renders again with it and the link follows. */
  setCalibration(on: boolean): void;
  /**
   * Ask the worker a named question (src/worker/queries.ts: the name fixes the params and the answer). Params and
   * answer are structured-cloned. Rejects with an Error whose message is shown to the user when the worker fails.
   */
  ask: Ask;
  /** Aborted when this render is superseded (new input, new request selected, panel closed). */
  signal: AbortSignal;
}

export interface TreemapView {
  zoom: string | null;
  search: string;
}

export interface NavigationTarget {
  /** 0-based request index. */
  request?: number;
  panel?: PanelId;
  /** JSON path of a block in that request. */
  segment?: string | null;
}

export interface Panel {
  /** Stable id used in the URL fragment (`&panel=<id>`) and in element ids. Lowercase, [a-z0-9-]. */
  id: PanelId;
  /** Short tab title. */
  title: string;
  /**
   * Optional analysis sections (top-level Analysis fields, listed in `AnalysisView.sections`) this panel needs;
   * the tab is shown only when all are present. Absent or empty: the panel works from the base view alone.
   */
  needs?: readonly SectionName[];
  /**
   * True for a panel that reads what the requests carried (blocks, their text, their order): its tab is hidden when
   * the input recorded usage but no bodies (every request `usage_only`), where it would show only inferred blocks.
   */
  readsBodies?: boolean;
  /**
   * False for a panel that shows the whole input the same whatever request is selected (a summary, a workspace
   * with its own inputs): selecting another request then leaves it as it is instead of rendering it again.
   */
  showsRequest?: boolean;
  /**
   * Fill `container` (emptied before each call). Payload text must be set with textContent, never innerHTML.
   * Called again whenever the analysis or (unless `showsRequest` is false) the selected request changes.
   */
  render(container: HTMLElement, ctx: PanelContext): void | Promise<void>;
}
