// The sortable segment table: one row per segment of the selected request. Headers are buttons; aria-sort says
// which column orders the rows. Very long requests render the first rows and offer the rest on demand.
import { el } from './dom.ts';
import { formatBytes, formatCategoryTokens, formatPercent } from '../render/format.ts';
import { visibleLabel } from '../core/text/invisible.ts';
import { CATEGORY_LABELS } from '../render/palette.ts';
import { categoryTag } from './swatch.ts';
import { CATEGORIES } from '../core/model.ts';
import { exportButtons, itemsTable, type ExportColumn } from './export.ts';
import type { RequestView, SegmentView } from '../worker/view-model.ts';

type SortKey = 'index' | 'category' | 'path' | 'tool' | 'tokens' | 'bytes';

const FIRST_ROWS = 500;

type Row = SegmentView & { i: number };

/** Every segment (not only the first rows drawn), in the table's order, with raw numbers. */
function exportColumns(request: RequestView): ExportColumn<Row>[] {
  const setup = (s: Row) => s.category === 'setup_inferred';
  return [
    { id: 'segment', title: 'Segment', value: (s) => s.i + 1 },
    { id: 'category', title: 'Category', value: (s) => s.category },
    { id: 'path', title: 'Path', value: (s) => (setup(s) ? null : s.path) },
    { id: 'tool', title: 'Tool', value: (s) => s.toolName },
    { id: 'tokens', title: 'Tokens', value: (s) => s.tokens },
    { id: 'exact', title: 'Exact', value: (s) => request.exact && !setup(s) },
    { id: 'bytes', title: 'Bytes', value: (s) => s.bytes },
  ];
}

interface Column {
  key: SortKey;
  label: string;
  numeric: boolean;
  /** The rows' order by this column, ascending; ties keep the request's order. */
  compare: (a: Row, b: Row) => number;
}

const byIndex = (a: Row, b: Row): number => a.i - b.i;

const COLUMNS: readonly Column[] = [
  { key: 'index', label: '#', numeric: true, compare: byIndex },
  { key: 'category', label: 'Category', numeric: false, compare: (a, b) => CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) || byIndex(a, b) },
  { key: 'path', label: 'Path', numeric: false, compare: (a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }) || byIndex(a, b) },
  { key: 'tool', label: 'Tool', numeric: false, compare: (a, b) => (a.toolName ?? '').localeCompare(b.toolName ?? '') || byIndex(a, b) },
  { key: 'tokens', label: 'Tokens', numeric: true, compare: (a, b) => a.tokens - b.tokens || byIndex(a, b) },
  { key: 'bytes', label: 'Bytes', numeric: true, compare: (a, b) => a.bytes - b.bytes || byIndex(a, b) },
];

export interface SegmentTableHandle {
  select(segment: number): void;
}

/** One segment table on screen: its request, elements, sort and selection. */
interface SegmentTable {
  request: RequestView;
  table: HTMLTableElement;
  more: HTMLElement;
  sort: { key: SortKey; descending: boolean };
  showAll: boolean;
  selected: number | null;
  rowsBySegment: Map<number, HTMLTableRowElement>;
}

function sortedRows({ request, sort }: SegmentTable): Row[] {
  const { compare } = COLUMNS.find((c) => c.key === sort.key)!;
  return request.segments.map((s, i) => ({ ...s, i })).sort((a, b) => compare(a, b) * (sort.descending ? -1 : 1));
}

/** The header: a sort button per column; the same column again turns the order round. */
function headerRow(view: SegmentTable): HTMLElement {
  const { sort } = view;
  return el(
    'tr',
    {},
    COLUMNS.map((column) => {
      const active = column.key === sort.key;
      const th = el('th', {
        className: column.numeric ? 'num' : '',
        attrs: { scope: 'col', 'aria-sort': active ? (sort.descending ? 'descending' : 'ascending') : 'none' },
      });
      th.append(
        el('button', {
          className: 'sort',
          text: `${column.label}${active ? (sort.descending ? ' ↓' : ' ↑') : ''}`,
          attrs: { type: 'button', 'data-sort': column.key },
          on: {
            click: () => {
              view.sort = sort.key === column.key ? { key: sort.key, descending: !sort.descending } : { key: column.key, descending: column.numeric && column.key !== 'index' };
              drawTable(view);
            },
          },
        }),
      );
      return th;
    }),
  );
}

