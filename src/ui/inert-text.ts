// Payload text into the DOM with invisible and bidi-reordering characters made visible (src/core/text/invisible.ts): each
// becomes a marker <span> showing ⟨U+XXXX⟩, and the text node beside it never holds the character itself, so no
// override can reorder the page. A copy from the marked-up text puts the exact original characters on the clipboard.
import { codePointLabel, splitInvisible } from '../core/text/invisible.ts';

/** The code point a marker stands for, as hex: read back when the selection is copied. */
const CODE_POINT_ATTR = 'data-code-point';

/** Fills `host` with the text, markers in place of invisible characters (textContent only, never markup). */
export function setInertText(host: HTMLElement, text: string): void {
  const nodes: Node[] = [];
  for (const piece of splitInvisible(text)) {
    if (typeof piece === 'string') {
      nodes.push(document.createTextNode(piece));
      continue;
    }
    const label = codePointLabel(piece.codePoint);
    const marker = document.createElement('span');
    marker.className = 'invisible-char';
    marker.textContent = `⟨${label}⟩`;
    marker.title = `${label}: an invisible or text-direction character, shown as its code point`;
    marker.setAttribute(CODE_POINT_ATTR, piece.codePoint.toString(16));
    nodes.push(marker);
  }
  host.replaceChildren(...nodes);
}

/** The original text of a DOM fragment: markers give back their character, everything else its text. */
export function originalText(root: Node): string {
  let out = '';
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      out += node.nodeValue ?? '';
      return;
    }
    const hex = node instanceof Element ? node.getAttribute(CODE_POINT_ATTR) : null;
    if (hex !== null && /^[0-9a-f]{1,6}$/.test(hex)) {
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      return;
    }
    node.childNodes.forEach(walk);
  };
  walk(root);
  return out;
}

/** Makes a copy of a selection inside `host` carry the original characters instead of the ⟨U+XXXX⟩ markers. */
export function copyOriginalText(host: HTMLElement): void {
  host.addEventListener('copy', (event: ClipboardEvent) => {
    const selection = document.getSelection();
    if (!selection || selection.rangeCount === 0 || !event.clipboardData) return;
    const range = selection.getRangeAt(0);
    if (!host.contains(range.commonAncestorContainer)) return;
    event.clipboardData.setData('text/plain', originalText(range.cloneContents()));
    event.preventDefault();
  });
}
