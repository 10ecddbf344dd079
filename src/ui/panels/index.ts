// The panel registry: one line per panel, in tab order. See docs/web-app.md, "Adding a panel".
import type { Panel } from './types.ts';
import { tokensPanel } from './tokens.ts';
import { duplicatesPanel } from './duplicates.ts';
import { cachePanel } from './cache.ts';

export const PANELS: readonly Panel[] = [tokensPanel, cachePanel, duplicatesPanel];
