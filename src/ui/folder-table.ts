// The folder table: a dropped folder's sessions (and their sums per project and per UTC day) as the worker computed
// them (src/worker/folder.ts; the rows of `ctxray analyze <folder> --json` sessions[]) — requests, recorded input,
// output, cache read and write, recorded cost, hit rate and what cache misses cost — in the shared virtualized grid,
// sortable by any column. A session row opens that session's full analysis; a project or day row lists its sessions.
import './folder-table.css';
import { el } from './dom.ts';
import { formatCount, formatUsd } from '../render/format.ts';
import type { GroupRow, SessionRow } from '../core/transcripts/index.ts';
import { agentLabel } from '../core/formats/labels.ts';
import type { FolderSessionRow, FolderView } from '../worker/folder.ts';
import { exportButtons, type Cell } from './export.ts';
import { createVirtualGrid, gridNumber, gridText, nextSort, sortByKey, type GridColumn, type GridHandle, type GridSort } from './virtual-grid.ts';
import { createFolderCharts } from './folder-charts.ts';
import type { SeriesBucketing } from '../core/transcripts/daily.ts';

export type FolderTab = 'sessions' | 'projects' | 'days';

type ColumnId = 'name' | 'agent' | 'start' | 'sessions' | 'requests' | 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'cost' | 'hitRate' | 'lost';

const FIGURES: readonly GridColumn<ColumnId>[] = [
  { id: 'requests', title: 'Requests', numeric: true, describe: 'API calls, its subagents’ included' },
  { id: 'input', title: 'Input', numeric: true, describe: 'Uncached input tokens the provider recorded' },
  { id: 'output', title: 'Output', numeric: true, describe: 'Output tokens the provider recorded' },
  { id: 'cacheRead', title: 'Cache read', numeric: true, describe: 'Cache read tokens the provider recorded' },
  { id: 'cacheWrite', title: 'Cache write', numeric: true, describe: 'Cache write tokens the provider recorded (5-minute and 1-hour)' },
  { id: 'cost', title: 'Cost', numeric: true, describe: 'Recorded usage at the models’ prices, USD (unpriced models add nothing)' },
  { id: 'hitRate', title: 'Hit rate', numeric: true, describe: 'Cache read ÷ all prompt tokens recorded' },
  { id: 'lost', title: 'Lost to misses', numeric: true, describe: 'What the cache misses cost over hits, USD' },
];

const COLUMNS: Record<FolderTab, readonly GridColumn<ColumnId>[]> = {
  sessions: [
    { id: 'name', title: 'Session', numeric: false, describe: 'The session’s file, inside the dropped folder' },
    { id: 'agent', title: 'Agent', numeric: false, describe: 'What wrote the log' },
    { id: 'start', title: 'Start (UTC)', numeric: false, describe: 'Time of its first request' },
    ...FIGURES,
  ],
  projects: [
    { id: 'name', title: 'Project', numeric: false, describe: 'The first folder of the sessions’ paths' },
    { id: 'sessions', title: 'Sessions', numeric: true, describe: 'Sessions in the project' },
    ...FIGURES,
  ],
  days: [
    { id: 'name', title: 'Day (UTC)', numeric: false, describe: 'The day of the requests' },
    { id: 'sessions', title: 'Sessions', numeric: true, describe: 'Sessions with requests that day' },
    ...FIGURES,
  ],
};

const TAB_TITLES: Record<FolderTab, string> = { sessions: 'Sessions', projects: 'Per project', days: 'Per day' };

type Row = SessionRow | GroupRow;
const isSession = (row: Row): row is SessionRow => 'file' in row;
const nameOf = (row: Row): string => (isSession(row) ? row.file : row.key === null ? '(no time)' : row.key === '' ? '(top level)' : row.key);
const cacheWrite = (row: Row) => row.recorded.cacheWrite5m + row.recorded.cacheWrite1h;
const percent = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);

