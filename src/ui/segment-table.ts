// The sortable segment table: one row per segment of the selected request. Headers are buttons; aria-sort says
// which column orders the rows. Very long requests render the first rows and offer the rest on demand.
import { el } from './dom.ts';
import { formatBytes, formatCategoryTokens, formatPercent } from '../render/format.ts';
import { visibleLabel } from '../core/text/invisible.ts';
import { CATEGORY_LABELS } from '../render/palette.ts';
import { categoryTag } from './swatch.ts';
import { CATEGORIES } from '../core/model.ts';
import { exportButtons, type Table } from './export.ts';
import type { RequestView, SegmentView } from '../worker/view-model.ts';

type SortKey = 'index' | 'category' | 'path' | 'tool' | 'tokens' | 'bytes';

interface Column {
  key: SortKey;
  label: string;
  numeric: boolean;
}

const COLUMNS: readonly Column[] = [
  { key: 'index', label: '#', numeric: true },
  { key: 'category', label: 'Category', numeric: false },
  { key: 'path', label: 'Path', numeric: false },
  { key: 'tool', label: 'Tool', numeric: false },
  { key: 'tokens', label: 'Tokens', numeric: true },
  { key: 'bytes', label: 'Bytes', numeric: true },
];

const FIRST_ROWS = 500;

const EXPORT_COLUMNS = [
  { id: 'segment', title: 'Segment' },
  { id: 'category', title: 'Category' },
  { id: 'path', title: 'Path' },
  { id: 'tool', title: 'Tool' },
  { id: 'tokens', title: 'Tokens' },
  { id: 'exact', title: 'Exact' },
  { id: 'bytes', title: 'Bytes' },
] as const;

function compare(key: SortKey, a: SegmentView & { i: number }, b: SegmentView & { i: number }): number {
  switch (key) {
    case 'index':
      return a.i - b.i;
    case 'category':
      return CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) || a.i - b.i;
    case 'path':
      return a.path.localeCompare(b.path, 'en', { numeric: true }) || a.i - b.i;
    case 'tool':
      return (a.toolName ?? '').localeCompare(b.toolName ?? '') || a.i - b.i;
    case 'tokens':
      return a.tokens - b.tokens || a.i - b.i;
    case 'bytes':
      return a.bytes - b.bytes || a.i - b.i;
  }
}

export interface SegmentTableHandle {
  select(segment: number): void;
}

export function renderSegmentTable(host: HTMLElement, request: RequestView, onSelect: (segment: number) => void): SegmentTableHandle {
  let sortKey: SortKey = 'index';
  let descending = false;
  let showAll = request.segments.length <= FIRST_ROWS;
  let selected: number | null = null;
  const rowsBySegment = new Map<number, HTMLTableRowElement>();

  const table = el('table', { className: 'data segments', attrs: { 'aria-label': 'Segments of the selected request' } });
  const more = el('div', { className: 'table-more' });
  const sorted = () => request.segments.map((s, i) => ({ ...s, i })).sort((a, b) => compare(sortKey, a, b) * (descending ? -1 : 1));
  // The export holds every segment (not only the first rows drawn), in the table's order, with raw numbers.
  const exportTable = (): Table => ({
    columns: EXPORT_COLUMNS,
    rows: sorted().map((s) => [s.i + 1, s.category, s.category === 'setup_inferred' ? null : s.path, s.toolName, s.tokens, request.exact && s.category !== 'setup_inferred', s.bytes]),
  });
  const exporter = exportButtons({ name: 'ctxray-segments', label: 'the segment table', table: exportTable });
  host.append(el('div', { className: 'table-tools' }, [exporter]), el('div', { className: 'table-scroll' }, [table]), more);

  const draw = (): void => {
    const header = el(
      'tr',
      {},
      COLUMNS.map((column) => {
        const active = column.key === sortKey;
        const th = el('th', {
          className: column.numeric ? 'num' : '',
          attrs: { scope: 'col', 'aria-sort': active ? (descending ? 'descending' : 'ascending') : 'none' },
        });
        th.append(
          el('button', {
            className: 'sort',
            text: `${column.label}${active ? (descending ? ' ↓' : ' ↑') : ''}`,
            attrs: { type: 'button', 'data-sort': column.key },
            on: {
              click: () => {
                if (sortKey === column.key) descending = !descending;
                else {
                  sortKey = column.key;
                  descending = column.numeric && column.key !== 'index';
                }
                draw();
              },
            },
          }),
        );
        return th;
      }),
    );
    const ordered = sorted();
    const visible = showAll ? ordered : ordered.slice(0, FIRST_ROWS);
    rowsBySegment.clear();
    const body = el(
      'tbody',
      {},
      visible.map((s) => {
        const row = el(
          'tr',
          { attrs: { 'data-segment': String(s.i) }, className: s.i === selected ? 'selected' : '' },
          [
            el('td', { className: 'num muted', text: String(s.i + 1) }),
            el('td', {}, [categoryTag(s.category)]),
            s.category === 'setup_inferred'
              ? el('td', { className: 'muted', text: 'not recorded; inferred from recorded usage' })
              : el('td', { className: 'mono path', text: visibleLabel(s.path) }),
            el('td', { className: 'mono', text: visibleLabel(s.toolName ?? '') }),
            el('td', { className: 'num', text: formatCategoryTokens(s.tokens, s.category, request.exact) }, []),
            el('td', { className: 'num muted', text: formatBytes(s.bytes) }),
          ],
        );
        row.title = `${CATEGORY_LABELS[s.category]} · ${formatPercent(s.tokens, request.total)} of the request`;
        row.tabIndex = s.i === (selected ?? visible[0]?.i) ? 0 : -1;
        rowsBySegment.set(s.i, row);
        return row;
      }),
    );
    table.replaceChildren(el('thead', {}, [header]), body);
    more.replaceChildren();
    if (!showAll) {
      more.append(
        el('button', {
          className: 'link',
          text: `Show all ${request.segments.length.toLocaleString('en-US')} segments`,
          attrs: { type: 'button' },
          on: {
            click: () => {
              showAll = true;
              draw();
            },
          },
        }),
      );
    }
  };

  table.addEventListener('click', (event) => {
    const row = (event.target as HTMLElement).closest<HTMLTableRowElement>('tbody tr');
    if (row) onSelect(Number(row.dataset['segment']));
  });
  // Keyboard: the rows are one tab stop; Up/Down move, Home/End jump, Enter or Space opens the segment.
  table.addEventListener('keydown', (event) => {
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
  });
  draw();

  return {
    select(segment) {
      if (selected !== null) rowsBySegment.get(selected)?.classList.remove('selected');
      selected = segment;
      rowsBySegment.get(segment)?.classList.add('selected');
    },
  };
}
