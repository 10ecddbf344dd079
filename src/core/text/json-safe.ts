// JSON text that is safe to print: what the CLI writes with --json and the app downloads are the same bytes.

/** C0 and C1 controls (not \t, \n), DEL, and the bidi embedding, override, isolate and mark characters. */
export const UNSAFE_CHARS = '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]';
const UNSAFE_PATTERN = new RegExp(UNSAFE_CHARS, 'g');

/** Each character of `text` as a `\uXXXX` escape. */
export function escapedChars(text: string): string {
  let out = '';
  for (const ch of text) out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * JSON text (JSON.stringify's, which escapes C0 controls itself) with the C1, DEL and bidi characters it leaves raw
 * written as `\uXXXX` escapes too: the same value when parsed, and nothing that acts when the file is printed.
 */
export function jsonTextSafe(json: string): string {
  return json.replace(UNSAFE_PATTERN, escapedChars);
}

/** A record as a JSON file: two-space indented, made safe, one closing newline. */
export function recordJson(record: unknown): string {
  return `${jsonTextSafe(JSON.stringify(record, null, 2))}\n`;
}
