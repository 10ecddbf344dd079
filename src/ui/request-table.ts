// The request table: every request of the input as a row (number, model, conversation, tokens, recorded and
// simulated cache read, cost, miss cause, findings), sortable by any column and filtered by model, conversation,
// text over block paths and tool names, findings and misses, in the shared virtualized grid (virtual-grid.ts), so
// 30,000 requests cost what 30 do. The cache columns come from the worker's `request-rows` answer and fill in when
// it arrives.
import { blockNameMatches } from '../render/treemap-zoom.ts';
import { el } from './dom.ts';
import { formatCount, formatTokens, formatUsd } from '../render/format.ts';
import type { MissCause, RequestRowsAnswer } from '../worker/handlers/request-rows.ts';
import type { AnalysisView } from '../worker/view-model.ts';
import { createVirtualGrid, gridCell, type GridColumn } from './virtual-grid.ts';
import { fitWidth, longest } from './column-widths.ts';
import { exportButtons, type Cell, type Table } from './export.ts';


/** The cache analysis' miss causes (docs/cache.md, "Misses") in a few words each. */
const MISS_LABELS: Record<MissCause, string> = {
  cold_start: 'cold start',
  compaction: 'compaction',
  model_switch: 'model switch',
  ttl_expired: 'TTL expired',
  below_minimum: 'below minimum',
  breakpoint_missing: 'breakpoint missing',
  setup_changed: 'setup changed',
  history_edited: 'history edited',
  unexplained: 'unexplained',
};

export function missLabel(cause: MissCause): string {
  return MISS_LABELS[cause];
}

/** "setup changed at tools[1], $0.0069 over a hit": the miss of request `i` in one line. */
export function missTitle(rows: RequestRowsAnswer, i: number): string {
  const cause = rows.missCause[i];
  if (cause === null || cause === undefined) return '';
  const block = rows.missBlock[i];
  const cost = rows.missCost[i];
  return `${missLabel(cause)}${block ? ` at ${block}` : ''}${cost !== null && cost !== undefined ? `, ${formatUsd(cost)} over a hit` : ''}`;
}

type ColumnId = 'index' | 'model' | 'conversation' | 'tokens' | 'recorded' | 'simulated' | 'cost' | 'miss' | 'findings';

const COLUMNS: readonly GridColumn<ColumnId>[] = [
  { id: 'index', title: '#', numeric: true, describe: 'Request number (order in the input)' },
  { id: 'model', title: 'Model', numeric: false, describe: 'Model as named in the request' },
  { id: 'conversation', title: 'Conv.', numeric: true, describe: 'Conversation the request belongs to' },
  { id: 'tokens', title: 'Tokens', numeric: true, describe: 'Prompt tokens of the request (≈ estimated)' },
  { id: 'recorded', title: 'Recorded read', numeric: true, describe: 'Cache read tokens the provider recorded (– where the log has no usage)' },
  { id: 'simulated', title: 'Simulated read', numeric: true, describe: 'Cache read tokens of the simulation' },
  { id: 'cost', title: 'Cost', numeric: true, describe: 'Simulated cost as sent, USD' },
  { id: 'miss', title: 'Miss', numeric: false, describe: 'Why the request missed the simulated cache (empty: it read it)' },
  { id: 'findings', title: 'Findings', numeric: true, describe: 'How many findings name this request' },
];

export interface RequestFilter {
  text: string;
  model: string | null;
  /** 1-based conversation number, or null for all. */
  conversation: number | null;
  /** 'any' | 'with' (some finding) | a finding code. */
  finding: string;
  /** 'any' | 'misses' | a miss cause. */
  miss: string;
}

export const NO_FILTER: RequestFilter = { text: '', model: null, conversation: null, finding: 'any', miss: 'any' };

