// A compact overview of every request: one bar per request, height by total tokens, the selected one marked.
// Clicking a bar selects that request. It is a pointer shortcut; the request selector is the accessible control.
import { el } from './dom.ts';
import { formatTokens } from './format.ts';
import type { AnalysisView } from './view-model.ts';

export function renderRequestStrip(view: AnalysisView, selected: number, onSelect: (index: number) => void): HTMLElement {
  const largest = view.requests.reduce((max, r) => Math.max(max, r.total), 0);
  const strip = el('div', { className: 'strip', attrs: { 'aria-hidden': 'true' } });
  view.requests.forEach((request, i) => {
    const bar = el('div', { className: i === selected ? 'strip-bar selected' : 'strip-bar', attrs: { 'data-request': String(i) } });
    bar.title = `#${i + 1} · ${request.model ?? 'no model'} · ${formatTokens(request.total, request.exact)} tokens`;
    const fill = el('span');
    fill.style.height = `${largest > 0 ? Math.max(4, (100 * request.total) / largest) : 4}%`;
    bar.append(fill);
    strip.append(bar);
  });
  strip.addEventListener('click', (event) => {
    const bar = (event.target as HTMLElement).closest<HTMLElement>('.strip-bar');
    if (bar) onSelect(Number(bar.dataset['request']));
  });
  return strip;
}
