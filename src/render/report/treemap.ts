// The report's treemap of its largest request: squarified cells (../treemap-layout.ts) drawn twice, a wide layout
// and a narrow one for phones (the stylesheet shows one), since an SVG scaled down to a third of its size would
// leave its labels unreadable. Every cell is an image with an accessible name (and a tooltip); the cells wide and
// tall enough carry a visible label; a disclosure under it gives the same numbers as tables.
import { unrecordedParts } from '../../core/cache/unrecorded-setup.ts';
import type { Analysis } from '../../core/analysis/types.ts';
import { CATEGORIES, type Category } from '../../core/model.ts';
import { CATEGORY_LABELS } from '../palette.ts';
import { layoutTreemap, type Cell } from '../treemap-layout.ts';
import { formatCategoryTokens, formatCount, formatPercent, formatTokens, unrecordedSetupText } from '../format.ts';
import { escapeHtml } from './escape.ts';

interface Layout {
  className: string;
  width: number;
  height: number;
  /** Font size in viewBox units, and the average width of one character at it. */
  font: number;
  charWidth: number;
}

const LAYOUTS: readonly Layout[] = [
  { className: 'tm tm-wide', width: 960, height: 420, font: 14, charWidth: 7.6 },
  { className: 'tm tm-narrow', width: 360, height: 440, font: 12, charWidth: 6.6 },
];
/** Rows of the largest-blocks table; the rest are counted in one line. */
export const TABLE_BLOCKS = 100;
const PAD = 4;

interface Block {
  category: Category;
  tokens: number;
  /** The cell's accessible name and tooltip: path, category, tokens. */
  name: string;
  /** The tokens as shown ("≈2,578"). */
  tokenText: string;
}

function blocksOf(analysis: Analysis, index: number): Block[] {
  const request = analysis.requests[index]!;
  const counts = analysis.tokens[index]!;
  const blocks = request.segments.map((segment, i): Block => {
    const tokens = formatTokens(counts.segments[i] ?? 0, counts.exact);
    return { category: segment.category, tokens: counts.segments[i] ?? 0, name: `${segment.path} · ${CATEGORY_LABELS[segment.category]} · ${tokens} tokens`, tokenText: tokens };
  });
  // The setup the transcript did not record is one more rectangle, sized from recorded usage (≈, inferred).
  const setup = counts.byCategory.setup_inferred ?? 0;
  if (setup > 0) {
    const tokens = formatTokens(setup, false);
    blocks.push({ category: 'setup_inferred', tokens: setup, name: unrecordedSetupText(setup, unrecordedParts(request)), tokenText: tokens });
  }
  return blocks;
}

