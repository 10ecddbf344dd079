// Colour-vision math for checking the category palette: sRGB → OKLab, and simulated colour-vision deficiencies.
// Protanopia/deuteranopia use both Viénot, Brettel & Mollon (1999) and Machado, Oliveira & Fernandes (2009,
// severity 1.0); tritanopia uses Machado (Viénot's single-plane method does not model it). All matrices apply to
// linear RGB. ΔE is Euclidean distance in OKLab scaled by 100 (so ~2 is a just-noticeable difference).

export type Rgb = readonly [number, number, number];
type Matrix = readonly [Rgb, Rgb, Rgb];

export type Vision = 'normal' | 'protan-vienot' | 'deutan-vienot' | 'protan-machado' | 'deutan-machado' | 'tritan-machado';

const IDENTITY: Matrix = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

const MATRICES: Record<Vision, Matrix> = {
  normal: IDENTITY,
  'protan-vienot': [
    [0.11238, 0.88762, 0.0],
    [0.11238, 0.88762, 0.0],
    [0.00401, -0.00401, 1.0],
  ],
  'deutan-vienot': [
    [0.29275, 0.70725, 0.0],
    [0.29275, 0.70725, 0.0],
    [-0.02234, 0.02234, 1.0],
  ],
  'protan-machado': [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  'deutan-machado': [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  'tritan-machado': [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

export const VISIONS = Object.keys(MATRICES) as Vision[];

/** `#rrggbb` → sRGB components in 0..1. */
export function parseHex(hex: string): Rgb {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match?.[1]) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(match[1], 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

function toLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function apply(m: Matrix, [r, g, b]: Rgb): Rgb {
  const clamp = (v: number): number => Math.min(1, Math.max(0, v));
  return [
    clamp(m[0][0] * r + m[0][1] * g + m[0][2] * b),
    clamp(m[1][0] * r + m[1][1] * g + m[1][2] * b),
    clamp(m[2][0] * r + m[2][1] * g + m[2][2] * b),
  ];
}

/** OKLab (Ottosson 2020) of a linear-RGB colour. */
function oklabOfLinear([r, g, b]: Rgb): Rgb {
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** OKLab of an sRGB hex colour as seen under `vision`. */
export function oklab(hex: string, vision: Vision = 'normal'): Rgb {
  const linear = parseHex(hex).map(toLinear) as unknown as Rgb;
  return oklabOfLinear(apply(MATRICES[vision], linear));
}

/** ΔE×100 in OKLab between two colours as seen under `vision`. */
export function deltaE(a: string, b: string, vision: Vision = 'normal'): number {
  const [l1, a1, b1] = oklab(a, vision);
  const [l2, a2, b2] = oklab(b, vision);
  return 100 * Math.hypot(l1 - l2, a1 - a2, b1 - b2);
}

/** WCAG 2 relative luminance contrast ratio between two sRGB colours (for text on swatches). */
export function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string): number => {
    const [r, g, bl] = parseHex(hex).map(toLinear) as unknown as Rgb;
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export interface PaletteReport {
  /** Smallest ΔE between any two palette colours, per vision. */
  minPair: Record<Vision, { value: number; a: string; b: string }>;
  /** Smallest ΔE between a palette colour and each surface, per vision. */
  minSurface: Record<Vision, Record<string, { value: number; colour: string }>>;
}

/** Worst cases over every pair and every surface, under every simulated vision. */
export function checkPalette(colours: readonly string[], surfaces: readonly string[]): PaletteReport {
  const minPair = {} as PaletteReport['minPair'];
  const minSurface = {} as PaletteReport['minSurface'];
  for (const vision of VISIONS) {
    let worst = { value: Infinity, a: '', b: '' };
    for (let i = 0; i < colours.length; i++) {
      for (let j = i + 1; j < colours.length; j++) {
        const a = colours[i] as string;
        const b = colours[j] as string;
        const value = deltaE(a, b, vision);
        if (value < worst.value) worst = { value, a, b };
      }
    }
    minPair[vision] = worst;
    minSurface[vision] = {};
    for (const surface of surfaces) {
      let least = { value: Infinity, colour: '' };
      for (const colour of colours) {
        const value = deltaE(colour, surface, vision);
        if (value < least.value) least = { value, colour };
      }
      minSurface[vision][surface] = least;
    }
  }
  return { minPair, minSurface };
}
