// The treemap view: one focusable rectangle per segment, positioned through the CSSOM (allowed under a
// style-src 'self' policy, unlike style attributes). Hover shows category, tokens, bytes and path; click, Enter or
// Space selects; arrow keys move between neighbouring rectangles; Home/End jump to the first/last segment.
// Zoom: double-click, `+` or Shift+Enter on a rectangle draws only its message's blocks; Esc, Backspace, `-` or the
// breadcrumb go back to the whole request. Search marks the blocks whose name or kind matches and dims the rest.
import { CATEGORY_COLOURS, CATEGORY_LABELS, LABEL_INK } from '../../render/palette.ts';
import { el } from '../dom.ts';
import { swatch } from '../swatch.ts';
import { formatBytes, formatCategoryTokens, formatCount, unrecordedSetupText } from '../../render/format.ts';
import { visibleLabel } from '../../core/text/invisible.ts';
import type { RequestView } from '../../worker/view-model.ts';
import { layoutTreemap, neighbour, type Cell, type Direction } from '../../render/treemap-layout.ts';
import { searchBlocks, zoomGroupLabel, zoomGroupOf, zoomMembers } from '../../render/treemap-zoom.ts';

const KEY_DIRECTIONS: Record<string, Direction> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

export interface TreemapHandle {
  /** Mark a segment selected (and focus it when asked). */
  select(segment: number, focus: boolean): void;
  /** Scroll a segment's rectangle into view and focus it (zooming out first when the zoom hides it). */
  reveal(segment: number): void;
  destroy(): void;
}

export interface TreemapOptions {
  /** The segment selected when the map opens, or null. */
  initial: number | null;
  /** The zoom group to open on (`zoomGroupOf`), or null for the whole request; ignored when the request lacks it. */
  zoom: string | null;
  /** Search text to open with ('' for none). */
  search: string;
  onSelect(segment: number): void;
  /** The zoom or the search changed (view state: the page keeps it for the next request and the link). */
  onView(view: { zoom: string | null; search: string }): void;
}

