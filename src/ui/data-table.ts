// The panels' static data tables: a header row, the body rows and an optional footer row, in a scroll box of
// their own (`.table-scroll`), and the right-aligned number cell they are mostly made of.
import { el } from './dom.ts';

export interface DataTableOptions {
  /** The table's classes. */
  className: string;
  /** Attributes of the table (id, aria-label). */
  attrs?: Record<string, string>;
  headers: readonly string[];
  /** Which header cells head right-aligned numbers (class `num`); none when absent. */
  numeric?: (index: number, header: string) => boolean;
  rows: readonly HTMLElement[];
  /** The footer's row (totals), if any. */
  foot?: HTMLElement;
}

export function dataTable(options: DataTableOptions): HTMLTableElement {
  const { className, attrs = {}, headers, numeric = () => false, rows, foot } = options;
  return el('table', { className, attrs }, [
    el('thead', {}, [el('tr', {}, headers.map((h, i) => el('th', { className: numeric(i, h) ? 'num' : '', text: h })))]),
    el('tbody', {}, rows),
    foot ? el('tfoot', {}, [foot]) : null,
  ]);
}

/** The table in its own horizontal scroll box, so a wide table never widens the page. */
export function scrollingTable(options: DataTableOptions): HTMLElement {
  return el('div', { className: 'table-scroll' }, [dataTable(options)]);
}

/** A right-aligned number cell, with a tooltip when given. */
export function numCell(text: string, title?: string): HTMLTableCellElement {
  return el('td', { className: 'num', text, ...(title !== undefined && { attrs: { title } }) });
}
