// Totals by category for one request: a stacked bar plus a compact table, in palette order.
import { CATEGORIES, type Category } from '../core/model.ts';
import { el } from './dom.ts';
import { formatCategoryTokens, formatPercent, formatTokens } from '../render/format.ts';
import { CATEGORY_COLOURS } from '../render/palette.ts';
import { categoryTag } from './swatch.ts';

export interface CategoryTotals {
  byCategory: Partial<Record<Category, number>>;
  total: number;
  overhead: number;
  exact: boolean;
}

export function renderCategoryTotals(host: HTMLElement, totals: CategoryTotals): void {
  const { byCategory, total, overhead, exact } = totals;
  const present = CATEGORIES.filter((c) => (byCategory[c] ?? 0) > 0 || byCategory[c] === 0);
  const bar = el('div', { className: 'stack', attrs: { 'aria-hidden': 'true' } });
  for (const category of present) {
    const part = el('span');
    part.style.flexGrow = String(byCategory[category] ?? 0);
    part.style.backgroundColor = CATEGORY_COLOURS[category];
    bar.append(part);
  }
  const rows = present.map((category) =>
    el('tr', { attrs: { 'data-category': category } }, [
      el('td', {}, [categoryTag(category)]),
      el('td', { className: 'num', text: formatCategoryTokens(byCategory[category] ?? 0, category, exact) }),
      el('td', { className: 'num muted', text: formatPercent(byCategory[category] ?? 0, total) }),
    ]),
  );
  if (overhead > 0) {
    rows.push(
      el('tr', { className: 'overhead' }, [
        el('td', { text: 'Framing & hidden prompt', attrs: { title: 'Tokens the API adds around messages and tools; not part of any one segment' } }),
        el('td', { className: 'num', text: formatTokens(overhead, exact) }),
        el('td', { className: 'num muted', text: formatPercent(overhead, total) }),
      ]),
    );
  }
  host.replaceChildren(
    bar,
    el('table', { className: 'data totals', attrs: { 'aria-label': 'Tokens by category' } }, [
      el('tbody', {}, rows),
      el('tfoot', {}, [
        el('tr', {}, [
          el('th', { text: 'Total', attrs: { scope: 'row' } }),
          el('td', { className: 'num', text: formatTokens(total, exact), attrs: { 'data-total': String(total) } }),
          el('td', { className: 'num muted', text: '100%' }),
        ]),
      ]),
    ]),
  );
}
