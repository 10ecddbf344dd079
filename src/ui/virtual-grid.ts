// A virtualized grid of rows with sortable column headers, shared by the request table and the folder table:
// only the rows in view exist in the DOM (fixed row height, absolutely placed rows in a spacer), so 30,000 rows
// cost what 30 do. The caller owns what the rows are: it filters and sorts them into an order of item numbers,
// builds the cells of an item, and is told when a header asks for a sort or a row is opened (click, Enter).
import { el } from './dom.ts';

/** Row height in px; must match `.rt-row` in styles.css (rows are placed at index × ROW_HEIGHT). */
export const ROW_HEIGHT = 28;
/** Rows drawn above and below the visible window, so a fast scroll shows no blank band. */
const OVERSCAN = 8;

export interface GridColumn<Id extends string> {
  id: Id;
  title: string;
  numeric: boolean;
  /** What the header's tooltip says the column holds. */
  describe: string;
}

export interface GridOptions<Id extends string> {
  columns: readonly GridColumn<Id>[];
  /** Attributes of the grid element (id, aria-label, data-*). */
  attrs: Record<string, string>;
  /** The row's data attribute holding its item number (`request` → `data-request`), and its element id prefix. */
  itemAttribute: string;
  rowIdPrefix: string;
  cells: (item: number) => HTMLElement[];
  onOpen: (item: number) => void;
  onSort: (column: Id) => void;
  /** At most this many rows tall before it scrolls (it can be resized). */
  visibleRows: number;
  /** The item marked open, or -1. */
  open: number;
}

export interface GridHandle<Id extends string> {
  /** The scrolling grid (role=grid). */
  readonly element: HTMLElement;
  /** The items shown, in order; the header marks the sort. */
  setOrder(order: number[], sort: { column: Id; descending: boolean }): void;
  readonly order: readonly number[];
  /** Marks the open item and scrolls its row into view. */
  setOpen(item: number): void;
  readonly open: number;
  focus(): void;
}

/** A grid cell; numeric ones align right. */
export function gridCell(text: string, numeric: boolean, title?: string): HTMLElement {
  return el('div', { className: numeric ? 'rt-cell num' : 'rt-cell', text, attrs: { role: 'gridcell', ...(title ? { title } : {}) } });
}

export function createVirtualGrid<Id extends string>(options: GridOptions<Id>): GridHandle<Id> {
  const { columns, itemAttribute, rowIdPrefix } = options;
  let order: number[] = [];
  let open = options.open;
  /** The row the keyboard is on (position in `order`); Enter opens it. */
  let cursor = 0;

  const headerCells = columns.map((column) => {
    const button = el('button', { className: 'sort', text: column.title, attrs: { type: 'button', title: column.describe, 'data-column': column.id } });
    return el('div', { className: column.numeric ? 'rt-cell num' : 'rt-cell', attrs: { role: 'columnheader', 'aria-sort': 'none' } }, [button]);
  });
  const header = el('div', { className: 'rt-row rt-head', attrs: { role: 'row', 'aria-rowindex': '1' } }, headerCells);
  const body = el('div', { className: 'rt-body', attrs: { role: 'rowgroup' } });
  const grid = el('div', { className: 'rt-scroll', attrs: { role: 'grid', tabindex: '0', 'aria-readonly': 'true', ...options.attrs } }, [
    el('div', { attrs: { role: 'rowgroup' }, className: 'rt-headgroup' }, [header]),
    body,
  ]);

  const buildRow = (position: number): HTMLElement => {
    const item = order[position]!;
    const row = el(
      'div',
      {
        className: `rt-row${item === open ? ' selected' : ''}${position === cursor ? ' cursor' : ''}`,
        attrs: { role: 'row', id: `${rowIdPrefix}${item}`, 'aria-rowindex': String(position + 2), 'aria-selected': String(item === open), [`data-${itemAttribute}`]: String(item) },
      },
      options.cells(item),
    );
    row.style.top = `${position * ROW_HEIGHT}px`;
    return row;
  };

  let drawn = '';
  const draw = (force = false): void => {
    const height = grid.clientHeight || ROW_HEIGHT * 8;
    const top = Math.max(0, grid.scrollTop - ROW_HEIGHT);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(order.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const key = `${first}:${last}`;
    if (!force && key === drawn) return;
    drawn = key;
    const visible: HTMLElement[] = [];
    for (let p = first; p < last; p++) visible.push(buildRow(p));
    body.replaceChildren(...visible);
  };

  /** Scroll so the row at `position` is inside the visible part (below the sticky header). */
  const reveal = (position: number): void => {
    const headerHeight = header.offsetHeight || ROW_HEIGHT;
    const rowTop = position * ROW_HEIGHT;
    const shown = grid.clientHeight - headerHeight;
    if (rowTop < grid.scrollTop) grid.scrollTop = rowTop;
    else if (rowTop + ROW_HEIGHT > grid.scrollTop + shown) grid.scrollTop = rowTop + ROW_HEIGHT - shown;
  };

  const moveCursor = (position: number): void => {
    if (order.length === 0) return;
    cursor = Math.min(Math.max(0, position), order.length - 1);
    grid.setAttribute('aria-activedescendant', `${rowIdPrefix}${order[cursor]}`);
    reveal(cursor);
    draw(true);
  };

  let scheduled = false;
  grid.addEventListener('scroll', () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      draw();
    });
  });
  grid.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    const sort = target.closest<HTMLElement>('button.sort');
    if (sort) {
      options.onSort(sort.dataset['column'] as Id);
      return;
    }
    const row = target.closest<HTMLElement>(`.rt-row[data-${itemAttribute}]`);
    if (!row) return;
    const item = Number(row.getAttribute(`data-${itemAttribute}`));
    cursor = order.indexOf(item);
    options.onOpen(item);
  });
  grid.addEventListener('keydown', (event) => {
    if ((event.target as HTMLElement).closest('button.sort')) return;
    const page = Math.max(1, Math.floor(grid.clientHeight / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: page, PageUp: -page };
    if (event.key in moves) {
      event.preventDefault();
      event.stopPropagation();
      moveCursor(cursor + (moves[event.key] ?? 0));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      moveCursor(event.key === 'Home' ? 0 : order.length - 1);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const item = order[cursor];
      if (item !== undefined) options.onOpen(item);
    }
  });

  new ResizeObserver(() => draw()).observe(grid);
  requestAnimationFrame(() => reveal(cursor));

  return {
    element: grid,
    setOrder(next, sort) {
      // A short list gets a grid as tall as its rows; a long one shows `visibleRows` and scrolls (or is resized).
      if (grid.style.height === '') grid.style.height = `${(Math.min(options.visibleRows, next.length) + 1) * ROW_HEIGHT + 2}px`;
      order = next;
      body.style.height = `${order.length * ROW_HEIGHT}px`;
      const at = order.indexOf(open);
      cursor = at >= 0 ? at : Math.min(cursor, Math.max(0, order.length - 1));
      for (const [c, column] of columns.entries()) {
        headerCells[c]?.setAttribute('aria-sort', column.id === sort.column ? (sort.descending ? 'descending' : 'ascending') : 'none');
      }
      grid.setAttribute('aria-rowcount', String(order.length + 1));
      draw(true);
    },
    get order() {
      return order;
    },
    setOpen(item) {
      open = item;
      const at = order.indexOf(item);
      if (at >= 0) {
        cursor = at;
        reveal(at);
      }
      grid.setAttribute('aria-activedescendant', `${rowIdPrefix}${item}`);
      draw(true);
    },
    get open() {
      return open;
    },
    focus() {
      grid.focus();
    },
  };
}