/** Request indices that pass the filter, in input order. Text matches the model, block paths and tool names. */
export function filterRequests(view: AnalysisView, rows: RequestRowsAnswer | null, filter: RequestFilter): number[] {
  const text = filter.text.trim().toLowerCase();
  const out: number[] = [];
  for (let i = 0; i < view.requests.length; i++) {
    const request = view.requests[i]!;
    if (filter.model !== null && (request.model ?? '') !== filter.model) continue;
    if (rows !== null) {
      if (filter.conversation !== null && rows.conversation[i] !== filter.conversation - 1) continue;
      const miss = rows.missCause[i] ?? null;
      if (filter.miss === 'misses' && miss === null) continue;
      if (filter.miss !== 'any' && filter.miss !== 'misses' && miss !== filter.miss) continue;
      const findings = rows.findings[i] ?? [];
      if (filter.finding === 'with' && findings.length === 0) continue;
      if (filter.finding !== 'any' && filter.finding !== 'with' && !findings.some((f) => rows.findingCodes[f] === filter.finding)) continue;
    }
    if (text !== '' && !(request.model ?? '').toLowerCase().includes(text) && !request.segments.some((s) => blockNameMatches(s, text))) continue;
    out.push(i);
  }
  return out;
}

function sortKey(view: AnalysisView, rows: RequestRowsAnswer | null, column: ColumnId): (i: number) => number | string {
  switch (column) {
    case 'index':
      return (i) => i;
    case 'model':
      return (i) => view.requests[i]?.model ?? '';
    case 'tokens':
      return (i) => view.requests[i]?.total ?? 0;
    case 'conversation':
      return (i) => rows?.conversation[i] ?? -1;
    case 'recorded':
      return (i) => rows?.recordedRead[i] ?? -1;
    case 'simulated':
      return (i) => rows?.simulatedRead[i] ?? -1;
    case 'cost':
      return (i) => rows?.cost[i] ?? -1;
    case 'miss':
      return (i) => rows?.missCause[i] ?? '';
    case 'findings':
      return (i) => rows?.findings[i]?.length ?? 0;
  }
}

/** Sorts `order` in place by a column (ties keep input order). */
export function sortRequests(order: number[], view: AnalysisView, rows: RequestRowsAnswer | null, column: ColumnId, descending: boolean): number[] {
  const key = sortKey(view, rows, column);
  const keys = new Map(order.map((i) => [i, key(i)]));
  const sign = descending ? -1 : 1;
  return order.sort((a, b) => {
    const ka = keys.get(a)!;
    const kb = keys.get(b)!;
    const by = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : String(ka).localeCompare(String(kb));
    return by !== 0 ? sign * by : a - b;
  });
}

/**
 * Column widths fitted to the values (so no number clips), as CSS variables: `--rt-cols` for every column and
 * `--rt-cols-compact` for the side list's four (#, tokens, cost, miss; styles.css hides the others there).
 */
export function requestColumnWidths(view: AnalysisView, rows: RequestRowsAnswer | null): { all: string; compact: string } {
  const n = view.requests.length;
  const width = (title: string, text: (i: number) => string): string => fitWidth(longest(n, text, title));
  const index = width('#', (i) => String(i + 1));
  const tokens = width('Tokens', (i) => formatTokens(view.requests[i]!.total, view.requests[i]!.exact));
  const cost = rows ? width('Cost', (i) => (rows.cost[i] === null || rows.cost[i] === undefined ? 'unpriced' : formatUsd(rows.cost[i]!))) : fitWidth(8);
  const recorded = rows ? width('Recorded read', (i) => formatCount(rows.recordedRead[i] ?? 0)) : fitWidth(13);
  const simulated = rows ? width('Simulated read', (i) => formatTokens(rows.simulatedRead[i] ?? 0, view.requests[i]!.exact)) : fitWidth(14);
  const conversation = rows ? width('Conv.', (i) => String((rows.conversation[i] ?? 0) + 1)) : fitWidth(5);
  const findings = width('Findings', () => '');
  return {
    all: `${index} minmax(9em, 1.6fr) ${conversation} ${tokens} ${recorded} ${simulated} ${cost} minmax(9em, 1fr) ${findings}`,
    compact: `${index} ${tokens} ${cost} minmax(6em, 1fr)`,
  };
}

