// The clearing screen: the tool-result clearing workspace on its own, with no request log loaded (opened from the
// start screen, or by dropping a clearing case folder, which analyses at once).
import { el } from '../dom.ts';
import { renderClearingWorkspace } from '../panels/clearing.ts';
import type { WorkerClient } from '../worker-client.ts';

/** Mounts the workspace; the returned controller stops its work when the screen is left. */
export function mountClearingScreen(main: HTMLElement, client: WorkerClient, options: { analyzeNow: boolean }): AbortController {
  const controller = new AbortController();
  main.className = 'main main-workspace';
  const host = el('div', { className: 'panel', attrs: { id: 'panel', 'data-panel': 'clearing' } });
  main.replaceChildren(el('h1', { className: 'workspace-title', text: 'Tool-result clearing', attrs: { tabindex: '-1', id: 'workspace-title' } }), host);
  renderClearingWorkspace(host, { ask: client.asker(controller.signal), signal: controller.signal }, options.analyzeNow);
  document.getElementById('workspace-title')?.focus({ preventScroll: true });
  return controller;
}
