// The treemap view: one focusable rectangle per segment, positioned through the CSSOM (allowed under a
// style-src 'self' policy, unlike style attributes). Hover shows category, tokens, bytes and path; click, Enter or
// Space selects; arrow keys move between neighbouring rectangles; Home/End jump to the first/last segment.
import { CATEGORY_COLOURS, CATEGORY_LABELS, LABEL_INK } from '../../render/palette.ts';
import { el } from '../dom.ts';
import { swatch } from '../swatch.ts';
import { formatBytes, formatCategoryTokens, unrecordedSetupText } from '../../render/format.ts';
import { visibleLabel } from '../../core/text/invisible.ts';
import type { RequestView } from '../../worker/view-model.ts';
import { layoutTreemap, neighbour, type Cell, type Direction } from '../../render/treemap-layout.ts';

const KEY_DIRECTIONS: Record<string, Direction> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

export interface TreemapHandle {
  /** Mark a segment selected (and focus it when asked). */
  select(segment: number, focus: boolean): void;
  /** Scroll a segment's rectangle into view and focus it. */
  reveal(segment: number): void;
  destroy(): void;
}

export function renderTreemap(
  host: HTMLElement,
  request: RequestView,
  onSelect: (segment: number) => void,
  initial: number | null,
): TreemapHandle {
  const canvas = el('div', {
    className: 'treemap',
    attrs: { role: 'group', 'aria-label': `Token treemap: ${request.segments.length} segments, one rectangle each` },
  });
  const tip = el('div', { className: 'treemap-tip', attrs: { role: 'tooltip', hidden: '' } });
  host.append(canvas, tip);

  let cells: Cell[] = [];
  let nodes: HTMLElement[] = [];
  let selected = initial;
  let focusIndex = initial ?? 0;

  const describe = (segment: number): string => {
    const s = request.segments[segment];
    if (!s) return '';
    if (s.category === 'setup_inferred') return `${CATEGORY_LABELS[s.category]}: ${unrecordedSetupText(s.tokens)}`;
    const tool = s.toolName ? ` · ${visibleLabel(s.toolName)}` : '';
    return `${CATEGORY_LABELS[s.category]}${tool} · ${formatCategoryTokens(s.tokens, s.category, request.exact)} tokens · ${formatBytes(s.bytes)} · ${visibleLabel(s.path)}`;
  };

  const showTip = (segment: number, node: HTMLElement): void => {
    const s = request.segments[segment];
    if (!s) return;
    const setup = s.category === 'setup_inferred';
    tip.replaceChildren(
      el('div', { className: 'tip-head' }, [
        swatch(s.category),
        el('strong', { text: CATEGORY_LABELS[s.category] }),
        s.toolName ? el('span', { className: 'muted', text: ` ${visibleLabel(s.toolName)}` }) : null,
      ]),
      setup
        ? el('div', { text: unrecordedSetupText(s.tokens) })
        : el('div', { text: `${formatCategoryTokens(s.tokens, s.category, request.exact)} tokens · ${formatBytes(s.bytes)}` }),
      // The inferred setup has no path: it is no block of the log.
      ...(setup ? [] : [el('div', { className: 'mono', text: visibleLabel(s.path) })]),
    );
    tip.hidden = false;
    // Placed in viewport terms first, so a cell at the right or bottom edge keeps its tooltip on screen: below
    // the cell, or above it when there is no room below; never past either side of the viewport.
    const box = node.getBoundingClientRect();
    const hostBox = host.getBoundingClientRect();
    const margin = 4;
    const width = tip.offsetWidth;
    const height = tip.offsetHeight;
    const left = Math.min(Math.max(margin, box.left), Math.max(margin, window.innerWidth - width - margin));
    const below = box.bottom + margin;
    const top = below + height <= window.innerHeight - margin ? below : Math.max(margin, box.top - height - margin);
    tip.style.left = `${left - hostBox.left}px`;
    tip.style.top = `${top - hostBox.top}px`;
  };

  const draw = (): void => {
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    cells = layoutTreemap(request.segments, width, height);
    nodes = cells.map((cell) => {
      const segment = request.segments[cell.segment];
      const node = el('div', {
        className: 'cell',
        attrs: {
          role: 'button',
          tabindex: cell.segment === focusIndex ? '0' : '-1',
          'data-segment': String(cell.segment),
          'data-category': cell.category,
          'aria-label': describe(cell.segment),
        },
      });
      node.style.left = `${cell.x0}px`;
      node.style.top = `${cell.y0}px`;
      node.style.width = `${Math.max(1, cell.x1 - cell.x0)}px`;
      node.style.height = `${Math.max(1, cell.y1 - cell.y0)}px`;
      node.style.backgroundColor = CATEGORY_COLOURS[cell.category];
      node.style.color = LABEL_INK[cell.category];
      if (cell.segment === selected) {
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
    });
    canvas.replaceChildren(...nodes);
  };

  const nodeOf = (segment: number): HTMLElement | undefined => nodes[segment];

  const moveFocus = (segment: number): void => {
    nodeOf(focusIndex)?.setAttribute('tabindex', '-1');
    focusIndex = segment;
    const node = nodeOf(segment);
    node?.setAttribute('tabindex', '0');
    node?.focus();
  };

  canvas.addEventListener('click', (event) => {
    const node = (event.target as HTMLElement).closest<HTMLElement>('.cell');
    if (!node) return;
    const segment = Number(node.dataset['segment']);
    moveFocus(segment);
    onSelect(segment);
  });
  canvas.addEventListener('keydown', (event) => {
    const node = (event.target as HTMLElement).closest<HTMLElement>('.cell');
    if (!node) return;
    const segment = Number(node.dataset['segment']);
    const direction = KEY_DIRECTIONS[event.key];
    if (direction) {
      event.preventDefault();
      moveFocus(neighbour(cells, segment, direction));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      moveFocus(event.key === 'Home' ? 0 : cells.length - 1);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(segment);
    }
  });
  const hover = (event: Event): void => {
    const node = (event.target as HTMLElement).closest<HTMLElement>('.cell');
    if (node) showTip(Number(node.dataset['segment']), node);
  };
  canvas.addEventListener('mouseover', hover);
  canvas.addEventListener('focusin', hover);
  canvas.addEventListener('mouseleave', () => (tip.hidden = true));
  canvas.addEventListener('focusout', () => (tip.hidden = true));

  let lastSize = '';
  const observer = new ResizeObserver(() => {
    const size = `${canvas.clientWidth}x${canvas.clientHeight}`;
    if (size === lastSize) return;
    lastSize = size;
    draw();
  });
  observer.observe(canvas);
  draw();
  lastSize = `${canvas.clientWidth}x${canvas.clientHeight}`;

  return {
    select(segment, focus) {
      if (selected !== null) {
        nodeOf(selected)?.classList.remove('selected');
        nodeOf(selected)?.removeAttribute('aria-current');
      }
      selected = segment;
      nodeOf(segment)?.classList.add('selected');
      nodeOf(segment)?.setAttribute('aria-current', 'true');
      if (focus) moveFocus(segment);
    },
    reveal(segment) {
      moveFocus(segment);
      nodeOf(segment)?.scrollIntoView({ block: 'center', inline: 'nearest' });
    },
    destroy() {
      observer.disconnect();
    },
  };
}
