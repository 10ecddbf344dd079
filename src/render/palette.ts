// Category colours. One colour per category everywhere (treemap, legends, tables, other panels), chosen so every
// pair stays distinguishable under simulated protanopia, deuteranopia and tritanopia and every colour stands off
// both the light and the dark surface. The numbers are checked by tests/ui/palette.test.ts; see docs/palette.md.
import type { Category } from '../core/model.ts';

export const CATEGORY_COLOURS: Readonly<Record<Category, string>> = {
  system: '#6f558f',
  tools: '#7c7f1c',
  user: '#357bd0',
  assistant: '#92d26d',
  tool_call: '#d0922b',
  tool_result: '#d56660',
  thinking: '#bc88de',
  image: '#6ec7f9',
  document: '#974943',
  audio: '#e8a6b5',
  other: '#8b9099',
  setup_inferred: '#0000ae',
};

export const CATEGORY_LABELS: Readonly<Record<Category, string>> = {
  system: 'System',
  tools: 'Tool definitions',
  user: 'User',
  assistant: 'Assistant',
  tool_call: 'Tool calls',
  tool_result: 'Tool results',
  thinking: 'Thinking',
  image: 'Images',
  document: 'Documents',
  audio: 'Audio',
  other: 'Other',
  setup_inferred: 'Not recorded, inferred',
};

/** The page surfaces the palette is checked against (must match --surface in src/ui/styles.css). */
export const SURFACES = { light: '#fbfbfa', dark: '#16181d' } as const;

/** Text colour with the better WCAG contrast on each swatch, precomputed by the palette test. */
export const LABEL_INK: Readonly<Record<Category, '#000000' | '#ffffff'>> = {
  system: '#ffffff',
  tools: '#000000',
  user: '#000000',
  assistant: '#000000',
  tool_call: '#000000',
  tool_result: '#000000',
  thinking: '#000000',
  image: '#000000',
  document: '#ffffff',
  audio: '#000000',
  other: '#000000',
  setup_inferred: '#ffffff',
};