function sortKey(row: Row, column: ColumnId): number | string {
  switch (column) {
    case 'name':
      return nameOf(row);
    case 'agent':
      return isSession(row) ? agentLabel(row.agent) : '';
    case 'start':
      return isSession(row) ? (row.start ?? '') : '';
    case 'sessions':
      return isSession(row) ? 1 : row.sessions;
    case 'requests':
      return row.requests;
    case 'input':
      return row.recorded.input;
    case 'output':
      return row.recorded.output;
    case 'cacheRead':
      return row.recorded.cacheRead;
    case 'cacheWrite':
      return cacheWrite(row);
    case 'cost':
      return row.cost;
    case 'hitRate':
      return row.hitRate ?? -1;
    case 'lost':
      return row.misses?.cost ?? -1;
  }
}

/** A cell's value for an export: the raw number (no formatting), null where there is none. */
function exportValue(row: Row, column: ColumnId): Cell {
  if (column === 'hitRate') return row.hitRate;
  if (column === 'lost') return row.misses?.cost ?? null;
  if (column === 'start') return isSession(row) ? row.start : null;
  return sortKey(row, column);
}

/** Positions of `rows` sorted by a column (ties keep the worker's order: costliest first, days by date). */
export function sortRows(rows: readonly Row[], sort: GridSort<ColumnId>): number[] {
  return sortByKey(
    rows.map((_, i) => i),
    (i) => sortKey(rows[i]!, sort.column),
    sort,
  );
}

function cells(row: Row): HTMLElement[] {
  const own = isSession(row)
    ? [
        gridText(row.file, row.file),
        gridText(agentLabel(row.agent)),
        gridText(row.start === null ? '(no time)' : row.start.slice(0, 16).replace('T', ' '), row.start ?? undefined),
      ]
    : [gridText(nameOf(row), nameOf(row)), gridNumber(formatCount(row.sessions))];
  const subagents = isSession(row) && row.subagents.files > 0 ? `${formatCount(row.subagents.requests)} of them in ${formatCount(row.subagents.files)} subagent${row.subagents.files === 1 ? '' : 's'}` : undefined;
  const misses = row.misses;
  // A session whose every recorded request is on a model without a price (Gemini) has no cost, not a cost of $0.
  const unpriced = isSession(row) && row.recordedRequests > 0 && row.unpricedRequests >= row.recordedRequests;
  return [
    ...own,
    gridNumber(isSession(row) && row.subagents.files > 0 ? `${formatCount(row.requests)} (${formatCount(row.subagents.requests)} sub)` : formatCount(row.requests), subagents),
    gridNumber(formatCount(row.recorded.input)),
    gridNumber(formatCount(row.recorded.output)),
    gridNumber(formatCount(row.recorded.cacheRead)),
    gridNumber(formatCount(cacheWrite(row)), `5-minute ${formatCount(row.recorded.cacheWrite5m)}, 1-hour ${formatCount(row.recorded.cacheWrite1h)}`),
    gridNumber(unpriced ? 'unpriced' : formatUsd(row.cost), isSession(row) && row.unpricedRequests > 0 ? `${formatCount(row.unpricedRequests)} request(s) on a model without a price are not in it` : undefined),
    gridNumber(percent(row.hitRate)),
    gridNumber(misses === null ? 'n/a' : unpriced ? 'unpriced' : formatUsd(misses.cost), misses === null ? 'No miss analysis for these requests' : `${formatCount(misses.count)} miss(es), ${formatCount(misses.tokens)} tokens`),
  ];
}

export interface FolderTableState {
  tab: FolderTab;
  /** Only the sessions of a project or with requests on a day (that row was opened), or null for all. */
  only: { tab: 'projects' | 'days'; key: string | null } | null;
  /** The session opened last (its row is marked), or -1. */
  opened: number;
  /** The charts by day or by week; absent: as the worker chose for the folder's range. */
  bucketing?: SeriesBucketing;
}

function belongs(row: FolderSessionRow, only: FolderTableState['only']): boolean {
  if (only === null) return true;
  return only.tab === 'projects' ? row.project === only.key : row.days.includes(only.key);
}

