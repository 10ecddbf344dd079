// The request table: every request of the input as a row (number, model, conversation, tokens, recorded and
// simulated cache read, cost, miss cause, findings), sortable by any column and filtered by model, conversation,
// text over block paths and tool names, findings and misses, in the shared virtualized grid (virtual-grid.ts), so
// 30,000 requests cost what 30 do. The cache columns come from the worker's `request-rows` answer and fill in when
// it arrives.
import { el } from './dom.ts';
import { formatCount, formatTokens, formatUsd } from '../render/format.ts';
import type { RequestRowsAnswer } from '../worker/handlers/request-rows.ts';
import type { AnalysisView } from '../worker/view-model.ts';
import { createVirtualGrid, gridNumber, gridText, nextSort, type GridHandle, type GridSort } from './virtual-grid.ts';
import { exportButtons, itemsTable, type Table } from './export.ts';
import { bindFilterControls, buildFilterControls, enableRowFilters } from './request-filters.ts';
import {
  COLUMNS,
  filterRequests,
  missLabel,
  missTitle,
  NO_FILTER,
  requestColumnWidths,
  requestExportColumns,
  sortRequests,
  type ColumnId,
  type RequestFilter,
} from './request-table-data.ts';

export { filterRequests, missLabel, missTitle, NO_FILTER, requestColumnWidths, sortRequests, type RequestFilter } from './request-table-data.ts';

export interface RequestTableHandle {
  readonly element: HTMLElement;
  /** Mark the open request (its row is scrolled into view). */
  setSelected(index: number): void;
  /** The request `delta` rows away from the open one in the table's current order, or null at an end. */
  neighbour(delta: number): number | null;
  /** Fill the cache columns once the worker answered. */
  setRows(rows: RequestRowsAnswer): void;
  focus(): void;
}

/** A recorded figure: '' until the worker answered, the dash where the log has none. */
function recordedText(rows: RequestRowsAnswer | null, i: number): string {
  if (!rows) return '';
  const recorded = rows.recordedRead[i];
  return recorded === null || recorded === undefined ? '–' : formatCount(recorded);
}

function costText(rows: RequestRowsAnswer | null, i: number): string {
  if (!rows) return '';
  const cost = rows.cost[i];
  return cost === null || cost === undefined ? 'unpriced' : formatUsd(cost);
}

/** The cells of request `i`'s row; the cache columns stay empty until the worker's rows arrive. */
function requestCells(view: AnalysisView, rows: RequestRowsAnswer | null, i: number): HTMLElement[] {
  const request = view.requests[i]!;
  const miss = rows?.missCause[i] ?? null;
  const findings = rows?.findings[i] ?? [];
  return [
    gridNumber(String(i + 1)),
    gridText(request.model ?? '—', request.model ?? 'no model'),
    gridNumber(rows ? String((rows.conversation[i] ?? 0) + 1) : ''),
    gridNumber(formatTokens(request.total, request.exact)),
    gridNumber(recordedText(rows, i)),
    gridNumber(rows ? formatTokens(rows.simulatedRead[i] ?? 0, request.exact) : ''),
    gridNumber(costText(rows, i)),
    gridText(miss === null ? '' : missLabel(miss), miss === null ? undefined : missTitle(rows!, i)),
    gridNumber(findings.length === 0 ? '' : String(findings.length), findings.map((f) => rows?.findingCodes[f] ?? '').join(', ')),
  ];
}

function countText(shown: number, all: number): string {
  return shown === all ? `${formatCount(shown)} requests` : `${formatCount(shown)} of ${formatCount(all)} requests`;
}

/** The request `delta` rows away from the open one in the grid's order (from an end when none is open), or null. */
function neighbourIn(grid: GridHandle<ColumnId>, delta: number): number | null {
  const order = grid.order;
  const at = order.indexOf(grid.open);
  const next = at < 0 ? order[delta > 0 ? 0 : order.length - 1] : order[at + delta];
  return next ?? null;
}

export function createRequestTable(view: AnalysisView, selected: number, onOpen: (index: number) => void): RequestTableHandle {
  let rows: RequestRowsAnswer | null = null;
  let filter: RequestFilter = { ...NO_FILTER };
  let sort: GridSort<ColumnId> = { column: 'index', descending: false };

  const count = el('span', { className: 'rt-count muted small', attrs: { 'aria-live': 'polite' } });
  const controls = buildFilterControls(view);
  // The export holds the requests the table shows (filtered, in its order), with raw numbers.
  const exportTable = (): Table => itemsTable(requestExportColumns(view, rows), grid.order);
  const exporter = exportButtons({ name: 'ctxray-requests', label: 'the request table', table: exportTable });
  const { search, modelSelect, modelCount, conversationInput, missSelect, findingSelect } = controls;
  const toolbar = el('div', { className: 'rt-toolbar' }, [search, modelCount > 1 ? modelSelect : null, conversationInput, missSelect, findingSelect, count, exporter]);

  const grid = createVirtualGrid<ColumnId>({
    columns: COLUMNS,
    attrs: { 'aria-label': 'Requests: arrow keys or j/k move, Enter opens', id: 'request-table', 'data-requests': String(view.requests.length), 'data-open': String(selected) },
    itemAttribute: 'request',
    rowIdPrefix: 'request-row-',
    cells: (i) => requestCells(view, rows, i),
    onOpen,
    onSort: (column) => {
      sort = nextSort(COLUMNS, sort, column, ['index']);
      reorder();
    },
    visibleRows: 16,
    open: selected,
  });
  const element = el('section', { className: 'request-table', attrs: { 'aria-label': 'Requests' } }, [toolbar, grid.element]);
  const fitColumns = (): void => {
    const widths = requestColumnWidths(view, rows);
    element.style.setProperty('--rt-cols', widths.all);
    element.style.setProperty('--rt-cols-compact', widths.compact);
  };
  fitColumns();

  const reorder = (): void => {
    const order = sortRequests(filterRequests(view, rows, filter), view, rows, sort);
    grid.setOrder(order, sort);
    count.textContent = countText(order.length, view.requests.length);
  };
  bindFilterControls(controls, (change) => {
    filter = { ...filter, ...change };
    reorder();
  });
  reorder();

  return {
    element,
    setSelected(index) {
      grid.element.dataset['open'] = String(index);
      grid.setOpen(index);
    },
    neighbour: (delta) => neighbourIn(grid, delta),
    setRows(answer) {
      rows = answer;
      enableRowFilters(controls, answer);
      fitColumns();
      reorder();
    },
    focus() {
      grid.focus();
    },
  };
}