function segmentRow({ request, selected }: SegmentTable, s: Row): HTMLTableRowElement {
  const row = el('tr', { attrs: { 'data-segment': String(s.i) }, className: s.i === selected ? 'selected' : '' }, [
    el('td', { className: 'num muted', text: String(s.i + 1) }),
    el('td', {}, [categoryTag(s.category)]),
    s.category === 'setup_inferred'
      ? el('td', { className: 'muted', text: 'not recorded; inferred from recorded usage' })
      : el('td', { className: 'mono path', text: visibleLabel(s.path) }),
    el('td', { className: 'mono', text: visibleLabel(s.toolName ?? '') }),
    el('td', { className: 'num', text: formatCategoryTokens(s.tokens, s.category, request.exact) }, []),
    el('td', { className: 'num muted', text: formatBytes(s.bytes) }),
  ]);
  row.title = `${CATEGORY_LABELS[s.category]} · ${formatPercent(s.tokens, request.total)} of the request`;
  return row;
}

function drawTable(view: SegmentTable): void {
  const { request, table, more, rowsBySegment } = view;
  const header = headerRow(view);
  const ordered = sortedRows(view);
  const visible = view.showAll ? ordered : ordered.slice(0, FIRST_ROWS);
  rowsBySegment.clear();
  const body = el(
    'tbody',
    {},
    visible.map((s) => {
      const row = segmentRow(view, s);
      row.tabIndex = s.i === (view.selected ?? visible[0]?.i) ? 0 : -1;
      rowsBySegment.set(s.i, row);
      return row;
    }),
  );
  table.replaceChildren(el('thead', {}, [header]), body);
  more.replaceChildren();
  if (!view.showAll) {
    more.append(
      el('button', {
        className: 'link',
        text: `Show all ${request.segments.length.toLocaleString('en-US')} segments`,
        attrs: { type: 'button' },
        on: {
          click: () => {
            view.showAll = true;
            drawTable(view);
          },
        },
      }),
    );
  }
}

/** Keyboard: the rows are one tab stop; Up/Down move, Home/End jump, Enter or Space opens the segment. */
function onRowKey(event: KeyboardEvent, onSelect: (segment: number) => void): void {
  const row = (event.target as HTMLElement).closest<HTMLTableRowElement>('tbody tr');
  if (!row) return;
  let next: Element | null = null;
  if (event.key === 'ArrowDown') next = row.nextElementSibling;
  else if (event.key === 'ArrowUp') next = row.previousElementSibling;
  else if (event.key === 'Home') next = row.parentElement?.firstElementChild ?? null;
  else if (event.key === 'End') next = row.parentElement?.lastElementChild ?? null;
  else if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    onSelect(Number(row.dataset['segment']));
    return;
  } else return;
  event.preventDefault();
  if (next instanceof HTMLTableRowElement) {
    row.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
}

export function renderSegmentTable(host: HTMLElement, request: RequestView, onSelect: (segment: number) => void): SegmentTableHandle {
  const view: SegmentTable = {
    request,
    table: el('table', { className: 'data segments', attrs: { 'aria-label': 'Segments of the selected request' } }),
    more: el('div', { className: 'table-more' }),
    sort: { key: 'index', descending: false },
    showAll: request.segments.length <= FIRST_ROWS,
    selected: null,
    rowsBySegment: new Map(),
  };
  const { table, more, rowsBySegment } = view;
  const exporter = exportButtons({ name: 'ctxray-segments', label: 'the segment table', table: () => itemsTable(exportColumns(request), sortedRows(view)) });
  host.append(el('div', { className: 'table-tools' }, [exporter]), el('div', { className: 'table-scroll' }, [table]), more);

  table.addEventListener('click', (event) => {
    const row = (event.target as HTMLElement).closest<HTMLTableRowElement>('tbody tr');
    if (row) onSelect(Number(row.dataset['segment']));
  });
  table.addEventListener('keydown', (event) => onRowKey(event, onSelect));
  drawTable(view);

  return {
    select(segment) {
      if (view.selected !== null) rowsBySegment.get(view.selected)?.classList.remove('selected');
      view.selected = segment;
      rowsBySegment.get(segment)?.classList.add('selected');
    },
  };
}