const EXPORT_COLUMNS = [
  { id: 'request', title: 'Request' },
  { id: 'model', title: 'Model' },
  { id: 'conversation', title: 'Conversation' },
  { id: 'tokens', title: 'Tokens' },
  { id: 'exact', title: 'Exact' },
  { id: 'recordedRead', title: 'Recorded cache read' },
  { id: 'simulatedRead', title: 'Simulated cache read' },
  { id: 'cost', title: 'Cost (USD)' },
  { id: 'miss', title: 'Miss' },
  { id: 'missBlock', title: 'Miss block' },
  { id: 'findings', title: 'Findings' },
] as const;

/** Request `i` as an export row: 1-based numbers as on screen, raw counts and USD, finding codes joined by spaces. */
export function exportRow(view: AnalysisView, rows: RequestRowsAnswer | null, i: number): Cell[] {
  const request = view.requests[i]!;
  return [
    i + 1,
    request.model,
    rows ? (rows.conversation[i] ?? 0) + 1 : null,
    request.total,
    request.exact,
    rows?.recordedRead[i] ?? null,
    rows?.simulatedRead[i] ?? null,
    rows?.cost[i] ?? null,
    rows?.missCause[i] ?? null,
    rows?.missBlock[i] ?? null,
    rows ? (rows.findings[i] ?? []).map((f) => rows.findingCodes[f] ?? '').join(' ') : null,
  ];
}

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

