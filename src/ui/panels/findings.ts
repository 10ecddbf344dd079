// The Findings panel: rule-based, located findings with their fixes, each linking to every request it fired on.
// Shown first: it is the answer to "why does the cache keep missing?". Text-free apart from tool names, which the
// page's view already holds.
import './findings.css';
import type { Finding, Severity } from '../../core/cache/index.ts';
import { basisText, unpricedText } from '../../core/cache/headline.ts';
import type { FindingsAnswer } from '../../worker/handlers/findings.ts';
import { el } from '../dom.ts';
import { formatUsd } from '../../render/format.ts';
import type { Panel, PanelContext, PanelId } from './types.ts';
import { askWithRequests } from './ask.ts';
import { exportButtons, itemsTable, type ExportColumn } from '../export.ts';

/** Request links drawn per finding before "N more". */
const MAX_LINKS = 60;

function summaryOf(answer: FindingsAnswer): HTMLElement {
  const { findings } = answer;
  const unpriced = unpricedText(answer.headline);
  if (findings.length === 0) {
    return el('p', {
      text:
        unpriced === null
          ? `No findings: the optimized cost (${formatUsd(answer.optimizedCost)}) equals the actual cost (${formatUsd(answer.actualCost)}), so this input caches cleanly.`
          : `No findings, but the cost is incomplete: ${unpriced}.`,
    });
  }
  const counts = (['error', 'warning', 'info'] as const satisfies readonly Severity[])
    .map((severity) => [severity, findings.filter((f) => f.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}${count === 1 ? '' : 's'}`);
  return el('p', {
    text: `${findings.length} finding${findings.length === 1 ? '' : 's'} (${counts.join(', ')}). Actual cost ${formatUsd(answer.actualCost)} (${basisText(answer.headline)}), optimized ${formatUsd(answer.optimizedCost)}.${unpriced === null ? '' : ` ${unpriced}.`}`,
  });
}

function requestLinks(finding: Finding, ctx: PanelContext): HTMLElement {
  const shown = finding.requests.slice(0, MAX_LINKS).map((index) =>
    el('button', {
      className: 'link',
      text: String(index + 1),
      attrs: {
        type: 'button',
        'aria-label': `Open request ${index + 1}`,
        ...(index === ctx.request.index && { 'aria-current': 'true' }),
      },
      // The request with the block the finding names (the same path in a later request), in the Tokens view.
      on: { click: () => ctx.navigate({ request: index, panel: 'tokens', segment: finding.segmentPath }) },
    }),
  );
  const more = finding.requests.length - shown.length;
  return el('p', { className: 'finding-requests' }, [
    el('span', { className: 'muted', text: finding.requests.length === 1 ? 'Request:' : 'Requests:' }),
    ...shown,
    more > 0 ? el('span', { className: 'muted', text: `and ${more} more` }) : null,
  ]);
}

/** Buttons to the block, its diff and its cache row in the finding's first request (where its path applies). */
export function findingTargets(finding: Finding, ctx: PanelContext): HTMLElement {
  const request = finding.requests[0] ?? ctx.request.index;
  // The accessible name starts with the visible text (WCAG 2.5.3, label in name) and says which request.
  const go = (text: string, label: string, panel: PanelId): HTMLElement =>
    el('button', {
      className: 'link',
      text,
      attrs: { type: 'button', 'aria-label': `${text}: ${label} in request ${request + 1}` },
      on: { click: () => ctx.navigate({ request, panel, segment: finding.segmentPath }) },
    });
  return el('p', { className: 'finding-targets' }, [
    finding.segmentPath === null ? go('Request', 'show it', 'tokens') : go(`Block ${finding.segmentPath}`, 'show it', 'tokens'),
    go('Diff', 'what changed', 'diff'),
    go('Cache row', 'its cache figures', 'cache'),
  ]);
}

/** The findings as rows (request numbers 1-based, as shown); the payload-derived detail stays out, as in --json. */
const EXPORT_COLUMNS: readonly ExportColumn<Finding>[] = [
  { id: 'severity', title: 'Severity', value: (f) => f.severity },
  { id: 'code', title: 'Code', value: (f) => f.code },
  { id: 'block', title: 'Block', value: (f) => f.segmentPath },
  { id: 'message', title: 'Message', value: (f) => f.message },
  { id: 'fix', title: 'Fix', value: (f) => f.fix },
  { id: 'requests', title: 'Requests', value: (f) => f.requests.map((r) => r + 1).join(' ') },
];

function findingCard(finding: Finding, ctx: PanelContext): HTMLElement {
  const involves = finding.requests.includes(ctx.request.index);
  return el('div', { className: `finding sev-${finding.severity}${involves ? ' involves-selected' : ''}` }, [
    el('p', {}, [
      el('span', { className: 'severity', text: finding.severity }),
      ' · ',
      el('span', { className: 'mono', text: finding.code }),
      finding.segmentPath === null ? null : ' · ',
      finding.segmentPath === null ? null : el('span', { className: 'mono', text: finding.segmentPath }),
    ]),
    el('p', { text: finding.message }),
    finding.detail === null ? null : el('p', { className: 'mono muted', text: finding.detail }),
    el('p', { className: 'muted', text: `Fix: ${finding.fix}` }),
    findingTargets(finding, ctx),
    requestLinks(finding, ctx),
  ]);
}

export const findingsPanel: Panel = {
  id: 'findings',
  title: 'Findings',
  async render(container, ctx) {
    const answer = await askWithRequests(container, ctx, { empty: 'No requests to check.', loading: 'Checking the sequence…', query: 'findings' });
    if (answer === null) return;
    const transcript =
      answer.requestsWithUnknownBreakpoints > 0
        ? el('p', {
            className: 'muted',
            text: `${answer.requestsWithUnknownBreakpoints} request(s) were rebuilt from a transcript, which does not record cache breakpoints: no finding claims one is missing, and the actual cost assumes none (an upper bound).`,
          })
        : null;
    container.replaceChildren(
      el('h2', { className: 'section-title', text: 'Findings' }),
      summaryOf(answer),
      ...(answer.findings.length === 0 ? [] : [exportButtons({ name: 'ctxray-findings', label: 'the findings', table: () => itemsTable(EXPORT_COLUMNS, answer.findings) })]),
      ...(transcript === null ? [] : [transcript]),
      ...answer.findings.map((finding) => findingCard(finding, ctx)),
      el('p', {
        className: 'muted',
        text: 'Rule-based checks over the requests, their prefix diffs, the cache simulation and near-duplicate content: the same input always gives the same findings. Request numbers start at 1.',
      }),
    );
  },
};
