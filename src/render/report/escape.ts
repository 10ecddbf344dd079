// Every string the HTML report writes from the input goes through escapeHtml.
import { visibleLabel } from '../../core/text/invisible.ts';
import { formatUsd } from '../format.ts';

/**
 * Markup characters become entities, and bidi, invisible and control characters (ESC, BEL, U+202E, …) visible
 * ⟨U+XXXX⟩ labels, so `cat report.html` cannot drive a terminal and no id can reorder the page.
 */
export function escapeHtml(text: string): string {
  // A carriage return becomes the newline a browser reads it as anyway (HTML parsing turns CR and CRLF into LF), so
  // none reaches a terminal the report is printed to.
  return visibleLabel(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function usd(value: number | null): string {
  return value === null ? 'n/a' : formatUsd(value);
}
