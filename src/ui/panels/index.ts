// The panel registry: one line per panel, in tab order. See docs/web-app.md, "Adding a panel".
import type { Panel, PanelId } from './types.ts';
import { tokensPanel } from './tokens.ts';
import { duplicatesPanel } from './duplicates.ts';
import { cachePanel } from './cache.ts';
import { findingsPanel } from './findings.ts';
import { diffPanel } from './diff.ts';
import { conversationsPanel } from './conversations.ts';
import { clearingPanel } from './clearing.ts';
import { timelinePanel } from './timeline.ts';
import { summaryPanel } from './summary.ts';

export const PANELS: readonly Panel[] = [tokensPanel, findingsPanel, cachePanel, diffPanel, conversationsPanel, timelinePanel, summaryPanel, duplicatesPanel, clearingPanel];

/** Whether a name (from a link) is a panel's id. */
export function isPanelId(name: string): name is PanelId {
  return PANELS.some((panel) => panel.id === name);
}
