// The treemap view: one focusable rectangle per segment, positioned through the CSSOM (allowed under a
// style-src 'self' policy, unlike style attributes). Hover shows category, tokens, bytes and path; click, Enter or
// Space selects; arrow keys move between neighbouring rectangles; Home/End jump to the first/last segment.
// Zoom: double-click, `+` or Shift+Enter on a rectangle draws only its message's blocks; Esc, Backspace, `-` or the
// breadcrumb go back to the whole request. Search marks the blocks whose name or kind matches and dims the rest.
// The parts: parts.ts (elements), draw.ts (rectangles, search marks), navigation.ts (breadcrumb, zoom, focus,
// selection), events.ts (pointer, keys, search, tooltip) and tooltip.ts.
import type { RequestView } from '../../worker/view-model.ts';
import { buildTreemapParts } from './parts.ts';
import { drawTreemap } from './draw.ts';
import { renderCrumbs, revealSegment, selectSegment } from './navigation.ts';
import { bindCellEvents, bindSearch, bindTooltip, bindZoomButton } from './events.ts';
import { initialState, type TreemapContext, type TreemapOptions } from './state.ts';

export type { TreemapOptions } from './state.ts';

export interface TreemapHandle {
  /** Mark a segment selected (and focus it when asked). */
  select(segment: number, how: { focus: boolean }): void;
  /** Scroll a segment's rectangle into view and focus it (zooming out first when the zoom hides it). */
  reveal(segment: number): void;
  destroy(): void;
}

export function renderTreemap(host: HTMLElement, request: RequestView, options: TreemapOptions): TreemapHandle {
  const parts = buildTreemapParts(host, request);
  parts.search.value = options.search;
  const ctx: TreemapContext = { host, request, options, parts, state: initialState(request, options, parts.search.value) };
  bindCellEvents(ctx);
  bindZoomButton(ctx);
  bindSearch(ctx);
  bindTooltip(ctx);
  const size = { last: '' };
  const observer = watchSize(ctx, size);
  drawTreemap(ctx);
  renderCrumbs(ctx);
  // A zoom this request does not have (kept from another request, or a link's): the view state says so too.
  if (options.zoom !== null && ctx.state.zoom === null) options.onView({ zoom: ctx.state.zoom, search: parts.search.value });
  size.last = sizeOf(parts.canvas);
  return {
    select: (segment, how) => selectSegment(ctx, segment, how),
    reveal: (segment) => revealSegment(ctx, segment),
    destroy: () => observer.disconnect(),
  };
}

function sizeOf(canvas: HTMLElement): string {
  return `${canvas.clientWidth}x${canvas.clientHeight}`;
}

/** Draw again whenever the map's size changes from the last size drawn at. */
function watchSize(ctx: TreemapContext, size: { last: string }): ResizeObserver {
  const { canvas } = ctx.parts;
  const observer = new ResizeObserver(() => {
    const now = sizeOf(canvas);
    if (now === size.last) return;
    size.last = now;
    drawTreemap(ctx);
  });
  observer.observe(canvas);
  return observer;
}
