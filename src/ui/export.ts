// Export of a table as CSV or JSON, downloaded from a Blob (the CSP forbids connections; nothing leaves the page).
// CSV follows RFC 4180 (fields with a quote, comma or line break are quoted, quotes doubled), and a text field that
// starts with = + - @ (or a tab or carriage return) gets a leading apostrophe, so a spreadsheet never runs it as a
// formula (OWASP "CSV injection"). Numbers are written as numbers, unformatted.
import { el } from './dom.ts';

export type Cell = string | number | boolean | null;

export interface Table {
  columns: readonly { id: string; title: string }[];
  rows: readonly (readonly Cell[])[];
}

/** An export column that says how an item fills it. */
export interface ExportColumn<T> {
  id: string;
  title: string;
  value: (item: T) => Cell;
}

/** The export of `items`, one row each, by columns that give their own values. */
export function itemsTable<T>(columns: readonly ExportColumn<T>[], items: readonly T[]): Table {
  return { columns: columns.map(({ id, title }) => ({ id, title })), rows: items.map((item) => columns.map((column) => column.value(item))) };
}

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: Cell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function tableCsv(table: Table): string {
  const lines = [table.columns.map((c) => csvField(c.title)), ...table.rows.map((row) => row.map(csvField))];
  return `${lines.map((fields) => fields.join(',')).join('\r\n')}\r\n`;
}

/** The rows as objects keyed by column id. */
export function tableJson(table: Table): string {
  const records = table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c.id, row[i] ?? null])));
  return `${JSON.stringify(records, null, 2)}\n`;
}

export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el('a', { attrs: { href: url, download: name } });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the object URL; it can go once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "Export CSV" and "JSON" buttons for a table made when clicked (so they export what it shows then). */
export function exportButtons(options: { name: string; label: string; table: () => Table }): HTMLElement {
  const { name, label, table } = options;
  const button = (text: string, format: 'csv' | 'json'): HTMLElement =>
    el('button', {
      className: 'export-button',
      text,
      attrs: { type: 'button', 'data-export': `${name}-${format}`, 'aria-label': `${text} — ${label}` },
      on: {
        click: () =>
          format === 'csv' ? download(`${name}.csv`, tableCsv(table()), 'text/csv;charset=utf-8') : download(`${name}.json`, tableJson(table()), 'application/json'),
      },
    });
  return el('span', { className: 'export-buttons' }, [button('Export CSV', 'csv'), button('JSON', 'json')]);
}
