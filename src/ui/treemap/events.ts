// The treemap's input: pointer and keyboard on the rectangles, the zoom button and the search box.
import { neighbour, type Direction } from '../../render/treemap-layout.ts';
import { searchBlocks, zoomGroupOf } from '../../render/treemap-zoom.ts';
import { markMatches } from './draw.ts';
import { moveFocus, renderCrumbs, setZoom, zoomInto } from './navigation.ts';
import { showTip } from './tooltip.ts';
import type { TreemapContext } from './state.ts';

const KEY_DIRECTIONS: Record<string, Direction> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

function cellOf(event: Event): HTMLElement | null {
  return (event.target as HTMLElement).closest<HTMLElement>('.cell');
}

/**
 * Arrow keys move between neighbouring rectangles; Home/End jump to the first/last segment; `+` or Shift+Enter zooms
 * into the block's message; Esc, Backspace or `-` zoom back out; Enter or Space select.
 */
function onCellKey(ctx: TreemapContext, event: KeyboardEvent, segment: number): void {
  const { state } = ctx;
  const direction = KEY_DIRECTIONS[event.key];
  if (direction) {
    event.preventDefault();
    moveFocus(ctx, neighbour(state.cells, segment, direction));
  } else if (event.key === 'Home' || event.key === 'End') {
    event.preventDefault();
    moveFocus(ctx, event.key === 'Home' ? 0 : state.cells.length - 1);
  } else if (event.key === '+' || (event.key === 'Enter' && event.shiftKey)) {
    event.preventDefault();
    state.focusIndex = segment;
    zoomInto(ctx, segment);
  } else if ((event.key === 'Escape' || event.key === 'Backspace' || event.key === '-') && state.zoom !== null) {
    event.preventDefault();
    setZoom(ctx, null, { focus: true });
  } else if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    ctx.options.onSelect(segment);
  }
}

/** Click selects, double-click zooms in, the keys move, zoom and select. */
export function bindCellEvents(ctx: TreemapContext): void {
  const { canvas } = ctx.parts;
  canvas.addEventListener('click', (event) => {
    const node = cellOf(event);
    if (!node) return;
    const segment = Number(node.dataset['segment']);
    moveFocus(ctx, segment);
    ctx.options.onSelect(segment);
  });
  canvas.addEventListener('keydown', (event) => {
    const node = cellOf(event);
    if (node) onCellKey(ctx, event, Number(node.dataset['segment']));
  });
  canvas.addEventListener('dblclick', (event) => {
    const node = cellOf(event);
    const target = node ? ctx.request.segments[Number(node.dataset['segment'])] : undefined;
    if (target === undefined || ctx.state.zoom !== null) return;
    ctx.state.focusIndex = Number(node?.dataset['segment']);
    zoomInto(ctx, ctx.state.focusIndex);
  });
}

/** The zoom button goes into the message of the block last focused, else the selected one. */
export function bindZoomButton(ctx: TreemapContext): void {
  const { request, parts, state } = ctx;
  parts.zoomIn.addEventListener('click', () => {
    const target = request.segments[state.focusMoved ? state.focusIndex : (state.selected ?? -1)];
    if (target !== undefined) setZoom(ctx, zoomGroupOf(target), { focus: true });
  });
}

/** Typing marks the matching blocks; Esc clears the box; Enter goes to the first match in view. */
export function bindSearch(ctx: TreemapContext): void {
  const { request, parts, state } = ctx;
  const { search } = parts;
  search.addEventListener('input', () => {
    state.matches = new Set(searchBlocks(request.segments, search.value));
    markMatches(ctx);
    ctx.options.onView({ zoom: state.zoom, search: search.value });
  });
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && search.value !== '') {
      // Clears the search (and stays in the box); an empty box leaves Esc to the page.
      event.preventDefault();
      search.value = '';
      search.dispatchEvent(new Event('input'));
    } else if (event.key === 'Enter') {
      // To the first match in view, where the arrows and Enter take over.
      event.preventDefault();
      const first = [...state.nodes.keys()].find((segment) => state.matches.has(segment));
      if (first !== undefined) moveFocus(ctx, first);
    }
  });
}

/** Hover or focus shows the tooltip; leaving the map hides it. */
export function bindTooltip(ctx: TreemapContext): void {
  const { host, request, parts, state } = ctx;
  const { canvas, tip } = parts;
  const hover = (event: Event): void => {
    const node = cellOf(event);
    if (node) showTip({ tip, host }, request, Number(node.dataset['segment']), node);
  };
  canvas.addEventListener('mouseover', hover);
  canvas.addEventListener('focusin', (event) => {
    hover(event);
    // Tabbing in lands on the roving rectangle: the zoom button then names its message.
    const node = cellOf(event);
    if (node && !state.focusMoved) {
      state.focusMoved = true;
      state.focusIndex = Number(node.dataset['segment']);
      renderCrumbs(ctx);
    }
  });
  canvas.addEventListener('mouseleave', () => (tip.hidden = true));
  canvas.addEventListener('focusout', () => (tip.hidden = true));
}
