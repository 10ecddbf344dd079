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

function gridCell(className: string, text: string, title: string | undefined): HTMLElement {
  return el('div', { className, text, attrs: { role: 'gridcell', ...(title ? { title } : {}) } });
}

/** A grid cell of text, with a tooltip when given. */
export function gridText(text: string, title?: string): HTMLElement {
  return gridCell('rt-cell', text, title);
}

/** A grid cell of a number (aligned right), with a tooltip when given. */
export function gridNumber(text: string, title?: string): HTMLElement {
  return gridCell('rt-cell num', text, title);
}

export interface GridSort<Id extends string> {
  column: Id;
  descending: boolean;
}

/**
 * The sort a header click asks for: the same column again turns the order round; a new one starts descending when it
 * is numeric (largest first) unless it is one of `ascendingFirst`, ascending otherwise.
 */
export function nextSort<Id extends string>(columns: readonly GridColumn<Id>[], sort: GridSort<Id>, column: Id, ascendingFirst: readonly Id[] = []): GridSort<Id> {
  const descending = column === sort.column ? !sort.descending : columns.find((c) => c.id === column)?.numeric === true && !ascendingFirst.includes(column);
  return { column, descending };
}

/** Sorts `order` in place by a key (numbers as numbers, the rest as text); ties keep the items' own order. */
export function sortByKey(order: number[], key: (item: number) => number | string, { descending }: { descending: boolean }): number[] {
  const keys = new Map(order.map((i) => [i, key(i)]));
  const sign = descending ? -1 : 1;
  return order.sort((a, b) => {
    const ka = keys.get(a)!;
    const kb = keys.get(b)!;
    const by = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : String(ka).localeCompare(String(kb));
    return by !== 0 ? sign * by : a - b;
  });
}

export function createVirtualGrid<Id extends string>(options: GridOptions<Id>): GridHandle<Id> {
  return new VirtualGrid(options);
}

function headerCell<Id extends string>(column: GridColumn<Id>): HTMLElement {
  const button = el('button', { className: 'sort', text: column.title, attrs: { type: 'button', title: column.describe, 'data-column': column.id } });
  return el('div', { className: column.numeric ? 'rt-cell num' : 'rt-cell', attrs: { role: 'columnheader', 'aria-sort': 'none' } }, [button]);
}

class VirtualGrid<Id extends string> implements GridHandle<Id> {
  readonly element: HTMLElement;
  private readonly options: GridOptions<Id>;
  private readonly headerCells: HTMLElement[];
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  private items: number[] = [];
  private openItem: number;
  /** The row the keyboard is on (position in `order`); Enter opens it. */
  private cursor = 0;
  /** The range of positions drawn (`first:last`). */
  private drawn = '';
  private scheduled = false;
  /** The height setOrder gave the grid (its rows', up to `visibleRows`). */
  private autoHeight = '';

  constructor(options: GridOptions<Id>) {
    this.options = options;
    this.openItem = options.open;
    this.headerCells = options.columns.map(headerCell);
    this.header = el('div', { className: 'rt-row rt-head', attrs: { role: 'row', 'aria-rowindex': '1' } }, this.headerCells);
    this.body = el('div', { className: 'rt-body', attrs: { role: 'rowgroup' } });
    this.element = el('div', { className: 'rt-scroll', attrs: { role: 'grid', tabindex: '0', 'aria-readonly': 'true', ...options.attrs } }, [
      el('div', { attrs: { role: 'rowgroup' }, className: 'rt-headgroup' }, [this.header]),
      this.body,
    ]);
    this.element.addEventListener('scroll', () => this.onScroll());
    this.element.addEventListener('click', (event) => this.onClick(event));
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    new ResizeObserver(() => this.draw()).observe(this.element);
    requestAnimationFrame(() => this.reveal(this.cursor));
  }

  get order(): readonly number[] {
    return this.items;
  }

  get open(): number {
    return this.openItem;
  }