export interface FolderTableHandle {
  readonly element: HTMLElement;
  readonly state: FolderTableState;
  focus(): void;
  /** The same folder with more sessions read (it fills in): rows, sums and charts anew; tab, filter, sort and scroll kept. */
  update(folder: FolderView): void;
}

function folderSummary(folder: FolderView): HTMLElement {
  const totals = folder.sessions.reduce(
    (sum, row) => ({ requests: sum.requests + row.requests, cost: sum.cost + row.cost, lost: sum.lost + (row.misses?.cost ?? 0), misses: sum.misses || row.misses !== null }),
    { requests: 0, cost: 0, lost: 0, misses: false },
  );
  return el('p', { className: 'folder-summary', attrs: { id: 'folder-summary' } }, [
    el('strong', { text: `${formatCount(folder.sessions.length)} session${folder.sessions.length === 1 ? '' : 's'}` }),
    ` · ${formatCount(totals.requests)} requests · ${formatUsd(totals.cost)} recorded cost`,
    totals.misses ? ` · ${formatUsd(totals.lost)} lost to cache misses` : '',
    ` · ${formatCount(folder.files)} files read`,
  ]);
}

/** One folder table on screen: its parts, the caller's state and the grid of the tab shown. */
interface FolderTableView {
  folder: FolderView;
  state: FolderTableState;
  onOpen: (session: number) => void;
  tabs: HTMLElement;
  filterNote: HTMLElement;
  host: HTMLElement;
  grid: GridHandle<ColumnId> | null;
  /** Re-reads the tab's rows from `folder` into the grid as it is (its sort, scroll and cursor kept). */
  refresh: () => void;
}

/** A row of the tab shown, and the session it is (-1 for a project or day row). */
interface Entry {
  row: Row;
  session: number;
}

/** The tab's rows: the sessions (a project's or day's when filtered), the projects or the days. */
function entriesOf({ folder, state }: FolderTableView): Entry[] {
  return state.tab === 'sessions'
    ? folder.sessions.flatMap((row, session) => (belongs(row, state.only) ? [{ row, session }] : []))
    : (state.tab === 'projects' ? folder.projects : folder.days).map((row) => ({ row, session: -1 }));
}

function renderTabs(view: FolderTableView): void {
  const { state } = view;
  view.tabs.replaceChildren(
    ...(['sessions', 'projects', 'days'] as const).map((tab) =>
      el('button', {
        className: 'folder-tab',
        text: TAB_TITLES[tab],
        attrs: { type: 'button', 'aria-pressed': String(tab === state.tab), 'data-tab': tab },
        on: {
          click: () => {
            state.tab = tab;
            state.only = null;
            showTab(view);
          },
        },
      }),
    ),
  );
}

function renderFilterNote(view: FolderTableView): void {
  const { only } = view.state;
  view.filterNote.replaceChildren(
    ...(only === null
      ? []
      : [
          only.tab === 'projects' ? `Sessions of project ${only.key || '(top level)'} · ` : `Sessions with requests on ${only.key ?? '(no time)'} · `,
          el('button', { className: 'link', text: 'all sessions', attrs: { type: 'button', id: 'folder-all' }, on: { click: () => ((view.state.only = null), showTab(view)) } }),
        ]),
  );
}

/** A session row opens the session; a project or day row lists its sessions. */
function openEntry(view: FolderTableView, entry: Entry | undefined): void {
  const { state } = view;
  if (entry === undefined) return;
  if (entry.session >= 0) view.onOpen(entry.session);
  else if (state.tab !== 'sessions' && !isSession(entry.row)) {
    state.only = { tab: state.tab, key: entry.row.key };
    state.tab = 'sessions';
    showTab(view);
  }
}

