// The Summary panel: the time-range summary over every file opened (a dropped folder of transcripts above all):
// totals per UTC day and per model, the conversations that cost the most and the finding codes whose requests
// cost the most. The same tables as `ctxray analyze <folder>` and the record's `summary` section.
import './timeline.css';
import type { TimeRangeSummary } from '../../core/transcripts/index.ts';
import { el } from '../dom.ts';
import { numCell, scrollingTable } from '../data-table.ts';
import { formatCount, formatUsd } from '../../render/format.ts';
import { askWithRequests } from './ask.ts';
import type { Panel, PanelContext } from './types.ts';

type Totals = TimeRangeSummary['totals'];


/** "unpriced" when no request of the row has a price ($0.0000 would read as free); else the sum and what it omits. */
export function costText(t: Pick<Totals, 'cost' | 'requests' | 'unpricedRequests'>): string {
  if (t.requests > 0 && t.unpricedRequests >= t.requests) return 'unpriced';
  return `${formatUsd(t.cost)}${t.unpricedRequests > 0 ? ` (+${formatCount(t.unpricedRequests)} unpriced)` : ''}`;
}
const time = (iso: string | null) => (iso === null ? '–' : iso.slice(0, 16).replace('T', ' '));
const TOTAL_HEADERS = ['Requests', 'Recorded', 'Prompt', 'Cache read', 'Cache write', 'Output', 'Cost'];

function totalCells(t: Totals): HTMLElement[] {
  return [...[t.requests, t.recordedRequests, t.promptTokens, t.cacheRead, t.cacheWrite, t.output].map((n) => numCell(formatCount(n))), numCell(costText(t))];
}

interface SummaryTable {
  id: string;
  label: string;
  headers: readonly string[];
  rows: readonly HTMLElement[];
  foot?: HTMLElement;
  /** How many leading columns hold text (left-aligned); the rest are numbers. */
  textColumns?: number;
}

function table({ id, label, headers, rows, foot, textColumns = 1 }: SummaryTable): HTMLElement {
  return scrollingTable({ className: 'data', attrs: { id, 'aria-label': label }, headers, numeric: (i) => i >= textColumns, rows, ...(foot && { foot }) });
}

function requestsButton(first: number | undefined, ctx: PanelContext, text: string): HTMLElement {
  if (first === undefined) return el('span', { text });
  return el('button', { className: 'link', text, attrs: { type: 'button' }, on: { click: () => ctx.selectRequest(first) } });
}

function render(summary: TimeRangeSummary, conversationOf: readonly number[], ctx: PanelContext): HTMLElement[] {
  const firstOf = new Map<number, number>();
  conversationOf.forEach((c, r) => {
    if (!firstOf.has(c)) firstOf.set(c, r);
  });
  const days = summary.days.map((d) => el('tr', {}, [el('td', { className: 'mono', text: d.day ?? '(no time)' }), ...totalCells(d)]));
  const total = el('tr', {}, [el('th', { text: 'Total' }), ...totalCells(summary.totals)]);
  const models = summary.models.map((m) => el('tr', {}, [el('td', { className: 'mono', text: m.model ?? '(no model)' }), ...totalCells(m)]));
  const conversations = summary.topConversations.map((c) =>
    el('tr', {}, [
      el('td', {}, [requestsButton(firstOf.get(c.conversation), ctx, String(c.conversation + 1))]),
      el('td', { className: 'mono', text: ctx.view.files[c.file]?.name ?? `file ${c.file + 1}` }),
      numCell(time(c.start)),
      numCell(formatCount(c.requests)),
      numCell(formatCount(c.promptTokens)),
      numCell(costText(c)),
    ]),
  );
  const findings = summary.topFindings.map((f) =>
    el('tr', {}, [
      el('td', { className: 'mono', text: f.code }),
      el('td', { text: f.severity }),
      numCell(formatCount(f.findings)),
      numCell(formatCount(f.requests)),
      numCell(formatUsd(f.cost)),
    ]),
  );
  const parts: HTMLElement[] = [
    el('h2', {
      className: 'section-title',
      // Logs without timestamps have no time range: say so rather than print "– → – UTC".
      text: summary.start === null ? 'Summary (no timestamps)' : `Summary ${time(summary.start)} → ${time(summary.end)} UTC`,
    }),
    el('p', {
      className: 'muted',
      text: `${formatCount(ctx.view.files.length)} file(s), ${formatCount(summary.totals.requests)} request(s), ${formatCount(summary.totals.recordedRequests)} with recorded usage. A request with recorded usage counts as billed; the rest as simulated.`,
    }),
    el('h3', { text: 'Per day (UTC)' }),
    table({ id: 'summary-days', label: 'Totals per day', headers: ['Day', ...TOTAL_HEADERS], rows: days, foot: total }),
    el('h3', { text: 'Per model' }),
    table({ id: 'summary-models', label: 'Totals per model', headers: ['Model', ...TOTAL_HEADERS], rows: models }),
  ];
  if (conversations.length > 0) {
    parts.push(
      el('h3', { text: 'Costliest conversations' }),
      table({ id: 'summary-conversations', label: 'Costliest conversations', headers: ['#', 'File', 'Start (UTC)', 'Requests', 'Prompt', 'Cost'], rows: conversations, textColumns: 2 }),
    );
  }
  if (findings.length > 0) {
    parts.push(
      el('h3', { text: 'Costliest findings' }),
      table({
        id: 'summary-findings',
        label: 'Finding codes by the cost of the requests they fired on',
        headers: ['Finding', 'Severity', 'Times', 'Requests', 'Cost of those requests'],
        rows: findings,
        textColumns: 2,
      }),
    );
  }
  return [el('div', { className: 'summary-tables' }, parts)];
}

export const summaryPanel: Panel = {
  id: 'summary',
  title: 'Summary',
  showsRequest: false,
  async render(container, ctx) {
    const answer = await askWithRequests(container, ctx, { empty: 'No requests.', query: 'transcript-summary' });
    if (answer === null) return;
    container.replaceChildren(...render(answer.summary, answer.conversationOf, ctx));
  },
};