  setOrder(next: number[], sort: { column: Id; descending: boolean }): void {
    const grid = this.element;
    // A short list gets a grid as tall as its rows; a long one shows `visibleRows` and scrolls (or is resized).
    // Rows that fill in (a folder being read) grow a height the grid set, never one the user resized to.
    if (grid.style.height === '' || grid.style.height === this.autoHeight) {
      this.autoHeight = `${(Math.min(this.options.visibleRows, next.length) + 1) * ROW_HEIGHT + 2}px`;
      grid.style.height = this.autoHeight;
    }
    this.items = next;
    this.body.style.height = `${next.length * ROW_HEIGHT}px`;
    const at = next.indexOf(this.openItem);
    this.cursor = at >= 0 ? at : Math.min(this.cursor, Math.max(0, next.length - 1));
    for (const [c, column] of this.options.columns.entries()) {
      this.headerCells[c]?.setAttribute('aria-sort', column.id === sort.column ? (sort.descending ? 'descending' : 'ascending') : 'none');
    }
    grid.setAttribute('aria-rowcount', String(next.length + 1));
    this.redraw();
  }

  setOpen(item: number): void {
    this.openItem = item;
    const at = this.items.indexOf(item);
    if (at >= 0) {
      this.cursor = at;
      this.reveal(at);
    }
    this.element.setAttribute('aria-activedescendant', `${this.options.rowIdPrefix}${item}`);
    this.redraw();
  }

  focus(): void {
    this.element.focus();
  }

  private buildRow(position: number): HTMLElement {
    const { itemAttribute, rowIdPrefix } = this.options;
    const item = this.items[position]!;
    const open = item === this.openItem;
    const row = el(
      'div',
      {
        className: `rt-row${open ? ' selected' : ''}${position === this.cursor ? ' cursor' : ''}`,
        attrs: { role: 'row', id: `${rowIdPrefix}${item}`, 'aria-rowindex': String(position + 2), 'aria-selected': String(open), [`data-${itemAttribute}`]: String(item) },
      },
      this.options.cells(item),
    );
    row.style.top = `${position * ROW_HEIGHT}px`;
    return row;
  }

  /** Draw the rows in view when the range in view changed since the last draw. */
  private draw(): void {
    const grid = this.element;
    const height = grid.clientHeight || ROW_HEIGHT * 8;
    const top = Math.max(0, grid.scrollTop - ROW_HEIGHT);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.items.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const key = `${first}:${last}`;
    if (key === this.drawn) return;
    this.drawn = key;
    const visible: HTMLElement[] = [];
    for (let p = first; p < last; p++) visible.push(this.buildRow(p));
    this.body.replaceChildren(...visible);
  }

  /** Draw the rows in view again (their content or marks changed). */
  private redraw(): void {
    this.drawn = '';
    this.draw();
  }

  /** Scroll so the row at `position` is inside the visible part (below the sticky header). */
  private reveal(position: number): void {
    const grid = this.element;
    const headerHeight = this.header.offsetHeight || ROW_HEIGHT;
    const rowTop = position * ROW_HEIGHT;
    const shown = grid.clientHeight - headerHeight;
    if (rowTop < grid.scrollTop) grid.scrollTop = rowTop;
    else if (rowTop + ROW_HEIGHT > grid.scrollTop + shown) grid.scrollTop = rowTop + ROW_HEIGHT - shown;
  }

  private moveCursor(position: number): void {
    if (this.items.length === 0) return;
    this.cursor = Math.min(Math.max(0, position), this.items.length - 1);
    this.element.setAttribute('aria-activedescendant', `${this.options.rowIdPrefix}${this.items[this.cursor]}`);
    this.reveal(this.cursor);
    this.redraw();
  }

  private onScroll(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.draw();
    });
  }

  private onClick(event: MouseEvent): void {
    const target = event.target as HTMLElement;
    const sort = target.closest<HTMLElement>('button.sort');
    if (sort) {
      this.options.onSort(sort.dataset['column'] as Id);
      return;
    }
    const { itemAttribute } = this.options;
    const row = target.closest<HTMLElement>(`.rt-row[data-${itemAttribute}]`);
    if (!row) return;
    const item = Number(row.getAttribute(`data-${itemAttribute}`));
    this.cursor = this.items.indexOf(item);
    this.options.onOpen(item);
  }

  private onKey(event: KeyboardEvent): void {
    if ((event.target as HTMLElement).closest('button.sort')) return;
    const page = Math.max(1, Math.floor(this.element.clientHeight / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: page, PageUp: -page };
    if (event.key in moves) {
      event.preventDefault();
      event.stopPropagation();
      this.moveCursor(this.cursor + (moves[event.key] ?? 0));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      this.moveCursor(event.key === 'Home' ? 0 : this.items.length - 1);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const item = this.items[this.cursor];
      if (item !== undefined) this.options.onOpen(item);
    }
  }
}
