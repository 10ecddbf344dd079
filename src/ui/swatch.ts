// A small colour chip for a category, coloured through the CSSOM so the palette lives in one place (palette.ts).
import type { Category } from '../core/model.ts';
import { el } from './dom.ts';
import { CATEGORY_COLOURS, CATEGORY_LABELS } from '../render/palette.ts';

export function swatch(category: Category): HTMLElement {
  const chip = el('span', { className: 'swatch', attrs: { 'aria-hidden': 'true', 'data-category': category } });
  chip.style.backgroundColor = CATEGORY_COLOURS[category];
  return chip;
}

/** Swatch plus the category's name: colour never carries meaning alone. */
export function categoryTag(category: Category): HTMLElement {
  return el('span', { className: 'category-tag' }, [swatch(category), CATEGORY_LABELS[category]]);
}
