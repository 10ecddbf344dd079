// Byte-level scans of JSON text that run BEFORE JSON.parse: nesting depth (so a hostile envelope cannot make
// any later walk recurse deeply) and the keys of the first top-level object (to tell an envelope from a log
// without parsing a file that may be hundreds of MB). Structural JSON characters are ASCII, and every byte of a
// multi-byte UTF-8 sequence is >= 0x80, so scanning bytes is exact without decoding.

import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, isJsonSpace, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../input/json-bytes.ts';

/** Index just past the closing quote of the string whose opening quote is at `start` (or bytes.length). */
function skipString(bytes: Uint8Array, start: number): number {
  for (let i = start + 1; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === BACKSLASH) i++;
    else if (b === QUOTE) return i + 1;
  }
  return bytes.length;
}

export type DepthScan = { ok: true; maxDepth: number } | { ok: false; byteOffset: number };

/**
 * Deepest nesting of objects and arrays outside strings; the top-level object or array is depth 1 and a bare
 * scalar is depth 0. Stops at the first bracket that goes past `limit` and reports its byte offset.
 * Unbalanced or otherwise invalid JSON is left to JSON.parse.
 */
export function scanDepth(bytes: Uint8Array, limit: number): DepthScan {
  let depth = 0;
  let maxDepth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      i = skipString(bytes, i) - 1;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      depth++;
      if (depth > limit) return { ok: false, byteOffset: i };
      if (depth > maxDepth) maxDepth = depth;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    }
  }
  return { ok: true, maxDepth };
}

function decodeKey(bytes: Uint8Array, start: number, end: number): string | null {
  const raw = bytes.subarray(start, end);
  if (!raw.includes(BACKSLASH)) {
    let key = '';
    for (const b of raw) {
      if (b >= 0x80) return null; // non-ASCII key: never one of the keys we look for
      key += String.fromCharCode(b);
    }
    return key;
  }
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start - 1, end + 1)));
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Which of `wanted` are keys of the first JSON value when it is an object (after an optional UTF-8 BOM and
 * white space). Returns an empty set when the input does not start with `{`. Reads up to the end of that first
 * object only, so the first line of a JSONL log is enough.
 */
export function firstObjectKeys(bytes: Uint8Array, wanted: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (isJsonSpace(bytes[i])) i++;
  if (bytes[i] !== OPEN_BRACE) return found;
  let depth = 0;
  let expectKey = false;
  for (; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      const end = skipString(bytes, i);
      if (depth === 1 && expectKey) {
        const key = decodeKey(bytes, i + 1, end - 1);
        if (key !== null && wanted.has(key)) found.add(key);
        expectKey = false;
      }
      i = end - 1;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth <= 0) break;
    } else if (b === COMMA && depth === 1) {
      expectKey = true;
    }
  }
  return found;
}
