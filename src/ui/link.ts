// The view in the URL fragment: what the address bar keeps while the user moves, and what "Copy link" copies.
import type { WireFormat } from '../core/model.ts';
import { loadedOf, type Screen } from './screen.ts';
import type { SessionScreen, ViewPrefs } from './screens/session.ts';
import { buildFragment, type ViewState } from './share.ts';

export interface LinkState {
  screen: Screen;
  session: SessionScreen | null;
  prefs: ViewPrefs;
  format: WireFormat | undefined;
  model: string | undefined;
}

export function viewStateOf({ screen, session, prefs, format, model }: LinkState): ViewState {
  const state: ViewState = {};
  const loaded = loadedOf(screen);
  const source = loaded?.source;
  if (source?.kind === 'example') state.example = source.entry.id;
  if (source?.kind === 'paste') state.input = source.text;
  if (loaded) {
    if (session) state.request = session.requestIndex + 1;
    state.panel = prefs.panelId;
    if (prefs.segmentPath !== null) state.segment = prefs.segmentPath;
    if (prefs.treemap.zoom !== null) state.zoom = prefs.treemap.zoom;
    if (prefs.treemap.search !== '') state.find = prefs.treemap.search;
    if (!prefs.calibration) state.calibrate = false;
  }
  if (format) state.format = format;
  if (model) state.model = model;
  return state;
}

/** Puts the view in the address bar (without the pasted input: it goes in only on "Copy link"); returns the hash written. */
export function writeFragment(link: LinkState): string {
  const { input, ...state } = viewStateOf(link);
  // The address bar never holds the pasted text itself, but says a paste was on screen, so a reload is honest.
  if (input !== undefined) state.pasted = true;
  const { hash } = buildFragment(state);
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
  return hash;
}

/** Copies a link to the view; the message to show (copied, or the link to copy by hand, or why none can be made). */
export async function copyLink(link: LinkState): Promise<{ kind: 'error' | 'info'; text: string }> {
  const built = buildFragment(viewStateOf(link));
  // A link without the pasted input it was made for would open an empty app that cannot show this view.
  if (!built.ok) return { kind: 'error', text: built.reason };
  // Everything before the fragment, so the link works wherever the app is hosted (a sub-path, file://).
  const url = `${location.href.split('#')[0] ?? ''}${built.hash}`;
  const files = loadedOf(link.screen)?.source.kind === 'files';
  const note = files ? 'Opened files are never put in links; the link opens this view once the same files are opened.' : '';
  try {
    await navigator.clipboard.writeText(url);
    return { kind: 'info', text: `Link copied.${note ? ` ${note}` : ''}` };
  } catch {
    return { kind: 'info', text: `Copy this link: ${url}${note ? ` — ${note}` : ''}` };
  }
}

/** What "Copy link" puts in a link, for its tooltip: the user knows before sharing. */
export function linkCarries(screen: Screen): string {
  const view = 'the view (request, panel, selected block, treemap zoom and search, format and model)';
  const source = loadedOf(screen)?.source;
  if (source?.kind === 'example') return `Copies a link to this example and ${view}`;
  if (source?.kind === 'paste') return `Copies a link carrying the pasted input (compressed, in the fragment, which no server sees) and ${view}; refused if the input does not fit`;
  return `Copies a link to ${view} only: opened files never travel in a link, so whoever opens it must open the same files`;
}
