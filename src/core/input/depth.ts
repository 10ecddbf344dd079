// Nesting-depth guard run before JSON.parse. A linear scan with no recursion: strings are skipped with indexOf
// (the bulk of a request log is string content), brackets outside strings are counted.

import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-bytes.ts';

/**
 * Character offset at which `text` first opens its (maxDepth+1)-th nested array/object, or -1 when it never
 * nests deeper than `maxDepth`. Malformed JSON is not diagnosed here; JSON.parse does that afterwards.
 */
export function nestingOverflowOffset(text: string, maxDepth: number): number {
  // A document shorter than the limit cannot exceed it: skip the scan for the common small record.
  if (text.length <= maxDepth) return -1;
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = endOfJsonString(text, i + 1);
      if (end < 0) return -1;
      i = end;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > maxDepth) return i;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
    i++;
  }
  return -1;
}

/** Index just past the closing quote of a string whose content starts at `from`, or -1 if it is unterminated. */
export function endOfJsonString(text: string, from: number): number {
  let i = from;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return -1;
    // The quote is escaped when preceded by an odd number of backslashes.
    let backslashes = 0;
    for (let k = q - 1; k >= from && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** 1-based line and column of a character offset (for errors inside whole-document files). */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  let nl = text.indexOf('\n');
  while (nl >= 0 && nl < offset) {
    line++;
    lineStart = nl + 1;
    nl = text.indexOf('\n', lineStart);
  }
  return { line, column: offset - lineStart + 1 };
}