export function createRequestTable(view: AnalysisView, selected: number, onOpen: (index: number) => void): RequestTableHandle {
  let rows: RequestRowsAnswer | null = null;
  let filter: RequestFilter = { ...NO_FILTER };
  let sortColumn: ColumnId = 'index';
  let descending = false;

  const count = el('span', { className: 'rt-count muted small', attrs: { 'aria-live': 'polite' } });
  const search = el('input', {
    className: 'rt-search',
    attrs: { type: 'search', placeholder: 'Filter: model, block path, tool', 'aria-label': 'Filter requests by model, block path or tool name', id: 'request-filter' },
  });
  const modelIds = [...new Set(view.requests.map((r) => r.model ?? ''))];
  const modelSelect = el('select', { attrs: { 'aria-label': 'Filter by model', id: 'request-filter-model' } }, [
    el('option', { text: 'All models', attrs: { value: '*' } }),
    ...modelIds.map((id) => el('option', { text: id === '' ? 'no model' : id, attrs: { value: id } })),
  ]);
  const conversationInput = el('input', {
    className: 'rt-conversation',
    attrs: { type: 'number', min: '1', placeholder: 'Conv.', 'aria-label': 'Filter by conversation number', id: 'request-filter-conversation', disabled: '' },
  });
  const missSelect = el('select', { attrs: { 'aria-label': 'Filter by cache miss', id: 'request-filter-miss', disabled: '' } }, [
    el('option', { text: 'Hits and misses', attrs: { value: 'any' } }),
    el('option', { text: 'Misses only', attrs: { value: 'misses' } }),
  ]);
  const findingSelect = el('select', { attrs: { 'aria-label': 'Filter by finding', id: 'request-filter-finding', disabled: '' } }, [
    el('option', { text: 'Any findings', attrs: { value: 'any' } }),
    el('option', { text: 'With a finding', attrs: { value: 'with' } }),
  ]);
  // The export holds the requests the table shows (filtered, in its order), with raw numbers.
  const exportTable = (): Table => ({
    columns: EXPORT_COLUMNS,
    rows: grid.order.map((i) => exportRow(view, rows, i)),
  });
  const exporter = exportButtons({ name: 'ctxray-requests', label: 'the request table', table: exportTable });
  const toolbar = el('div', { className: 'rt-toolbar' }, [search, modelIds.length > 1 ? modelSelect : null, conversationInput, missSelect, findingSelect, count, exporter]);

  const cells = (i: number): HTMLElement[] => {
    const request = view.requests[i]!;
    const miss = rows?.missCause[i] ?? null;
    const recorded = rows?.recordedRead[i];
    const cost = rows?.cost[i];
    const findings = rows?.findings[i] ?? [];
    return [
      gridCell(String(i + 1), true),
      gridCell(request.model ?? '—', false, request.model ?? 'no model'),
      gridCell(rows ? String((rows.conversation[i] ?? 0) + 1) : '', true),
      gridCell(formatTokens(request.total, request.exact), true),
      gridCell(rows ? (recorded === null || recorded === undefined ? '–' : formatCount(recorded)) : '', true),
      gridCell(rows ? formatTokens(rows.simulatedRead[i] ?? 0, request.exact) : '', true),
      gridCell(rows ? (cost === null || cost === undefined ? 'unpriced' : formatUsd(cost)) : '', true),
      gridCell(miss === null ? '' : missLabel(miss), false, miss === null ? undefined : missTitle(rows!, i)),
      gridCell(findings.length === 0 ? '' : String(findings.length), true, findings.map((f) => rows?.findingCodes[f] ?? '').join(', ')),
    ];
  };

  const grid = createVirtualGrid<ColumnId>({
    columns: COLUMNS,
    attrs: { 'aria-label': 'Requests: arrow keys or j/k move, Enter opens', id: 'request-table', 'data-requests': String(view.requests.length), 'data-open': String(selected) },
    itemAttribute: 'request',
    rowIdPrefix: 'request-row-',
    cells,
    onOpen,
    onSort: (column) => {
      descending = column === sortColumn ? !descending : COLUMNS.find((c) => c.id === column)?.numeric === true && column !== 'index';
      sortColumn = column;
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
    const order = sortRequests(filterRequests(view, rows, filter), view, rows, sortColumn, descending);
    grid.setOrder(order, { column: sortColumn, descending });
    count.textContent = order.length === view.requests.length ? `${formatCount(order.length)} requests` : `${formatCount(order.length)} of ${formatCount(view.requests.length)} requests`;
  };

  let typing: number | undefined;
  search.addEventListener('input', () => {
    window.clearTimeout(typing);
    // Matching block paths walks every segment of every request: once the typing pauses, not per key.
    typing = window.setTimeout(() => {
      filter = { ...filter, text: search.value };
      reorder();
    }, 120);
  });
  modelSelect.addEventListener('change', () => {
    filter = { ...filter, model: modelSelect.value === '*' ? null : modelSelect.value };
    reorder();
  });
  conversationInput.addEventListener('input', () => {
    const n = Number(conversationInput.value);
    filter = { ...filter, conversation: conversationInput.value !== '' && Number.isInteger(n) && n >= 1 ? n : null };
    reorder();
  });
  missSelect.addEventListener('change', () => {
    filter = { ...filter, miss: missSelect.value };
    reorder();
  });
  findingSelect.addEventListener('change', () => {
    filter = { ...filter, finding: findingSelect.value };
    reorder();
  });

  reorder();

  return {
    element,
    setSelected(index) {
      grid.element.dataset['open'] = String(index);
      grid.setOpen(index);
    },
    neighbour(delta) {
      const order = grid.order;
      const at = order.indexOf(grid.open);
      const next = at < 0 ? order[delta > 0 ? 0 : order.length - 1] : order[at + delta];
      return next ?? null;
    },
    setRows(answer) {
      rows = answer;
      conversationInput.disabled = false;
      conversationInput.max = String(answer.conversation.reduce((max, c) => Math.max(max, c + 1), 1));
      missSelect.disabled = false;
      findingSelect.disabled = false;
      const causes = [...new Set(answer.missCause.filter((c): c is MissCause => c !== null))];
      missSelect.append(...causes.map((c) => el('option', { text: `Miss: ${missLabel(c)}`, attrs: { value: c } })));
      findingSelect.append(...[...new Set(answer.findingCodes)].map((code) => el('option', { text: code, attrs: { value: code } })));
      fitColumns();
      reorder();
    },
    focus() {
      grid.focus();
    },
  };
}
