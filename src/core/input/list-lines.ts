// File lines of the items of a document's lists (a HAR's `log.entries`, a cassette's `interactions`), so that a
// request read from one item, and an error in it, are located at that item's line, not at the document's first.
// Lists are named by their keys from the top, dotted (`log.entries`); only lists one or two keys deep, reached
// through objects, are tracked: that is where every capture format keeps its entries.

import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-bytes.ts';
import { endOfJsonString } from './depth.ts';

/** Per list path, the file line on which each of its items starts. */
export type ListLines = (path: string) => readonly number[] | undefined;

const NEWLINE = 0x0a;
const COLON = 0x3a;
const MAX_KEYS = 2;

/**
 * The lines of a valid JSON document's lists (the document parsed already), found on the first question in one
 * pass over the text; `firstLine` is the file line of the text's first line.
 */
export function jsonListLines(text: string, firstLine: number): ListLines {
  let lists: Map<string, number[]> | null = null;
  return (path) => (lists ??= scanJsonLists(text, firstLine)).get(path);
}

interface Open {
  isArray: boolean;
  /** The container's key path when tracked (the root object is ''), else null. */
  path: string | null;
  /** Keys from the top to the container (the root 0). */
  keys: number;
  /** Items' lines, for a tracked list. */
  lines: number[] | null;
}

function scanJsonLists(text: string, firstLine: number): Map<string, number[]> {
  const scan = new ListScan();
  let line = firstLine;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE) line++;
    else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) i = scan.token(text, i, c, line);
  }
  return scan.lists;
}

/** The scan's state between tokens: what is open, and where the next item or key comes. */
class ListScan {
  readonly lists = new Map<string, number[]>();
  private readonly open: Open[] = [];
  /** The list whose next value starts an item (after its `[` or a comma at its level). */
  private awaitingItem: number[] | null = null;
  /** In an object, the next string is a key (after `{` or a comma); the last key read. */
  private keyNext = false;
  private key = '';

  /** Reads the token at `i` (not whitespace); returns the index of its last character. */
  token(text: string, i: number, c: number, line: number): number {
    if (this.awaitingItem !== null) {
      if (c !== CLOSE_BRACKET) this.awaitingItem.push(line);
      this.awaitingItem = null;
    }
    const top = this.open[this.open.length - 1];
    if (c === QUOTE) {
      // Valid JSON: strings hold no raw line break, so skipping one never skips a line.
      const end = endOfJsonString(text, i + 1);
      if (this.keyNext && top?.path != null) this.key = JSON.parse(text.slice(i, end)) as string;
      this.keyNext = false;
      return end - 1;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) this.opened(top, c === OPEN_BRACKET);
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      this.open.pop();
      this.keyNext = false;
    } else if (c === COMMA) {
      if (top?.isArray === true) this.awaitingItem = top.lines;
      else this.keyNext = true;
    } else if (c === COLON) this.keyNext = false;
    return i;
  }

  private opened(parent: Open | undefined, isArray: boolean): void {
    const path = childPath(parent, this.key, isArray);
    const lines = isArray && path !== null ? [] : null;
    if (lines !== null && path !== null && !this.lists.has(path)) this.lists.set(path, lines);
    this.open.push({ isArray, path, keys: parent === undefined ? 0 : parent.keys + 1, lines });
    if (lines !== null) this.awaitingItem = lines;
    this.keyNext = !isArray;
  }
}

/** The path of a container opened inside `parent` under `key`, or null when it is not tracked. */
function childPath(parent: Open | undefined, key: string, isArray: boolean): string | null {
  if (parent === undefined) return isArray ? null : '';
  if (parent.isArray || parent.path === null) return null;
  // An object is tracked only where a list below it would still be within MAX_KEYS.
  if (parent.keys + 1 > (isArray ? MAX_KEYS : MAX_KEYS - 1)) return null;
  return parent.path === '' ? key : `${parent.path}.${key}`;
}
