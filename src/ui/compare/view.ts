// The compare screen: two runs before → after (the worker's ctxray.compare/1 record, as `ctxray compare` gives it),
// one table per section with the change and, for the headline figures, whether it went the better or the worse way
// in words; export as the CLI's JSON record or as CSV; back to what the comparison was started from.
import { formatCount } from '../../render/format.ts';
import { compareChangeText, costBasisText } from '../../render/compare-text.ts';
import { el } from '../dom.ts';
import { download, tableCsv } from '../export.ts';
import type { Compared, Screen } from '../screen.ts';
import { compareTable, shownSections, type ShownRow, type ShownSection } from './rows.ts';
import './compare.css';

export interface CompareScreenActions {
  /** Back to what the comparison was started from. */
  back(): void;
}

const VERDICT_WORDS: Record<NonNullable<ShownRow['verdict']>, string> = { better: 'better', worse: 'worse', same: 'same', unknown: 'n/a' };

function changeCell(row: ShownRow): HTMLElement {
  const cell = el('td', { className: 'num change', attrs: { role: 'cell', 'data-label': 'change' } }, [el('span', { className: 'change-text', text: row.change })]);
  // "same" and "n/a" say it in the change already.
  if (row.verdict === 'better' || row.verdict === 'worse') cell.append(' ', el('span', { className: `verdict v-${row.verdict}`, text: VERDICT_WORDS[row.verdict] }));
  return cell;
}

function sectionTable(section: ShownSection): HTMLElement {
  // Explicit roles: on a phone the rows are laid out as cards (compare.css), which drops a table's implicit ones.
  const titles = [section.id === 'totals' ? 'figure' : 'item', 'before', 'after', 'change'];
  const head = el('tr', { attrs: { role: 'row' } }, titles.map((title, i) => el('th', { className: i === 0 ? '' : 'num', text: title, attrs: { scope: 'col', role: 'columnheader' } })));
  const figure = (text: string, label: string) => el('td', { className: 'num', text, attrs: { role: 'cell', 'data-label': label } });
  const body = section.rows.map((row) =>
    el('tr', { attrs: { role: 'row' } }, [
      el('th', { className: 'label', text: row.label, attrs: { scope: 'row', role: 'rowheader' } }),
      figure(row.before, 'before'),
      figure(row.after, 'after'),
      changeCell(row),
    ]),
  );
  const table = el('table', { className: 'compare-table', attrs: { id: `compare-${section.id}`, role: 'table' } }, [
    el('caption', { className: 'muted', text: section.caption }),
    el('thead', { attrs: { role: 'rowgroup' } }, [head]),
    el('tbody', { attrs: { role: 'rowgroup' } }, body),
  ]);
  return el('section', { className: 'compare-section', attrs: { 'aria-labelledby': `compare-${section.id}-title` } }, [
    el('h2', { text: section.title, attrs: { id: `compare-${section.id}-title` } }),
    section.rows.length === 0 ? el('p', { className: 'muted', text: 'Neither side has any.' }) : el('div', { className: 'compare-table-wrap' }, [table]),
  ]);
}

/** "Cost $4.36 → $0.82 (−$3.53, −81 %): better" — the first line a user reads. */
function headline(compared: Compared): string {
  const cost = compared.record.metrics.find((row) => row.metric === 'cost');
  if (!cost || cost.verdict === 'unknown') return 'Neither side could be priced: the token figures below compare them.';
  const rows = shownSections(compared.record)[0]?.rows ?? [];
  const shown = rows.find((row) => row.label === 'cost');
  return `Cost ${shown?.before ?? ''} → ${shown?.after ?? ''}: ${compareChangeText(cost, 'usd')}, ${VERDICT_WORDS[cost.verdict]}.`;
}

function sidesList(compared: Compared): HTMLElement {
  const side = (which: 'before' | 'after') => {
    const record = compared.record[which];
    const sessions = record.sessions === null ? '' : `, ${formatCount(record.sessions)} session${record.sessions === 1 ? '' : 's'}`;
    return el('div', { className: 'compare-side' }, [
      el('dt', { text: which }),
      el('dd', {}, [el('span', { className: 'compare-name', text: compared.names[which], attrs: { title: compared.names[which] } }), ` — ${formatCount(record.requests)} requests${sessions}, ${costBasisText(record.basis)}`]),
    ]);
  };
  return el('dl', { className: 'compare-sides' }, [side('before'), side('after')]);
}

function exportActions(compared: Compared): HTMLElement {
  const json = `${JSON.stringify(compared.record, null, 2)}\n`;
  return el('span', { className: 'export-buttons' }, [
    el('button', { className: 'export-button', text: 'Export JSON', attrs: { type: 'button', 'data-export': 'compare-json', title: 'The ctxray.compare/1 record, as `ctxray compare --json` writes it' }, on: { click: () => download('ctxray-compare.json', json, 'application/json') } }),
    el('button', { className: 'export-button', text: 'Export CSV', attrs: { type: 'button', 'data-export': 'compare-csv', title: 'Every row: section, item, measure, before, after, change, relative, verdict' }, on: { click: () => download('ctxray-compare.csv', tableCsv(compareTable(compared.record)), 'text/csv;charset=utf-8') } }),
  ]);
}

const BACK_LABELS = { session: 'the session', folder: 'the sessions', start: 'the start page' } as const;

export function mountCompareScreen(main: HTMLElement, screen: Extract<Screen, { kind: 'compare' }>, actions: CompareScreenActions): void {
  main.className = 'main main-compare';
  const { compared } = screen;
  const { before, after } = compared.record;
  const summaryOnly = before.findingsSource === 'summary' || after.findingsSource === 'summary';
  const back = el('button', { text: `← Back to ${BACK_LABELS[screen.back.kind]}`, attrs: { type: 'button', id: 'compare-back' }, on: { click: () => actions.back() } });
  main.replaceChildren(
    el('div', { className: 'compare' }, [
      el('div', { className: 'compare-head' }, [
        el('h1', { text: 'Before → after' }),
        el('div', { className: 'compare-actions' }, [back, exportActions(compared)]),
      ]),
      sidesList(compared),
      el('p', { className: 'compare-headline', attrs: { id: 'compare-headline' }, text: headline(compared) }),
      el('p', {
        className: 'muted',
        text: 'Each side is read as `ctxray analyze --json` reads it (Claude estimates rescaled by the usage a log records, as the CLI does by default), so these are the figures `ctxray compare` gives for the same two.',
      }),
      ...shownSections(compared.record).map(sectionTable),
      summaryOnly ? el('p', { className: 'muted', text: "A folder's record keeps its ten costliest finding codes; compare two session files to see every code." }) : null,
    ]),
  );
  back.focus();
}
