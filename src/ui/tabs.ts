// The panel tabs: one button per available panel, arrow keys move between them (the WAI-ARIA tabs pattern).
import { el } from './dom.ts';
import type { Panel } from './panels/types.ts';

export function renderTabs(panels: readonly Panel[], active: Panel | undefined, select: (id: Panel['id']) => void): HTMLElement {
  const list = el(
    'div',
    { className: 'tabs', attrs: { role: 'tablist', 'aria-label': 'Views' } },
    panels.map((panel) =>
      el('button', {
        className: 'tab',
        text: panel.title,
        attrs: {
          type: 'button',
          role: 'tab',
          id: `tab-${panel.id}`,
          'aria-selected': String(panel === active),
          'aria-controls': 'panel',
          tabindex: panel === active ? '0' : '-1',
        },
        on: { click: () => select(panel.id) },
      }),
    ),
  );
  list.addEventListener('keydown', (event) => {
    const index = panels.findIndex((p) => p === active);
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (delta === 0 || panels.length === 0) return;
    event.preventDefault();
    const next = panels[(index + delta + panels.length) % panels.length];
    if (next) select(next.id);
  });
  return list;
}
