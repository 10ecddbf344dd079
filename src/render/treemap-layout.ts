// Treemap layout: d3-hierarchy's squarified treemap, one leaf per segment, grouped by category.
// Zero-token segments (media with no estimate, empty text) must still be visible and clickable, so every leaf
// weighs at least `floor = total / (segments × 50)`. That lifts tiny cells to a visible size while the added
// weight stays below 2% of the map, so areas remain honest to within 2%.
import { hierarchy, treemap, treemapSquarify } from 'd3-hierarchy';
import { CATEGORIES, type Category } from '../core/model.ts';

export interface CellInput {
  category: Category;
  tokens: number;
}

export interface Cell {
  /** Index of the segment in the request. */
  segment: number;
  category: Category;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Node {
  category?: Category;
  segment?: number;
  weight?: number;
  children?: Node[];
}

const FLOOR_SHARE = 1 / 50;

/** The weight each segment is drawn with: its tokens, lifted to the floor described above. */
export function cellWeights(segments: readonly CellInput[]): number[] {
  const total = segments.reduce((sum, s) => sum + Math.max(0, s.tokens), 0);
  const floor = segments.length === 0 ? 0 : Math.max(total, 1) * (FLOOR_SHARE / segments.length);
  return segments.map((s) => Math.max(s.tokens, floor));
}

/**
 * One cell per segment, or, given `only` (a zoomed view: the segment indices of one message), one per segment
 * listed there, filling the whole map; cells keep the segment's index in the request either way.
 */
export function layoutTreemap(segments: readonly CellInput[], width: number, height: number, only?: readonly number[]): Cell[] {
  const drawn = only ?? segments.map((_, index) => index);
  if (drawn.length === 0 || width <= 0 || height <= 0) return [];
  const weights = cellWeights(drawn.map((index) => segments[index] ?? { category: 'other', tokens: 0 }));
  const groups = new Map<Category, Node[]>();
  drawn.forEach((index, k) => {
    const segment = segments[index];
    if (segment === undefined) return;
    const leaves = groups.get(segment.category) ?? [];
    leaves.push({ segment: index, category: segment.category, weight: weights[k] ?? 0 });
    groups.set(segment.category, leaves);
  });
  // Categories in palette order, so the same category sits in the same region from request to request.
  const root: Node = {
    children: CATEGORIES.filter((c) => groups.has(c)).map((category) => ({ category, children: groups.get(category) })),
  };
  const tree = hierarchy(root)
    .sum((node) => node.weight ?? 0)
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || (a.data.segment ?? 0) - (b.data.segment ?? 0));
  const laidOut = treemap<Node>().tile(treemapSquarify).size([width, height]).paddingOuter(1).paddingInner(1).round(false)(tree);
  const cells: Cell[] = [];
  for (const leaf of laidOut.leaves()) {
    const { segment, category } = leaf.data;
    if (segment === undefined || category === undefined) continue;
    cells.push({ segment, category, x0: leaf.x0, y0: leaf.y0, x1: leaf.x1, y1: leaf.y1 });
  }
  return cells.sort((a, b) => a.segment - b.segment);
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/**
 * The cell an arrow key moves to: among cells whose centre lies in that direction, the one closest to the current
 * centre, with distance across the direction weighted double so movement stays in its row or column.
 */
export function neighbour(cells: readonly Cell[], from: number, direction: Direction): number {
  const origin = cells[from];
  if (origin === undefined) return from;
  const cx = (origin.x0 + origin.x1) / 2;
  const cy = (origin.y0 + origin.y1) / 2;
  let best = from;
  let bestScore = Infinity;
  cells.forEach((cell, index) => {
    if (index === from) return;
    const dx = (cell.x0 + cell.x1) / 2 - cx;
    const dy = (cell.y0 + cell.y1) / 2 - cy;
    const along = direction === 'left' ? -dx : direction === 'right' ? dx : direction === 'up' ? -dy : dy;
    const across = direction === 'left' || direction === 'right' ? Math.abs(dy) : Math.abs(dx);
    if (along <= 0) return;
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = index;
    }
  });
  return best;
}
