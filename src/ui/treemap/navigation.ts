// Moving about the treemap: the breadcrumb and zoom button, zooming in and out, the roving focus and the selection.
import { CATEGORY_LABELS } from '../../render/palette.ts';
import { el } from '../dom.ts';
import { formatCount } from '../../render/format.ts';
import { visibleLabel } from '../../core/text/invisible.ts';
import { zoomGroupLabel, zoomGroupOf, zoomMembers } from '../../render/treemap-zoom.ts';
import { drawTreemap } from './draw.ts';
import type { TreemapContext } from './state.ts';

/** The breadcrumb (whole request › zoom group › selected block) and the zoom button's target. */
export function renderCrumbs(ctx: TreemapContext): void {
  const { request, parts, state } = ctx;
  const { zoom, members, selected } = state;
  const whole = el('button', {
    className: 'link',
    text: `Request #${formatCount(request.index + 1)}`,
    attrs: { type: 'button', title: 'The whole request (Esc or Backspace on the map)', ...(zoom === null && { 'aria-current': 'location' }) },
    on: { click: () => setZoom(ctx, null, { focus: true }) },
  });
  const items: HTMLElement[] = [el('li', {}, [whole])];
  if (zoom !== null) items.push(el('li', {}, [el('span', { text: zoomGroupLabel(request.segments, zoom), attrs: { 'aria-current': 'location' } })]));
  const picked = selected === null ? undefined : request.segments[selected];
  if (picked !== undefined && (members === undefined || members.includes(selected ?? -1))) {
    items.push(el('li', {}, [el('span', { className: 'mono', text: picked.category === 'setup_inferred' ? CATEGORY_LABELS[picked.category] : visibleLabel(picked.path) })]));
  }
  parts.crumbs.replaceChildren(...items);
  renderZoomButton(ctx);
}

/**
 * Zooming in goes to the message of the block last focused (else the selected one); inside a zoom there is no
 * deeper map.
 */
function renderZoomButton({ request, parts, state }: TreemapContext): void {
  const { zoomIn } = parts;
  const at = state.focusMoved ? state.focusIndex : state.selected;
  const target = at === null ? undefined : request.segments[at];
  zoomIn.hidden = state.zoom !== null || target === undefined;
  if (target !== undefined) {
    const label = zoomGroupLabel(request.segments, zoomGroupOf(target));
    zoomIn.textContent = `Zoom into ${label}`;
    zoomIn.title = `Show only the blocks of ${label} (+ or double-click on a rectangle)`;
  }
}

/** Draw one group's blocks (null: the whole request) and move the focus into the map when asked. */
export function setZoom(ctx: TreemapContext, group: string | null, { focus }: { focus: boolean }): void {
  const { request, parts, state, options } = ctx;
  const next = group !== null && zoomMembers(request.segments, group).length > 0 ? group : null;
  if (next !== state.zoom) {
    state.zoom = next;
    const members = next === null ? undefined : zoomMembers(request.segments, next);
    state.members = members;
    parts.tip.hidden = true;
    // Into a group: the focused block, else its selected block, else its first; back out: the focus stays.
    if (members !== undefined && !members.includes(state.focusIndex)) {
      state.focusIndex = state.selected !== null && members.includes(state.selected) ? state.selected : (members[0] ?? 0);
    }
    drawTreemap(ctx);
    renderCrumbs(ctx);
    options.onView({ zoom: state.zoom, search: parts.search.value });
  }
  if (focus) moveFocus(ctx, state.focusIndex);
}

/** Zoom into the message of a segment (none inside a zoom), focusing it. */
export function zoomInto(ctx: TreemapContext, segment: number): void {
  const target = ctx.request.segments[segment];
  if (target !== undefined && ctx.state.zoom === null) setZoom(ctx, zoomGroupOf(target), { focus: true });
}

/** Move the roving focus (tabindex 0) to a segment's rectangle and focus it. */
export function moveFocus(ctx: TreemapContext, segment: number): void {
  const { state } = ctx;
  state.nodes.get(state.focusIndex)?.setAttribute('tabindex', '-1');
  state.focusIndex = segment;
  const node = state.nodes.get(segment);
  node?.setAttribute('tabindex', '0');
  node?.focus();
  state.focusMoved = true;
  renderCrumbs(ctx);
}

/** A block picked elsewhere (the segment table) outside the zoom: back to the whole request, where it shows. */
function zoomOutTo(ctx: TreemapContext, segment: number): void {
  const { members } = ctx.state;
  if (members !== undefined && !members.includes(segment)) {
    ctx.state.focusIndex = segment;
    setZoom(ctx, null, { focus: false });
  }
}

/** Mark a segment selected (and focus it when asked). */
export function selectSegment(ctx: TreemapContext, segment: number, { focus }: { focus: boolean }): void {
  const { state } = ctx;
  zoomOutTo(ctx, segment);
  if (state.selected !== null) {
    state.nodes.get(state.selected)?.classList.remove('selected');
    state.nodes.get(state.selected)?.removeAttribute('aria-current');
  }
  state.selected = segment;
  state.nodes.get(segment)?.classList.add('selected');
  state.nodes.get(segment)?.setAttribute('aria-current', 'true');
  if (focus) moveFocus(ctx, segment);
  else renderCrumbs(ctx);
}

/** Scroll a segment's rectangle into view and focus it (zooming out first when the zoom hides it). */
export function revealSegment(ctx: TreemapContext, segment: number): void {
  zoomOutTo(ctx, segment);
  moveFocus(ctx, segment);
  ctx.state.nodes.get(segment)?.scrollIntoView({ block: 'center', inline: 'nearest' });
}
