// What a link (the URL fragment) asks of the input on screen: whether it names that input, and the view settings it
// carries.
import type { ViewState } from './share.ts';
import type { Source } from './screen.ts';
import type { ViewPrefs } from './screens/session.ts';
import type { PanelId } from './panels/types.ts';
import { isPanelId } from './panels/index.ts';

/** Whether the link names the input on screen: the same example or pasted text; a link naming no input keeps it. */
export function namesSource(state: ViewState, source: Source | undefined): boolean {
  return state.example !== undefined
    ? source?.kind === 'example' && source.entry.id === state.example
    : state.input === undefined || (source?.kind === 'paste' && source.text === state.input);
}

/** The link's view settings into `prefs`: its block, treemap zoom and search, calibration and panel. */
/** `firstPanel` opens for a panel the link names that does not exist. */
export function applyLinkPrefs(prefs: ViewPrefs, state: ViewState, firstPanel: PanelId): void {
  Object.assign(prefs, { segmentPath: state.segment ?? null, treemap: { zoom: state.zoom ?? null, search: state.find ?? '' }, calibration: state.calibrate ?? true });
  // A link's unknown panel opens the first one, as a panel this input lacks does.
  if (state.panel) prefs.panelId = isPanelId(state.panel) ? state.panel : firstPanel;
}