/** Characters of a line of text that fit `width`, cut with an ellipsis; null when fewer than 4 would. */
function fitted(text: string, width: number, layout: Pick<Layout, 'charWidth'>): string | null {
  const chars = Math.floor((width - 2 * PAD) / layout.charWidth);
  if (chars < 4) return null;
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/**
 * The visible lines of a cell: category and tokens on one line where they fit; else the category (cut) over the
 * tokens where two lines fit; else the tokens alone (the colour and the legend give the category); else nothing.
 */
export function cellLines(block: Pick<Block, 'category' | 'tokenText'>, size: { width: number; height: number }, layout: Pick<Layout, 'font' | 'charWidth'>): string[] {
  const line = layout.font + PAD;
  if (size.height < line + PAD) return [];
  const whole = `${CATEGORY_LABELS[block.category]} ${block.tokenText}`;
  if (fitted(whole, size.width, layout) === whole) return [whole];
  const tokens = fitted(block.tokenText, size.width, layout) === block.tokenText ? block.tokenText : null;
  if (size.height >= 2 * line + PAD) {
    const category = fitted(CATEGORY_LABELS[block.category], size.width, layout);
    return [category, tokens].filter((text): text is string => text !== null);
  }
  return tokens === null ? [] : [tokens];
}

function cellMarkup(cell: Cell, block: Block, layout: Layout): string {
  const width = Math.max(0, cell.x1 - cell.x0);
  const height = Math.max(0, cell.y1 - cell.y0);
  const name = escapeHtml(block.name);
  const text = cellLines(block, { width, height }, layout)
    .map((line, i) => `<text class="t-${cell.category}" x="${(cell.x0 + PAD).toFixed(1)}" y="${(cell.y0 + PAD + layout.font * 0.85 + i * (layout.font + PAD)).toFixed(1)}" aria-hidden="true">${escapeHtml(line)}</text>`)
    .join('');
  return `<g role="img" aria-label="${name}"><title>${name}</title><rect class="f-${cell.category}" x="${cell.x0.toFixed(1)}" y="${cell.y0.toFixed(1)}" width="${width.toFixed(1)}" height="${height.toFixed(1)}"/>${text}</g>`;
}

function svgOf(blocks: readonly Block[], layout: Layout, title: string): string {
  const cells = layoutTreemap(blocks, layout.width, layout.height);
  const body = cells.map((cell) => cellMarkup(cell, blocks[cell.segment]!, layout)).join('');
  return `<svg class="${layout.className}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${layout.width} ${layout.height}" role="group" aria-label="${escapeHtml(title)}">${body}</svg>`;
}

/** The treemap's numbers: tokens by category, and the largest blocks. */
function tablesOf(blocks: readonly Block[], analysis: Analysis, index: number): string {
  const counts = analysis.tokens[index]!;
  const total = blocks.reduce((sum, block) => sum + block.tokens, 0);
  const share = (tokens: number) => formatPercent(tokens, total);
  const categories = CATEGORIES.filter((c) => blocks.some((block) => block.category === c)).map((c) => {
    const own = blocks.filter((block) => block.category === c);
    const tokens = own.reduce((sum, block) => sum + block.tokens, 0);
    return `<tr><td class="l">${escapeHtml(CATEGORY_LABELS[c])}</td><td>${formatCount(own.length)}</td><td>${formatCategoryTokens(tokens, c, counts.exact)}</td><td>${share(tokens)}</td></tr>`;
  });
  const largest = [...blocks].sort((a, b) => b.tokens - a.tokens).slice(0, TABLE_BLOCKS);
  const rows = largest.map((block) => `<tr><td class="l">${escapeHtml(block.name)}</td><td>${share(block.tokens)}</td></tr>`);
  const more = blocks.length > largest.length ? `<p class="muted">${formatCount(blocks.length - largest.length)} smaller block(s) not listed.</p>` : '';
  return `<details><summary>The treemap's numbers as tables</summary>
<table><caption class="l">Tokens by category</caption><thead><tr><th class="l">Category</th><th>Blocks</th><th>Tokens</th><th>Share</th></tr></thead><tbody>
${categories.join('\n')}
</tbody></table>
<table><caption class="l">The ${formatCount(largest.length)} largest blocks</caption><thead><tr><th class="l">Block · category · tokens</th><th>Share</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>${more}</details>`;
}

/** The request with the most tokens, drawn as a squarified treemap of its blocks. */
export function treemapSection(analysis: Analysis): string {
  if (analysis.requests.length === 0) return '';
  let largest = 0;
  analysis.tokens.forEach((t, i) => {
    if (t.total > (analysis.tokens[largest]?.total ?? 0)) largest = i;
  });
  const counts = analysis.tokens[largest]!;
  const blocks = blocksOf(analysis, largest);
  const present = new Set<Category>(blocks.map((block) => block.category));
  const legend = CATEGORIES.filter((c) => present.has(c))
    .map((c) => `<span class="sw c-${c}">${escapeHtml(CATEGORY_LABELS[c])} ${formatCategoryTokens(counts.byCategory[c] ?? 0, c, counts.exact)}</span>`)
    .join('');
  const title = `Treemap of request ${largest + 1}'s blocks by tokens`;
  const setup = blocks.find((block) => block.category === 'setup_inferred');
  return `<section><h2>Tokens of request ${largest + 1} (the largest, ${formatTokens(counts.total, counts.exact)} tokens)</h2>
<p>${legend}</p>
${LAYOUTS.map((layout) => svgOf(blocks, layout, title)).join('\n')}
<p class="muted">Each rectangle is one block, sized by tokens and coloured by category; hover for its path.${
    setup !== undefined ? ` The transcript does not record all the agent sent: ${escapeHtml(setup.name)}.` : ''
  }</p>
${tablesOf(blocks, analysis, largest)}</section>`;
}
