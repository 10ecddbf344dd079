// The treemap's elements: the bar above the map (breadcrumb, zoom button, search) and the map with its tooltip.
import { el } from '../dom.ts';
import type { RequestView } from '../../worker/view-model.ts';

export interface TreemapParts {
  crumbs: HTMLOListElement;
  zoomIn: HTMLButtonElement;
  search: HTMLInputElement;
  matchCount: HTMLSpanElement;
  canvas: HTMLDivElement;
  tip: HTMLDivElement;
}

/** Build the treemap's elements and append them to the host: the bar, the map, the tooltip. */
export function buildTreemapParts(host: HTMLElement, request: RequestView): TreemapParts {
  const crumbs = el('ol', { className: 'treemap-crumbs' });
  const zoomIn = el('button', { className: 'treemap-zoom-in', text: 'Zoom in', attrs: { type: 'button', id: 'treemap-zoom-in' } });
  const search = el('input', {
    className: 'treemap-search',
    attrs: {
      type: 'search',
      id: 'treemap-search',
      placeholder: 'Highlight blocks: path, tool, kind',
      'aria-label': 'Highlight blocks by path, tool name or kind',
      'aria-describedby': 'treemap-matches',
      autocomplete: 'off',
      spellcheck: 'false',
    },
  });
  const matchCount = el('span', { className: 'treemap-matches muted small', attrs: { id: 'treemap-matches', 'aria-live': 'polite' } });
  const bar = el('div', { className: 'treemap-bar' }, [
    el('nav', { className: 'treemap-nav', attrs: { 'aria-label': 'Treemap zoom' } }, [crumbs]),
    zoomIn,
    el('div', { className: 'treemap-find' }, [search, matchCount]),
  ]);
  const canvas = el('div', {
    className: 'treemap',
    attrs: { role: 'group', 'aria-label': `Token treemap: ${request.segments.length} segments, one rectangle each` },
  });
  const tip = el('div', { className: 'treemap-tip', attrs: { role: 'tooltip', hidden: '' } });
  host.append(bar, canvas, tip);
  return { crumbs, zoomIn, search, matchCount, canvas, tip };
}
