// A compact overview of every request: bars by total tokens, the selected one marked; clicking a bar selects it.
// It is a pointer shortcut; the request selector is the accessible control. Long inputs are bucketed: past
// MAX_BARS requests, each bar stands for a run of consecutive requests, drawn at (and selecting) the largest.
import { el } from './dom.ts';
import { formatTokens } from '../render/format.ts';
import type { AnalysisView } from '../worker/view-model.ts';

const MAX_BARS = 400;

export interface StripBar {
  /** First and last request index (inclusive) the bar stands for. */
  first: number;
  last: number;
  /** The largest request of the run: its height and the click target. */
  peak: number;
}

/** Runs of consecutive requests, one per bar, at most `maxBars`. */
export function stripBars(totals: readonly number[], maxBars = MAX_BARS): StripBar[] {
  const size = Math.max(1, Math.ceil(totals.length / maxBars));
  const bars: StripBar[] = [];
  for (let first = 0; first < totals.length; first += size) {
    const last = Math.min(totals.length, first + size) - 1;
    let peak = first;
    for (let i = first + 1; i <= last; i++) if ((totals[i] ?? 0) > (totals[peak] ?? 0)) peak = i;
    bars.push({ first, last, peak });
  }
  return bars;
}

export function renderRequestStrip(view: AnalysisView, selected: number, onSelect: (index: number) => void): HTMLElement {
  const totals = view.requests.map((r) => r.total);
  const largest = totals.reduce((max, t) => Math.max(max, t), 0);
  const strip = el('div', { className: 'strip', attrs: { 'aria-hidden': 'true' } });
  for (const bar of stripBars(totals)) {
    const peak = view.requests[bar.peak];
    if (!peak) continue;
    const holdsSelected = selected >= bar.first && selected <= bar.last;
    const node = el('div', { className: holdsSelected ? 'strip-bar selected' : 'strip-bar', attrs: { 'data-request': String(bar.peak) } });
    const range = bar.first === bar.last ? `#${bar.first + 1}` : `#${bar.first + 1}–${bar.last + 1}, largest #${bar.peak + 1}`;
    node.title = `${range} · ${peak.model ?? 'no model'} · ${formatTokens(peak.total, peak.exact)} tokens`;
    const fill = el('span');
    fill.style.height = `${largest > 0 ? Math.max(4, (100 * peak.total) / largest) : 4}%`;
    node.append(fill);
    strip.append(node);
  }
  strip.addEventListener('click', (event) => {
    const node = (event.target as HTMLElement).closest<HTMLElement>('.strip-bar');
    if (node) onSelect(Number(node.dataset['request']));
  });
  return strip;
}
