// The Summary panel: the time-range summary over every file opened (a dropped folder of transcripts above all):
// totals per UTC day and per model, the conversations that cost the most and the finding codes whose requests
// cost the most. The same tables as `ctxray analyze <folder>` and the record's `summary` section.
import './timeline.css';
import type { TimeRangeSummary } from '../../core/transcripts/index.ts';
import { el } from '../dom.ts';
import { formatCount, formatUsd } from '../../render/format.ts';
import { askOrShowError } from './ask.ts';
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
  return [
    el('td', { className: 'num', text: formatCount(t.requests) }),
    el('td', { className: 'num', text: formatCount(t.recordedRequests) }),
    el('td', { className: 'num', text: formatCount(t.promptTokens) }),
    el('td', { className: 'num', text: formatCount(t.cacheRead) }),
    el('td', { className: 'num', text: formatCount(t.cacheWrite) }),
    el('td', { className: 'num', text: formatCount(t.output) }),
    el('td', { className: 'num', text: costText(t) }),
  ];
}

/** `textColumns`: how many leading columns hold text (left-aligned); the rest are numbers. */
function table(id: string, label: string, headers: readonly string[], rows: readonly HTMLElement[], foot?: HTMLElement, textColumns = 1): HTMLElement {
  return el('div', { className: 'table-scroll' }, [
    el('table', { className: 'data', attrs: { id, 'aria-label': label } }, [
      el('thead', {}, [el('tr', {}, headers.map((h, i) => el('th', { className: i < textColumns ? '' : 'num', text: h })))]),
      el('tbody', {}, rows),
      foot ? el('tfoot', {}, [foot]) : null,
    ]),
  ]);
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
      el('td', { className: 'num', text: time(c.start) }),
      el('td', { className: 'num', text: formatCount(c.requests) }),
      el('td', { className: 'num', text: formatCount(c.promptTokens) }),
      el('td', { className: 'num', text: costText(c) }),
    ]),
  );
  const findings = summary.topFindings.map((f) =>
    el('tr', {}, [
      el('td', { className: 'mono', text: f.code }),
      el('td', { text: f.severity }),
      el('td', { className: 'num', text: formatCount(f.findings) }),
      el('td', { className: 'num', text: formatCount(f.requests) }),
      el('td', { className: 'num', text: formatUsd(f.cost) }),
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
    table('summary-days', 'Totals per day', ['Day', ...TOTAL_HEADERS], days, total),
    el('h3', { text: 'Per model' }),
    table('summary-models', 'Totals per model', ['Model', ...TOTAL_HEADERS], models),
  ];
  if (conversations.length > 0) {
    parts.push(el('h3', { text: 'Costliest conversations' }), table('summary-conversations', 'Costliest conversations', ['#', 'File', 'Start (UTC)', 'Requests', 'Prompt', 'Cost'], conversations, undefined, 2));
  }
  if (findings.length > 0) {
    parts.push(
      el('h3', { text: 'Costliest findings' }),
      table('summary-findings', 'Finding codes by the cost of the requests they fired on', ['Finding', 'Severity', 'Times', 'Requests', 'Cost of those requests'], findings, undefined, 2),
    );
  }
  return [el('div', { className: 'summary-tables' }, parts)];
}

export const summaryPanel: Panel = {
  id: 'summary',
  title: 'Summary',
  needs: [],
  showsRequest: false,
  async render(container, ctx) {
    if (ctx.view.requests.length === 0) {
      container.append(el('p', { className: 'empty', text: 'No requests.' }));
      return;
    }
    const answer = await askOrShowError(container, ctx, 'transcript-summary');
    if (answer === null) return;
    container.replaceChildren(...render(answer.summary, answer.conversationOf, ctx));
  },
};
