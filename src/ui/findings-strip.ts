// The findings line at the top of the Tokens view: findings come before the treemap, so the first thing a user
// reads about an input is why its cache misses (or that it does not). Findings are grouped by code with counts,
// never lists of request ranges (at 28,000 requests those filled the screen); each group links to the block its
// first finding names. More than a few groups fold behind a "more" toggle. The full list is the Findings panel.
import { actualText, basisText, unpricedText } from '../core/cache/headline.ts';
import type { Finding, Severity } from '../core/cache/index.ts';
import { SEVERITY_RANK } from '../core/cache/index.ts';
import type { FindingsAnswer } from '../worker/handlers/findings.ts';
import './panels/findings.css';
import { el } from './dom.ts';
import { formatCount } from '../render/format.ts';
import type { PanelContext } from './panels/types.ts';

/** Groups shown before the rest fold away. */
const SHOWN = 3;

export interface FindingGroup {
  code: string;
  severity: Severity;
  findings: number;
  /** Distinct requests the group's findings fired on. */
  requests: number;
  /** The first finding of the group: where its link goes. */
  first: Finding;
}

/** One group per finding code, most severe first, then by how many requests it touches. */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<string, { group: FindingGroup; requests: Set<number> }>();
  for (const finding of findings) {
    let entry = groups.get(finding.code);
    if (entry === undefined) {
      entry = { group: { code: finding.code, severity: finding.severity, findings: 0, requests: 0, first: finding }, requests: new Set() };
      groups.set(finding.code, entry);
    }
    entry.group.findings++;
    if (SEVERITY_RANK[finding.severity] < SEVERITY_RANK[entry.group.severity]) entry.group.severity = finding.severity;
    for (const r of finding.requests) entry.requests.add(r);
  }
  return [...groups.values()]
    .map(({ group, requests }) => ({ ...group, requests: requests.size }))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.requests - a.requests || a.code.localeCompare(b.code));
}

function groupItem(group: FindingGroup, ctx: PanelContext): HTMLElement {
  const request = group.first.requests[0] ?? ctx.request.index;
  const counts = `${group.findings > 1 ? `${formatCount(group.findings)} findings, ` : ''}${formatCount(group.requests)} request${group.requests === 1 ? '' : 's'}`;
  return el('li', { className: `sev-${group.severity}` }, [
    el('span', { className: 'severity', text: group.severity }),
    ' ',
    el('span', { className: 'mono', text: group.code }),
    el('span', { className: 'muted', text: ` · ${counts} · ` }),
    el('button', {
      className: 'link',
      text: group.first.segmentPath === null ? `request ${request + 1}` : `${group.first.segmentPath} in #${request + 1}`,
      // Named by its visible text (label in name), the request spelled out.
      attrs: { type: 'button', 'aria-label': group.first.segmentPath === null ? `request ${request + 1}` : `${group.first.segmentPath} in #${request + 1}: show it in request ${request + 1}` },
      on: { click: () => ctx.navigate({ request, panel: 'tokens', segment: group.first.segmentPath }) },
    }),
  ]);
}

export async function renderFindingsStrip(host: HTMLElement, ctx: PanelContext): Promise<void> {
  let answer: FindingsAnswer;
  try {
    answer = await ctx.ask('findings');
  } catch {
    // The Findings tab reports the failure in full; the strip just stays empty.
    return;
  }
  if (ctx.signal.aborted) return;
  const open = el('button', { className: 'link', text: 'All findings →', attrs: { type: 'button' }, on: { click: () => ctx.selectPanel('findings') } });
  const unpriced = unpricedText(answer.headline);
  const cost = el('p', { className: 'findings-headline' }, [
    el('strong', { text: `Actual ${actualText(answer.headline)}` }),
    el('span', { className: 'muted', text: ` (${basisText(answer.headline)})` }),
    unpriced === null ? null : el('strong', { className: 'unpriced', text: ` · ${unpriced}` }),
  ]);
  if (answer.findings.length === 0) {
    host.replaceChildren(
      el('div', { className: 'findings-strip clean' }, [
        cost,
        el('p', { text: unpriced === null ? 'No findings: fixing nothing the simulation models would lower the cost.' : 'No findings; the cost above leaves out what is not priced.' }),
      ]),
    );
    return;
  }
  const groups = groupFindings(answer.findings);
  const shown = groups.slice(0, SHOWN).map((group) => groupItem(group, ctx));
  const rest = groups.slice(SHOWN);
  host.replaceChildren(
    el('div', { className: 'findings-strip' }, [
      cost,
      el('p', {}, [
        el('strong', { text: `${formatCount(answer.findings.length)} finding${answer.findings.length === 1 ? '' : 's'}` }),
        groups.length > 1 ? el('span', { className: 'muted', text: ` of ${groups.length} kinds` }) : null,
        answer.actualCost > answer.optimizedCost
          ? el('span', { className: 'muted', text: ` · fixing them would cut the actual cost by ${(100 * (1 - answer.optimizedCost / answer.actualCost)).toFixed(1)}%` })
          : null,
        ' ',
        open,
      ]),
      el('ul', {}, shown),
      rest.length > 0
        ? el('details', { className: 'findings-more' }, [
            el('summary', { text: `${rest.length} more kind${rest.length === 1 ? '' : 's'}` }),
            el('ul', {}, rest.map((group) => groupItem(group, ctx))),
          ])
        : null,
    ]),
  );
}
