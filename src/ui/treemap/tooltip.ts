// What a treemap rectangle says: its accessible name, and the tooltip shown on hover or focus, placed to stay on
// screen.
import { CATEGORY_LABELS } from '../../render/palette.ts';
import { el } from '../dom.ts';
import { swatch } from '../swatch.ts';
import { formatBytes, formatCategoryTokens, unrecordedSetupText } from '../../render/format.ts';
import { visibleLabel } from '../../core/text/invisible.ts';
import type { RequestView } from '../../worker/view-model.ts';

/** A rectangle's accessible name: its visible label and value first (label in name, WCAG 2.5.3), then what it stands for. */
export function describeSegment(request: RequestView, segment: number): string {
  const s = request.segments[segment];
  if (!s) return '';
  if (s.category === 'setup_inferred') return `${CATEGORY_LABELS[s.category]} ${formatCategoryTokens(s.tokens, s.category, request.exact)}: ${unrecordedSetupText(s.tokens, request.unrecorded)}`;
  const tool = s.toolName ? ` · ${visibleLabel(s.toolName)}` : '';
  return `${CATEGORY_LABELS[s.category]}${tool} · ${formatCategoryTokens(s.tokens, s.category, request.exact)} tokens · ${formatBytes(s.bytes)} · ${visibleLabel(s.path)}`;
}

export interface TipPlace {
  /** The tooltip element. */
  tip: HTMLElement;
  /** The element the tooltip is positioned in. */
  host: HTMLElement;
}

/** Fill the tooltip with a segment's category, tokens, bytes and path, and place it by its rectangle. */
export function showTip(place: TipPlace, request: RequestView, segment: number, node: HTMLElement): void {
  const s = request.segments[segment];
  if (!s) return;
  const { tip } = place;
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
  placeTip(place, node);
}

/**
 * Placed in viewport terms first, so a cell at the right or bottom edge keeps its tooltip on screen: below the cell,
 * or above it when there is no room below; never past either side of the viewport.
 */
function placeTip({ tip, host }: TipPlace, node: HTMLElement): void {
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
}
