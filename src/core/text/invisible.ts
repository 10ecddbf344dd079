// Payload text may carry characters that change how the page around it reads: bidi overrides and isolates
// reorder everything after them on the line (a file name that reads "exe.png" but is "gnp.exe"), zero-width and
// tag characters hide text, C0/C1 controls draw nothing. Shown payload text marks each one visibly and inertly as
// ⟨U+XXXX⟩, while copying still yields the exact characters. Pure: no DOM here (the web app marks them up in src/ui/inert-text.ts; the --html report uses visibleLabel).

/**
 * Characters shown as a marker: C0 controls except tab/LF/CR, DEL and C1; soft hyphen; Arabic letter mark;
 * Mongolian vowel separator; zero-width space; LRM/RLM; bidi embeddings/overrides (U+202A–202E); word joiner and
 * invisible operators (U+2060–2064); bidi isolates (U+2066–2069); BOM; interlinear annotation marks; tag
 * characters (U+E0000–E007F); and unpaired surrogates. ZWJ/ZWNJ stay: emoji sequences and several scripts need them.
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- finding control characters is this expression's job
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB\u{E0000}-\u{E007F}]|\p{Cs}/gu;

/** A run of ordinary text, or one invisible character given by its code point. */
export type TextPiece = string | { codePoint: number };

/** "U+202E" for a code point (at least four hex digits). */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The text cut into plain runs and invisible characters, in order; joining them back gives the text exactly. */
export function splitInvisible(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    const at = match.index;
    if (at > last) pieces.push(text.slice(last, at));
    pieces.push({ codePoint: match[0].codePointAt(0)! });
    last = at + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

/** The exact text back from its pieces (what "copy" must give). */
export function joinPieces(pieces: readonly TextPiece[]): string {
  return pieces.map((p) => (typeof p === 'string' ? p : String.fromCodePoint(p.codePoint))).join('');
}

/** A character as its visible ⟨U+XXXX⟩ marker. */
const marker = (char: string): string => `⟨${codePointLabel(char.codePointAt(0)!)}⟩`;

/** INVISIBLE plus tab, newline and carriage return: what cannot appear in a one-line id. */
const INVISIBLE_IN_ID = new RegExp(`${INVISIBLE.source}|[\\t\\n\\r]`, INVISIBLE.flags);

/** For short labels set as plain text or a title (tool names, paths, file names): each invisible as ⟨U+XXXX⟩. */
export function visibleLabel(text: string): string {
  return text.replace(INVISIBLE, marker);
}

/** For an id shown on one line (a model id): as visibleLabel, and tab, newline and carriage return marked too. */
export function visibleId(text: string): string {
  return text.replace(INVISIBLE_IN_ID, marker);
}
