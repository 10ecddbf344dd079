// The Cache panel: the simulated prompt cache per request (reads, writes, misses, tokens, cost in both scenarios),
// the recorded usage beside it where the log has it, and the totals with the potential savings. Text-free: the
// rows come from the worker's `cache-table` query.
import { basisText } from '../../core/cache/headline.ts';
import type { CacheTable, CacheTableRow } from '../../core/cache/table.ts';
import type { CacheTableAnswer } from '../../worker/handlers/cache-table.ts';
import { el } from '../dom.ts';
import { numCell, scrollingTable } from '../data-table.ts';
import { formatCount, formatPercent, formatTokens, formatUsd, formatUsdCents } from '../../render/format.ts';
import type { RequestView } from '../../worker/view-model.ts';
import type { Panel } from './types.ts';
import { askWithRequests } from './ask.ts';

/** Rows asked for and drawn at once; a larger input shows this many around the selected request. */
const MAX_ROWS = 200;

const money = (value: number | null): string => (value === null ? '–' : formatUsd(value));

function summary(table: CacheTable): HTMLElement {
  const { totals } = table;
  const lines: HTMLElement[] = [
    el('p', {
      text:
        `Actual cost ${money(totals.actualCost)} (${basisText(totals)}); optimized ${money(totals.optimizedCost)} ` +
        `(minus what fixing the findings, deterministic JSON and tool order and a breakpoint on every Claude request's tail would avoid). ` +
        `Potential savings ${money(table.potentialSavings)} (${formatPercent(table.potentialSavings, totals.actualCost)}). ` +
        `Simulated as sent: ${money(totals.simulatedCost)}.`,
    }),
    el('p', {
      className: 'muted',
      text:
        `Projection, a plain multiplication by ${formatCount(table.projection.sessions)} sessions shaped like this input: ` +
        `${formatUsdCents(table.projection.actual)} actual, ${formatUsdCents(table.projection.optimized)} optimized, ` +
        `${formatUsdCents(table.projection.savings)} saved.`,
    }),
  ];
  const notes: string[] = [];
  if (table.optimizedRejected) {
    notes.push(
      `The optimized scenario would cost ${money(table.optimizedScenarioCost)}, more than the requests as sent ` +
        '(tail writes nothing later reads), so the requests as sent already are the cheaper choice.',
    );
  }
  if (table.assumedWithinTtl) notes.push('Requests without a timestamp are assumed to arrive within every cache TTL.');
  if (totals.promptCacheKeys > 0) {
    notes.push(`${formatCount(totals.promptCacheKeys)} OpenAI request(s) carry a prompt_cache_key (a routing hint; its value is not shown).`);
  }
  if (totals.unpriced > 0) notes.push(`${formatCount(totals.unpriced)} request(s) name a model with no price entry: not priced.`);
  const rows = table.rows.length;
  if (totals.outputRecorded < rows) {
    notes.push(`Output tokens: recorded for ${formatCount(totals.outputRecorded)} of ${formatCount(rows)} requests; the rest count 0.`);
  }
  if (table.observed.compared > 0 && table.observed.readAgreementRate !== null) {
    notes.push(
      `Recorded usage for ${formatCount(table.observed.compared)} request(s): the simulation agrees on whether the cache ` +
        `was read for ${formatCount(table.observed.readAgreements)} (${formatPercent(table.observed.readAgreements, table.observed.compared)}).`,
    );
  }
  if (table.misses.length > 0) {
    const parts = table.misses.map((row) => `${row.cause} ${formatCount(row.count)} (${money(row.cost)})`);
    lines.push(el('p', { className: 'cache-misses', text: `Misses by cause, costliest first: ${parts.join(' · ')}.` }));
  }
  for (const note of notes) lines.push(el('p', { className: 'muted', text: note }));
  return el('div', { className: 'cache-summary' }, lines);
}

/** Offers (or reports) rescaling Claude estimates by the factor measured on the log's own recorded usage. */
function calibrationControl(table: CacheTableAnswer, onChange: (on: boolean) => void): HTMLElement | null {
  const available = table.availableCalibration;
  if (available === null) return null;
  const box = el('input', { attrs: { type: 'checkbox' } });
  box.checked = table.appliedCalibration !== null;
  box.addEventListener('change', () => onChange(box.checked));
  const text =
    ` Calibrate Claude estimates on this log's recorded usage: ×${available.factor.toFixed(3)} ` +
    `(median recorded ÷ estimated prompt over ${formatCount(available.requests)} request(s); no network).`;
  return el('label', { className: 'muted cache-calibration' }, [box, text]);
}

