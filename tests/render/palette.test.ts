// The category palette check: worst-case OKLab ΔE (×100) between categories and against both surfaces, under
// normal vision and simulated protanopia, deuteranopia (Viénot 1999 and Machado 2009) and tritanopia (Machado 2009).
// The printed table is what docs/palette.md records.
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/core/model.ts';
import { checkPalette, contrastRatio, deltaE, oklab, VISIONS } from '../../src/ui/color/cvd.ts';
import { CATEGORY_COLOURS, LABEL_INK, SURFACES } from '../../src/render/palette.ts';

const colours = CATEGORIES.map((c) => CATEGORY_COLOURS[c]);
const surfaces = [SURFACES.light, SURFACES.dark];

describe('colour math', () => {
  it('OKLab of white is L=1, a=b=0 and of black L=0', () => {
    const [l, a, b] = oklab('#ffffff');
    expect(l).toBeCloseTo(1, 4);
    expect(a).toBeCloseTo(0, 4);
    expect(b).toBeCloseTo(0, 4);
    expect(oklab('#000000')[0]).toBeCloseTo(0, 6);
  });
  it('greys are unchanged by every simulation (rows of each matrix sum to 1)', () => {
    for (const vision of VISIONS) expect(deltaE('#808080', '#808080', vision)).toBeCloseTo(0, 6);
    for (const vision of VISIONS) {
      const [l, a, b] = oklab('#808080', vision);
      const [l0] = oklab('#808080');
      expect(Math.abs(l - l0)).toBeLessThan(0.01);
      expect(Math.hypot(a, b)).toBeLessThan(0.01);
    }
  });
  it('red and green collapse under deuteranopia but not under normal vision', () => {
    expect(deltaE('#ff0000', '#00ff00')).toBeGreaterThan(40);
    expect(deltaE('#d0622b', '#6f8f2b', 'deutan-vienot')).toBeLessThan(deltaE('#d0622b', '#6f8f2b') / 2);
  });
  it('WCAG contrast of black on white is 21', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 6);
  });
  it('rejects a malformed colour', () => {
    expect(() => oklab('red')).toThrow(/#rrggbb/);
  });
});

describe('category palette', () => {
  const report = checkPalette(colours, surfaces);

  it('prints the worst cases', () => {
    const rows = VISIONS.map((vision) => {
      const pair = report.minPair[vision];
      const light = report.minSurface[vision][SURFACES.light];
      const dark = report.minSurface[vision][SURFACES.dark];
      return `${vision.padEnd(15)} pair ${pair.value.toFixed(1)} (${pair.a}/${pair.b})  light ${light?.value.toFixed(1)} (${light?.colour})  dark ${dark?.value.toFixed(1)} (${dark?.colour})`;
    });
    console.log(rows.join('\n'));
    expect(rows).toHaveLength(VISIONS.length);
  });

  it('has one distinct colour per category', () => {
    expect(new Set(colours).size).toBe(CATEGORIES.length);
  });

  it('keeps every pair apart under every simulated vision', () => {
    expect(report.minPair.normal.value).toBeGreaterThanOrEqual(13);
    for (const vision of VISIONS) expect(report.minPair[vision].value).toBeGreaterThanOrEqual(7.5);
  });

  it('stands off the light and the dark surface under every simulated vision', () => {
    for (const vision of VISIONS) {
      for (const surface of surfaces) expect(report.minSurface[vision][surface]?.value).toBeGreaterThanOrEqual(18);
    }
  });

  it('labels each swatch with the ink of higher contrast, at least 4.5:1', () => {
    for (const category of CATEGORIES) {
      const colour = CATEGORY_COLOURS[category];
      const ink = LABEL_INK[category];
      const other = ink === '#000000' ? '#ffffff' : '#000000';
      expect(contrastRatio(colour, ink)).toBeGreaterThanOrEqual(contrastRatio(colour, other));
      expect(contrastRatio(colour, ink), category).toBeGreaterThanOrEqual(4.5);
    }
  });
});
