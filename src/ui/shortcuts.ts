// Keyboard shortcuts of the loaded view and the `?` sheet that lists them. A shortcut never fires while the focus is
// in a text field (typing there is text) or when a modifier is held (the browser's own shortcuts stay intact).
import { el } from './dom.ts';

export interface ShortcutActions {
  step(delta: number): void;
  focusFilter(): void;
  focusTable(): void;
  cancelLoad(): boolean;
}

/** What the sheet lists: key(s) and what they do. Keys handled by a focused widget are listed for it. */
export const SHORTCUTS: readonly (readonly [string, string])[] = [
  ['j / k', 'Next / previous request (in the request table’s order)'],
  ['/', 'Filter requests'],
  ['t', 'Go to the request table (↑ ↓ move, Enter opens)'],
  ['← →', 'Previous / next tab, on the tab bar'],
  ['arrows, Home, End', 'Move between treemap rectangles; Enter opens one'],
  ['+ or double-click', 'Zoom the treemap into the rectangle’s message (Shift+Enter too)'],
  ['Esc, Backspace, -', 'Zoom the treemap back out to the whole request'],
  ['Esc', 'Cancel a load; close this sheet or the segment sheet; clear the treemap search'],
  ['?', 'Show this list'],
];

function typingIn(target: EventTarget | null): boolean {
  const node = target instanceof HTMLElement ? target : null;
  return node?.closest('input, textarea, select, [contenteditable]') != null;
}

export function installShortcuts(actions: ShortcutActions): void {
  const sheet = el('dialog', { className: 'shortcuts', attrs: { id: 'shortcuts', 'aria-labelledby': 'shortcuts-title' } }, [
    el('h2', { text: 'Keyboard shortcuts', attrs: { id: 'shortcuts-title' } }),
    el('dl', {}, SHORTCUTS.flatMap(([keys, what]) => [el('dt', {}, [el('kbd', { text: keys })]), el('dd', { text: what })])),
    el('button', { text: 'Close', attrs: { type: 'button' }, on: { click: () => sheet.close() } }),
  ]);
  document.body.append(sheet);
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (event.key === 'Escape') {
      if (actions.cancelLoad()) event.preventDefault();
      return;
    }
    if (typingIn(event.target) || sheet.open) return;
    // Inside the request table j/k move its cursor (the table handles them); elsewhere they open a request.
    if (event.target instanceof Element && event.target.closest('[role="grid"]')) return;
    const key = event.key;
    if (key === 'j' || key === 'k') actions.step(key === 'j' ? 1 : -1);
    else if (key === '/') actions.focusFilter();
    else if (key === 't') actions.focusTable();
    else if (key === '?') sheet.showModal();
    else return;
    event.preventDefault();
  });
}
