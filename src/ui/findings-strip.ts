// The findings line at the top of the Tokens view: findings come before the treemap, so the first thing a user
// reads about an input is why its cache misses (or that it does not). The full list is the Findings panel.
import { actualText, basisText, unpricedText } from '../core/cache/headline.ts';
import type { FindingsAnswer } from '../worker/handlers/findings.ts';
import './panels/findings.css';
import { el } from './dom.ts';
import type { PanelContext } from './panels/types.ts';

/** Findings named in the strip before "and N more". */
const SHOWN = 3;

/** Request numbers as ranges, 1-based: [1,2,3,7] → "1–3, 7". */
function ranges(indices: readonly number[]): string {
  const parts: string[] = [];
  let start = -1;
  let previous = -2;
  for (const index of [...indices, -1]) {
    if (index === previous + 1) {
      previous = index;
      continue;
    }
    if (start >= 0) parts.push(start === previous ? String(start + 1) : `${start + 1}–${previous + 1}`);
    start = index;
    previous = index;
  }
  return parts.join(', ');
}

export async function renderFindingsStrip(host: HTMLElement, ctx: PanelContext): Promise<void> {
  let answer: FindingsAnswer;
  try {
    answer = await ctx.ask<FindingsAnswer>('findings');
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
  const items = answer.findings.slice(0, SHOWN).map((finding) =>
    el('li', { className: `sev-${finding.severity}` }, [
      el('span', { className: 'severity', text: finding.severity }),
      ' ',
      el('span', { className: 'mono', text: finding.code }),
      el('span', { className: 'muted', text: ` · request${finding.requests.length === 1 ? '' : 's'} ${ranges(finding.requests)}` }),
    ]),
  );
  const more = answer.findings.length - SHOWN;
  host.replaceChildren(
    el('div', { className: 'findings-strip' }, [
      cost,
      el('p', {}, [
        el('strong', { text: `${answer.findings.length} finding${answer.findings.length === 1 ? '' : 's'}` }),
        answer.actualCost > answer.optimizedCost
          ? el('span', { className: 'muted', text: ` · fixing them would cut the actual cost by ${(100 * (1 - answer.optimizedCost / answer.actualCost)).toFixed(1)}%` })
          : null,
        ' ',
        open,
      ]),
      el('ul', {}, [...items, more > 0 ? el('li', { className: 'muted', text: `and ${more} more` }) : null]),
    ]),
  );
}
