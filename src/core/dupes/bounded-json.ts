// Parsing under the envelope caps: size, UTF-8, nesting depth and JSON syntax are checked on the bytes, in that
// order, before any value is built. Refusals carry the cap and a byte offset, never the offending text.
import { refuse, type Refusal } from './codes.ts';
import { MAX_DEPTH, MAX_ENVELOPE_BYTES } from './limits.ts';
import { scanDepth } from './json-scan.ts';
import { firstJsonSyntaxError } from './json-syntax.ts';
import { firstInvalidUtf8Offset } from '../input/utf8-check.ts';
import { utf8Length } from '../text/utf8.ts';

export type BoundedParse<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/** Byte offset of the first syntax error of `text`, which starts at byte `base` of the input. */
function syntaxErrorByteOffset(text: string, base: number): number {
  const at = firstJsonSyntaxError(text);
  return base + utf8Length(text.slice(0, at < 0 ? text.length : at));
}

const BOM_BYTES = 3;

function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** Size, UTF-8 and depth checks shared by the whole-document and the line-by-line forms. Returns the text. */
function checkedText(bytes: Uint8Array): BoundedParse<string> {
  if (bytes.length > MAX_ENVELOPE_BYTES) {
    return { ok: false, refusal: refuse('ENVELOPE_TOO_LARGE', { limit: MAX_ENVELOPE_BYTES, actual: bytes.length }) };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); // also drops a leading BOM
  } catch {
    return { ok: false, refusal: refuse('INVALID_UTF8', { byteOffset: Math.max(0, firstInvalidUtf8Offset(bytes)) }) };
  }
  const depth = scanDepth(bytes, MAX_DEPTH);
  if (!depth.ok) return { ok: false, refusal: refuse('TOO_DEEP', { limit: MAX_DEPTH, byteOffset: depth.byteOffset }) };
  return { ok: true, value: text };
}

/** One JSON document (the envelope forms). */
export function parseBoundedJson(bytes: Uint8Array): BoundedParse<unknown> {
  const checked = checkedText(bytes);
  if (!checked.ok) return checked;
  try {
    return { ok: true, value: JSON.parse(checked.value) };
  } catch {
    const base = hasBom(bytes) ? BOM_BYTES : 0;
    return { ok: false, refusal: refuse('INVALID_JSON', { byteOffset: syntaxErrorByteOffset(checked.value, base) }) };
  }
}

/**
 * JSON Lines under the same caps (a ConeReplay trace written one event a line): blank lines are skipped,
 * CRLF is accepted, and any broken line refuses the whole input with that line's byte offset — a partial
 * trace would give a verdict about a run that did not happen.
 */
export function parseBoundedJsonLines(bytes: Uint8Array): BoundedParse<unknown[]> {
  const checked = checkedText(bytes);
  if (!checked.ok) return checked;
  const values: unknown[] = [];
  let byteOffset = hasBom(bytes) ? BOM_BYTES : 0;
  for (const line of checked.value.split('\n')) {
    const lineBytes = utf8Length(line) + 1;
    if (line.trim() !== '') {
      try {
        values.push(JSON.parse(line));
      } catch {
        return { ok: false, refusal: refuse('INVALID_JSON', { byteOffset: syntaxErrorByteOffset(line, byteOffset) }) };
      }
    }
    byteOffset += lineBytes;
  }
  return { ok: true, value: values };
}
