// A Claude Code line read for the usage pass without decoding it. The walk of a transcript's API calls
// (src/core/formats/claude-code-calls.ts) reads a few keys of each line — its type, ids, lane, time stamp and, of
// `message`, the id, model and usage — while most of a line's bytes are a tool result or a response's text it never
// reads. So a line whose bytes are valid UTF-8 is JSON.parsed as Latin-1 text (one character per byte, no UTF-8
// decoding): every multi-byte character of valid UTF-8 is bytes ≥ 0x80, which JSON allows only inside strings in
// either reading, so the Latin-1 text parses exactly when the decoded text does, to the same structure, keys and
// nesting; only the strings holding non-ASCII characters read differently. `walkView` then keeps the keys the walk
// reads and answers null when one of them holds a non-ASCII string: that line is decoded and parsed the plain way
// (as is every line whose bytes are not valid UTF-8 or that does not parse), so every value the walk sees and every
// error reported is the full read's.

import { isObject, type JsonObject } from '../input/json-value.ts';

/** What the CLI gives the usage pass to read lines without decoding them (Node's buffer module). */
export interface FastLines {
  /** Whether the bytes are valid UTF-8 as the fatal TextDecoder takes them (buffer.isUtf8). */
  validUtf8(bytes: Uint8Array): boolean;
  /** The bytes as text of one character per byte, U+0000–U+00FF (Buffer's latin1 decoding). */
  latin1(bytes: Uint8Array): string;
}

/** The top-level keys the walk reads (ClaudeCodeCalls.add, SidechainLanes.laneOf, linkSubagent). */
export const WALK_LINE_KEYS = ['type', 'subtype', 'sessionId', 'agentId', 'isSidechain', 'uuid', 'parentUuid', 'logicalParentUuid', 'timestamp', 'requestId', 'isCompactSummary', 'parentToolUseID'] as const;
/** Of `message` the walk reads the id, model and usage (its content only for a Task result's link, below). */
export const WALK_MESSAGE_KEYS = ['id', 'model', 'usage'] as const;

/** Whether every string in the value (keys included) is ASCII: then it reads the same as Latin-1 and as UTF-8. */
function ascii(value: unknown): boolean {
  if (typeof value === 'string') return !NON_ASCII.test(value);
  if (Array.isArray(value)) return value.every(ascii);
  if (isObject(value)) return Object.keys(value).every((key) => !NON_ASCII.test(key) && ascii(value[key]));
  return true;
}
// eslint-disable-next-line no-control-regex -- the range starts at U+0000 on purpose: every ASCII code, controls included
const NON_ASCII = /[^\u0000-\u007f]/;

/** The listed keys of `from` into `to`; false when one of their values is not ASCII. */
function pick(from: JsonObject, keys: readonly string[], to: JsonObject): boolean {
  for (const key of keys) {
    const value = from[key];
    if (value === undefined) continue;
    if (!ascii(value)) return false;
    to[key] = value;
  }
  return true;
}

/** An object's `agentId` alone (the walk reads nothing else of `toolUseResult` and of a progress line's `data`). */
function agentOnly(value: unknown): unknown {
  if (!isObject(value)) return ascii(value) ? value : undefined;
  const out: JsonObject = {};
  return pick(value, ['agentId'], out) ? out : undefined;
}

/**
 * The keys of a line parsed from its Latin-1 text that the walk reads, with the values it would read in the
 * decoded line; null when one of them holds non-ASCII text (parse the decoded line instead).
 */
export function walkView(value: unknown): unknown {
  if (!isObject(value)) return value;
  const view: JsonObject = {};
  if (!pick(value, WALK_LINE_KEYS, view)) return null;
  for (const key of ['toolUseResult', 'data'] as const) {
    if (value[key] === undefined) continue;
    const only = agentOnly(value[key]);
    if (only === undefined) return null;
    view[key] = only;
  }
  const message = value['message'];
  if (message === undefined) return view;
  if (!isObject(message)) return ascii(message) ? { ...view, message } : null;
  const kept: JsonObject = {};
  if (!pick(message, WALK_MESSAGE_KEYS, kept)) return null;
  // A Task result's link (linkSubagent) reads the content's tool_result block.
  const result = view['toolUseResult'];
  if (isObject(result) && typeof result['agentId'] === 'string' && !pick(message, ['content'], kept)) return null;
  view['message'] = kept;
  return view;
}