/** Draw the tab the state names: its buttons, the filter note, the export and the grid. */
function showTab(view: FolderTableView): void {
  const { state } = view;
  renderTabs(view);
  let all = entriesOf(view);
  renderFilterNote(view);
  let rows = all.map((entry) => entry.row);
  const columns = COLUMNS[state.tab];
  // What the table shows, in its order: the tab's rows (a project's or day's sessions when filtered).
  const table = () => ({ columns, rows: (view.grid?.order ?? []).map((i) => columns.map((c) => exportValue(rows[i]!, c.id))) });
  view.tabs.append(exportButtons({ name: `ctxray-${state.tab}`, label: `the ${TAB_TITLES[state.tab].toLowerCase()} table`, table }));
  let sort: GridSort<ColumnId> = { column: state.tab === 'days' ? 'name' : 'cost', descending: state.tab !== 'days' };
  const grid = createVirtualGrid<ColumnId>({
    columns,
    attrs: { id: 'folder-table', 'aria-label': `${TAB_TITLES[state.tab]}: arrow keys or j/k move, Enter opens`, 'data-tab': state.tab, 'data-rows': String(rows.length) },
    itemAttribute: 'row',
    rowIdPrefix: 'folder-row-',
    cells: (item) => cells(rows[item]!),
    onOpen: (item) => openEntry(view, all[item]),
    onSort: (id) => {
      sort = nextSort(columns, sort, id);
      view.grid?.setOrder(sortRows(rows, sort), sort);
    },
    visibleRows: 14,
    open: all.findIndex((entry) => entry.session === state.opened && entry.session >= 0),
  });
  view.grid = grid;
  grid.element.classList.add(`folder-${state.tab}`);
  grid.setOrder(sortRows(rows, sort), sort);
  view.host.replaceChildren(grid.element);
  view.refresh = () => {
    all = entriesOf(view);
    rows = all.map((entry) => entry.row);
    grid.element.setAttribute('data-rows', String(rows.length));
    grid.setOrder(sortRows(rows, sort), sort);
  };
}

function showCharts(view: FolderTableView, chartsHost: HTMLElement): void {
  const { folder, state } = view;
  chartsHost.replaceChildren(
    createFolderCharts(folder, {
      bucketing: state.bucketing ?? folder.series.auto,
      onBucketing: (by) => ((state.bucketing = by), showCharts(view, chartsHost)),
      onDay: (day) => {
        state.only = { tab: 'days', key: day };
        state.tab = 'sessions';
        showTab(view);
        view.grid?.focus();
      },
    }),
  );
}

/**
 * `label` names the folder; `onOpen(i)` opens `folder.sessions[i]`. The state (tab, project filter, last opened)
 * is kept by the caller, so coming back from a session shows the table as it was left.
 */
export function createFolderTable(folder: FolderView, label: string, state: FolderTableState, onOpen: (session: number) => void): FolderTableHandle {
  const view: FolderTableView = {
    folder,
    state,
    onOpen,
    tabs: el('div', { className: 'folder-tabs', attrs: { role: 'group', 'aria-label': 'Table' } }),
    filterNote: el('p', { className: 'folder-filter muted small' }),
    host: el('div', { className: 'folder-grid-host' }),
    grid: null,
    refresh: () => undefined,
  };
  const chartsHost = el('div', { className: 'folder-charts-host' });
  let summary = folderSummary(folder);
  const element = el('section', { className: 'folder-table request-table', attrs: { 'aria-labelledby': 'folder-title' } }, [
    el('h1', { className: 'folder-title', text: `Sessions in ${label}`, attrs: { id: 'folder-title', tabindex: '-1' } }),
    el('p', { className: 'muted small', text: 'Recorded usage of each session, its subagents’ calls included (subagents get no row of their own). Open a session for its full analysis.' }),
    summary,
    chartsHost,
    view.tabs,
    view.filterNote,
    view.host,
  ]);
  showCharts(view, chartsHost);
  showTab(view);

  return {
    element,
    state,
    focus() {
      view.grid?.focus();
    },
    update(next) {
      view.folder = next;
      const fresh = folderSummary(next);
      summary.replaceWith(fresh);
      summary = fresh;
      showCharts(view, chartsHost);
      view.refresh();
    },
  };
}
