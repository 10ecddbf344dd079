// Treemap layout: one cell per segment, areas proportional to tokens (within the documented 2% floor), zero-token
// segments still visible, no overlaps, and arrow-key neighbours.
import { describe, expect, it } from 'vitest';
import { cellWeights, layoutTreemap, neighbour, type Cell, type CellInput } from '../../src/render/treemap-layout.ts';

const area = (c: Cell): number => (c.x1 - c.x0) * (c.y1 - c.y0);

describe('treemap layout', () => {
  const segments: CellInput[] = [
    { category: 'system', tokens: 400 },
    { category: 'tools', tokens: 100 },
    { category: 'user', tokens: 300 },
    { category: 'tool_result', tokens: 200 },
  ];

  it('draws one cell per segment, in segment order', () => {
    const cells = layoutTreemap(segments, 400, 300);
    expect(cells.map((c) => c.segment)).toEqual([0, 1, 2, 3]);
    expect(cells.map((c) => c.category)).toEqual(['system', 'tools', 'user', 'tool_result']);
  });

  it('sizes cells by tokens: system (400) is twice tool_result (200) and four times tools (100)', () => {
    const cells = layoutTreemap(segments, 400, 300);
    const [system, tools, , result] = cells.map(area) as [number, number, number, number];
    // Padding (1px between cells) perturbs small areas slightly.
    expect(system / result).toBeGreaterThan(1.85);
    expect(system / result).toBeLessThan(2.15);
    expect(system / tools).toBeGreaterThan(3.6);
    expect(system / tools).toBeLessThan(4.4);
  });

  it('keeps cells inside the map and apart from each other', () => {
    const many: CellInput[] = Array.from({ length: 60 }, (_, i) => ({ category: i % 2 ? 'user' : 'assistant', tokens: (i * 37) % 500 }));
    const cells = layoutTreemap(many, 800, 500);
    expect(cells).toHaveLength(60);
    for (const c of cells) {
      expect(c.x0).toBeGreaterThanOrEqual(0);
      expect(c.y0).toBeGreaterThanOrEqual(0);
      expect(c.x1).toBeLessThanOrEqual(800);
      expect(c.y1).toBeLessThanOrEqual(500);
    }
    for (let i = 0; i < cells.length; i++) {
      for (let j = i + 1; j < cells.length; j++) {
        const a = cells[i] as Cell;
        const b = cells[j] as Cell;
        const overlap = Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
        expect(overlap).toBeLessThan(1e-6);
      }
    }
  });

  it('gives zero-token segments a visible cell while the floor adds under 2% of the weight', () => {
    const withZeros: CellInput[] = [{ category: 'user', tokens: 10_000 }, { category: 'image', tokens: 0 }, { category: 'other', tokens: 0 }];
    const weights = cellWeights(withZeros);
    // floor = 10,000 × (1/50) / 3 segments
    expect(weights[1]).toBeCloseTo(10_000 / 50 / 3, 6);
    const added = weights.reduce((s, w) => s + w, 0) - 10_000;
    expect(added / 10_000).toBeLessThanOrEqual(0.02);
    const cells = layoutTreemap(withZeros, 600, 400);
    expect(cells).toHaveLength(3);
    for (const c of cells) expect(area(c)).toBeGreaterThan(4);
  });

  it('handles an empty request and an empty map', () => {
    expect(layoutTreemap([], 400, 300)).toEqual([]);
    expect(layoutTreemap(segments, 0, 300)).toEqual([]);
    expect(cellWeights([{ category: 'user', tokens: 0 }])).toEqual([1 / 50]);
  });

  it('moves to the nearest cell in the arrow direction and stays put at an edge', () => {
    const grid: Cell[] = [
      { segment: 0, category: 'user', x0: 0, y0: 0, x1: 10, y1: 10 },
      { segment: 1, category: 'user', x0: 10, y0: 0, x1: 20, y1: 10 },
      { segment: 2, category: 'user', x0: 0, y0: 10, x1: 10, y1: 20 },
      { segment: 3, category: 'user', x0: 10, y0: 10, x1: 20, y1: 20 },
    ];
    expect(neighbour(grid, 0, 'right')).toBe(1);
    expect(neighbour(grid, 0, 'down')).toBe(2);
    expect(neighbour(grid, 3, 'left')).toBe(2);
    expect(neighbour(grid, 3, 'up')).toBe(1);
    expect(neighbour(grid, 0, 'left')).toBe(0);
    expect(neighbour(grid, 9, 'left')).toBe(9);
  });
});
