// The notice line under the header: one message (an error or information) with its located details, dismissable.
import { el } from './dom.ts';

export interface Message {
  kind: 'error' | 'info';
  text: string;
  details?: string[];
}

export function renderNotice(host: HTMLElement, message: Message | null, dismiss: () => void): void {
  if (!message) {
    host.replaceChildren();
    return;
  }
  const details = message.details && message.details.length > 0
    ? el('ul', { className: 'notice-details mono' }, message.details.map((d) => el('li', { text: d })))
    : null;
  host.replaceChildren(
    el('div', { className: `notice notice-${message.kind}`, attrs: { role: message.kind === 'error' ? 'alert' : 'status', id: 'notice' } }, [
      el('div', { className: 'notice-text', text: message.text }),
      details,
      el('button', { className: 'notice-close', text: '×', attrs: { type: 'button', 'aria-label': 'Dismiss' }, on: { click: dismiss } }),
    ]),
  );
}