export function renderTreemap(host: HTMLElement, request: RequestView, options: TreemapOptions): TreemapHandle {
  const { initial, onSelect } = options;
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

  let cells: Cell[] = [];
  /** Rectangle of each segment drawn at the current zoom. */
  let nodes = new Map<number, HTMLElement>();
  let selected = initial;
  let zoom = options.zoom !== null && zoomMembers(request.segments, options.zoom).length > 0 ? options.zoom : null;
  let members = zoom === null ? undefined : zoomMembers(request.segments, zoom);
  let focusIndex = initial !== null && (members === undefined || members.includes(initial)) ? initial : (members?.[0] ?? 0);
  /** Whether the focus went to a rectangle since the map opened (so the zoom button names its message). */
  let focusMoved = false;
  search.value = options.search;
  let matches = new Set(searchBlocks(request.segments, search.value));

  const describe = (segment: number): string => {
    const s = request.segments[segment];
    if (!s) return '';
    // Its visible label and value first (label in name, WCAG 2.5.3), then what it stands for.
    if (s.category === 'setup_inferred') return `${CATEGORY_LABELS[s.category]} ${formatCategoryTokens(s.tokens, s.category, request.exact)}: ${unrecordedSetupText(s.tokens, request.unrecorded)}`;
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
        ? el('div', { text: unrecordedSetupText(s.tokens, request.unrecorded) })
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
    // A rectangle much larger than the tip (a zoomed block fills the map) keeps it inside its own top-left corner,
    // off the breadcrumb and the search above the map.
    const inside = box.height >= 3 * tip.offsetHeight && box.width >= width + 2 * margin;
    const left = inside ? Math.max(margin, box.left + margin) : Math.min(Math.max(margin, box.left), Math.max(margin, window.innerWidth - width - margin));
    // Its height is taken where it will stand: near the map's right edge it wraps narrower, and so grows taller.
    tip.style.left = `${left - hostBox.left}px`;
    const height = tip.offsetHeight;
    const below = box.bottom + margin;
    const top = inside
      ? Math.min(Math.max(margin, box.top + margin), Math.max(margin, window.innerHeight - height - margin))
      : below + height <= window.innerHeight - margin ? below : Math.max(margin, box.top - height - margin);
    tip.style.top = `${top - hostBox.top}px`;
  };

  const draw = (): void => {
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    cells = layoutTreemap(request.segments, width, height, members);
    nodes = new Map();
    for (const cell of cells) {
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
      nodes.set(cell.segment, node);
    }
    canvas.replaceChildren(...nodes.values());
    markMatches();
  };

  const nodeOf = (segment: number): HTMLElement | undefined => nodes.get(segment);

  /** Search marks: matching cells stand out, the others dim; the count says how many, in view and in all. */
  const markMatches = (): void => {
    const searching = search.value.trim() !== '';
    canvas.classList.toggle('searching', searching);
    let inView = 0;
    for (const [segment, node] of nodes) {
      const match = matches.has(segment);
      if (match) inView++;
      node.classList.toggle('match', searching && match);
      node.setAttribute('aria-label', `${searching && match ? 'Match: ' : ''}${describe(segment)}`);
    }
    const outside = matches.size - inView;
    matchCount.textContent = !searching
      ? ''
      : `${formatCount(inView)} of ${formatCount(nodes.size)} block${nodes.size === 1 ? '' : 's'} match${outside > 0 ? ` · ${formatCount(outside)} outside the zoom` : ''}`;
  };

  const renderCrumbs = (): void => {
    const whole = el('button', {
      className: 'link',
      text: `Request #${formatCount(request.index + 1)}`,
      attrs: { type: 'button', title: 'The whole request (Esc or Backspace on the map)', ...(zoom === null && { 'aria-current': 'location' }) },
      on: { click: () => setZoom(null, true) },
    });
    const items: HTMLElement[] = [el('li', {}, [whole])];
    if (zoom !== null) items.push(el('li', {}, [el('span', { text: zoomGroupLabel(request.segments, zoom), attrs: { 'aria-current': 'location' } })]));
    const picked = selected === null ? undefined : request.segments[selected];
    if (picked !== undefined && (members === undefined || members.includes(selected ?? -1))) {
      items.push(el('li', {}, [el('span', { className: 'mono', text: picked.category === 'setup_inferred' ? CATEGORY_LABELS[picked.category] : visibleLabel(picked.path) })]));
    }
    crumbs.replaceChildren(...items);
    // Zooming in goes to the message of the block last focused (else the selected one); inside a zoom there is no
    // deeper map.
    const at = focusMoved ? focusIndex : selected;
    const target = at === null ? undefined : request.segments[at];
    zoomIn.hidden = zoom !== null || target === undefined;
    if (target !== undefined) {
      const label = zoomGroupLabel(request.segments, zoomGroupOf(target));
      zoomIn.textContent = `Zoom into ${label}`;
      zoomIn.title = `Show only the blocks of ${label} (+ or double-click on a rectangle)`;
    }
  };

  /** Draw one group's blocks (null: the whole request) and move the focus into the map when asked. */
  const setZoom = (group: string | null, focus: boolean): void => {
    const next = group !== null && zoomMembers(request.segments, group).length > 0 ? group : null;
    if (next !== zoom) {
      zoom = next;
      members = zoom === null ? undefined : zoomMembers(request.segments, zoom);
      tip.hidden = true;
      // Into a group: the focused block, else its selected block, else its first; back out: the focus stays.
      if (members !== undefined && !members.includes(focusIndex)) focusIndex = selected !== null && members.includes(selected) ? selected : (members[0] ?? 0);
      draw();
      renderCrumbs();
      options.onView({ zoom, search: search.value });
    }
    if (focus) moveFocus(focusIndex);
  };

  const moveFocus = (segment: number): void => {
    nodeOf(focusIndex)?.setAttribute('tabindex', '-1');
    focusIndex = segment;
    const node = nodeOf(segment);
    node?.setAttribute('tabindex', '0');
    node?.focus();
    focusMoved = true;
    renderCrumbs();
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
    } else if (event.key === '+' || (event.key === 'Enter' && event.shiftKey)) {
      event.preventDefault();
      focusIndex = segment;
      const target = request.segments[segment];
      if (target !== undefined && zoom === null) setZoom(zoomGroupOf(target), true);
    } else if ((event.key === 'Escape' || event.key === 'Backspace' || event.key === '-') && zoom !== null) {
      event.preventDefault();
      setZoom(null, true);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(segment);
    }
  });
  canvas.addEventListener('dblclick', (event) => {
    const node = (event.target as HTMLElement).closest<HTMLElement>('.cell');
    const target = node ? request.segments[Number(node.dataset['segment'])] : undefined;
    if (target === undefined || zoom !== null) return;
    focusIndex = Number(node?.dataset['segment']);
    setZoom(zoomGroupOf(target), true);
  });
  zoomIn.addEventListener('click', () => {
    const target = request.segments[focusMoved ? focusIndex : (selected ?? -1)];
    if (target !== undefined) setZoom(zoomGroupOf(target), true);
  });
  search.addEventListener('input', () => {
    matches = new Set(searchBlocks(request.segments, search.value));
    markMatches();
    options.onView({ zoom, search: search.value });
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
      const first = [...nodes.keys()].find((segment) => matches.has(segment));
      if (first !== undefined) moveFocus(first);
    }
  });
  const hover = (event: Event): void => {
    const node = (event.target as HTMLElement).closest<HTMLElement>('.cell');
    if (node) showTip(Number(node.dataset['segment']), node);
  };
  canvas.addEventListener('mouseover', hover);
  canvas.addEventListener('focusin', (event) => {
    hover(event);
    // Tabbing in lands on the roving rectangle: the zoom button then names its message.
    const node = (event.target as HTMLElement).closest<HTMLElement>('.cell');
    if (node && !focusMoved) {
      focusMoved = true;
      focusIndex = Number(node.dataset['segment']);
      renderCrumbs();
    }
  });
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
  renderCrumbs();
  // A zoom this request does not have (kept from another request, or a link's): the view state says so too.
  if (options.zoom !== null && zoom === null) options.onView({ zoom, search: search.value });
  lastSize = `${canvas.clientWidth}x${canvas.clientHeight}`;

  return {
    select(segment, focus) {
      // A block picked elsewhere (the segment table) outside the zoom: back to the whole request, where it shows.
      if (members !== undefined && !members.includes(segment)) {
        focusIndex = segment;
        setZoom(null, false);
      }
      if (selected !== null) {
        nodeOf(selected)?.classList.remove('selected');
        nodeOf(selected)?.removeAttribute('aria-current');
      }
      selected = segment;
      nodeOf(segment)?.classList.add('selected');
      nodeOf(segment)?.setAttribute('aria-current', 'true');
      if (focus) moveFocus(segment);
      else renderCrumbs();
    },
    reveal(segment) {
      if (members !== undefined && !members.includes(segment)) {
        focusIndex = segment;
        setZoom(null, false);
      }
      moveFocus(segment);
      nodeOf(segment)?.scrollIntoView({ block: 'center', inline: 'nearest' });
    },
    destroy() {
      observer.disconnect();
    },
  };
}
