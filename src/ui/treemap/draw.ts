// Drawing the treemap: one rectangle per segment of the current zoom, and the search marks over them.
import { CATEGORY_COLOURS, CATEGORY_LABELS, LABEL_INK } from '../../render/palette.ts';
import { el } from '../dom.ts';
import { formatCategoryTokens, formatCount } from '../../render/format.ts';
import { visibleLabel } from '../../core/text/invisible.ts';
import { layoutTreemap, type Cell } from '../../render/treemap-layout.ts';
import { describeSegment } from './tooltip.ts';
import type { TreemapContext } from './state.ts';

/** Lay the map out at its current size and zoom and draw its rectangles. */
export function drawTreemap(ctx: TreemapContext): void {
  const { request, parts, state } = ctx;
  const { canvas } = parts;
  state.cells = layoutTreemap(request.segments, canvas.clientWidth, canvas.clientHeight, state.members);
  state.nodes = new Map();
  for (const cell of state.cells) state.nodes.set(cell.segment, cellNode(ctx, cell));
  canvas.replaceChildren(...state.nodes.values());
  markMatches(ctx);
}

function cellNode({ request, state }: TreemapContext, cell: Cell): HTMLElement {
  const segment = request.segments[cell.segment];
  const node = el('div', {
    className: 'cell',
    attrs: {
      role: 'button',
      tabindex: cell.segment === state.focusIndex ? '0' : '-1',
      'data-segment': String(cell.segment),
      'data-category': cell.category,
      'aria-label': describeSegment(request, cell.segment),
    },
  });
  node.style.left = `${cell.x0}px`;
  node.style.top = `${cell.y0}px`;
  node.style.width = `${Math.max(1, cell.x1 - cell.x0)}px`;
  node.style.height = `${Math.max(1, cell.y1 - cell.y0)}px`;
  node.style.backgroundColor = CATEGORY_COLOURS[cell.category];
  node.style.color = LABEL_INK[cell.category];
  if (cell.segment === state.selected) {
    node.classList.add('selected');
    node.setAttribute('aria-current', 'true');
  }
  // Labels only where they fit; the tooltip and the table carry the rest.
  if (segment && cell.x1 - cell.x0 > 64 && cell.y1 - cell.y0 > 30) {
    node.append(
      el('span', { className: 'cell-label', text: segment.toolName !== null ? visibleLabel(segment.toolName) : CATEGORY_LABELS[cell.category] }),
      el('span', { className: 'cell-value', text: formatCategoryTokens(segment.tokens, segment.category, request.exact) }),
    );
  }
  return node;
}

/** Search marks: matching cells stand out, the others dim; the count says how many, in view and in all. */
export function markMatches({ request, parts, state }: TreemapContext): void {
  const { canvas, search, matchCount } = parts;
  const { nodes, matches } = state;
  const searching = search.value.trim() !== '';
  canvas.classList.toggle('searching', searching);
  let inView = 0;
  for (const [segment, node] of nodes) {
    const match = matches.has(segment);
    if (match) inView++;
    node.classList.toggle('match', searching && match);
    node.setAttribute('aria-label', `${searching && match ? 'Match: ' : ''}${describeSegment(request, segment)}`);
  }
  const outside = matches.size - inView;
  matchCount.textContent = !searching
    ? ''
    : `${formatCount(inView)} of ${formatCount(nodes.size)} block${nodes.size === 1 ? '' : 's'} match${outside > 0 ? ` · ${formatCount(outside)} outside the zoom` : ''}`;
}