function rowOf(row: CacheTableRow, request: RequestView | undefined, { withRecorded, selected }: { withRecorded: boolean; selected: boolean }): HTMLTableRowElement {
  const exact = request?.exact ?? row.provider === 'openai';
  // Zero is zero whatever the tokenizer; ≈ marks only estimated counts.
  const tokens = (value: number): string => formatTokens(value, exact || value === 0);
  const cells: HTMLTableCellElement[] = [
    numCell(String(row.index + 1)),
    el('td', { className: 'mono', text: row.pricedAs ?? request?.model ?? '(no model)' }),
    ...[row.promptTokens, row.read, row.write5m, row.write1h, row.uncached].map((n) => numCell(tokens(n))),
    numCell(money(row.simulatedCost)),
    numCell(money(row.cost), row.basis),
    numCell(money(row.optimizedCost)),
  ];
  if (withRecorded) {
    cells.push(
      numCell(row.recorded === null ? '–' : formatCount(row.recorded.read)),
      numCell(row.recorded === null ? '–' : formatCount(row.recorded.write)),
      el('td', { text: row.readAgrees === null ? '–' : row.readAgrees ? 'yes' : 'no' }),
    );
  }
  const flags = [...(row.rejected ? ['rejected (400)'] : []), ...row.events];
  cells.push(el('td', { className: 'mono', text: flags.join(', ') }));
  return el(
    'tr',
    { className: selected ? 'selected' : '', attrs: { 'data-request': String(row.index), tabindex: '-1' } },
    cells,
  );
}

interface TableView {
  requests: readonly RequestView[];
  /** The selected request's index (its row is marked). */
  selected: number;
  /** Whether the totals' token counts are exact (else marked ≈). */
  totalsExact: boolean;
}

function tableOf(table: CacheTableAnswer, { requests, selected, totalsExact }: TableView): HTMLElement {
  const withRecorded = table.observed.compared > 0;
  const headers = ['#', 'Model', 'Prompt', 'Read', 'Write 5m', 'Write 1h', 'Miss', 'Simulated cost', 'Actual cost', 'Optimized'];
  if (withRecorded) headers.push('Recorded read', 'Recorded write', 'Read agrees');
  headers.push('Diagnostics');
  const start = table.firstRow;
  const end = start + table.rows.length;
  const rows = table.rows.map((row) => rowOf(row, requests[row.index], { withRecorded, selected: row.index === selected }));
  const t = table.totals;
  const total = (value: number): string => formatTokens(value, totalsExact || value === 0);
  const foot = el('tr', {}, [
    el('th', { text: 'Total', attrs: { colspan: '2' } }),
    ...[t.promptTokens, t.read, t.write5m, t.write1h, t.uncached].map((n) => numCell(total(n))),
    ...[t.simulatedCost, t.actualCost, t.optimizedCost].map((n) => numCell(money(n))),
    el('td', { attrs: { colspan: String(withRecorded ? 4 : 1) } }),
  ]);
  const scroller = scrollingTable({
    className: 'data segments cache-table',
    attrs: { 'aria-label': 'Simulated prompt cache per request' },
    headers,
    numeric: (_, h) => !(h === 'Model' || h === 'Diagnostics' || h === 'Read agrees'),
    rows,
    foot,
  });
  const parts: HTMLElement[] = [scroller];
  if (end - start < table.rowCount) {
    parts.unshift(
      el('p', { className: 'muted', text: `Showing requests ${start + 1}–${end} of ${formatCount(table.rowCount)}, around the selected one.` }),
    );
  }
  return el('div', {}, parts);
}

export const cachePanel: Panel = {
  id: 'cache',
  title: 'Cache',
  async render(container, ctx) {
    const opening = { empty: 'No requests to simulate.', loading: 'Simulating the prompt cache…', query: 'cache-table' } as const;
    const table = await askWithRequests(container, ctx, opening, { calibrate: ctx.calibration, around: ctx.request.index, window: MAX_ROWS });
    if (table === null) return;
    const host = tableOf(table, { requests: ctx.view.requests, selected: ctx.request.index, totalsExact: ctx.view.totals.exact });
    host.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLTableRowElement>('tbody tr[data-request]');
      if (row) ctx.navigate({ request: Number(row.dataset['request']) });
    });
    // The choice is view state (in the link): the app re-renders this panel with it.
    const calibration = calibrationControl(table, (on) => ctx.setCalibration(on));
    container.replaceChildren(
      el('h2', { className: 'section-title', text: 'Prompt cache, simulated per request' }),
      summary(table),
      ...(calibration === null ? [] : [calibration]),
      host,
      el('p', {
        className: 'muted',
        text: 'A model of the providers\u2019 documented caching rules, not a measurement; Claude token counts are estimates (≈). Click a row to open that request.',
      }),
    );
    // Bring the selected request's row into view inside the table's own scroll box.
    const selectedRow = host.querySelector<HTMLTableRowElement>('tbody tr.selected');
    const scroller = selectedRow?.closest<HTMLElement>('.table-scroll');
    if (selectedRow && scroller) scroller.scrollTop = Math.max(0, selectedRow.offsetTop - scroller.clientHeight / 2);
    selectedRow?.setAttribute('aria-current', 'true');
    // A finding's "cache row" link: the row ends in view and focused.
    if (ctx.reveal && selectedRow) {
      selectedRow.focus({ preventScroll: true });
      selectedRow.scrollIntoView({ block: 'center' });
    }
  },
};
