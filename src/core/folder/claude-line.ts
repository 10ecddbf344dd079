// A Claude Code line read for the usage pass without parsing all of it. The walk of a transcript's API calls
// (src/core/formats/claude-code-calls.ts) reads a few keys of each line — its type, ids, lane, time stamp, of
// `message` the id, model and usage, of `toolUseResult` / `data` the agent id — while most of a line's bytes are a
// tool result or a response's text it never reads. So the line's bytes are scanned: the structure of the whole line
// is checked as JSON's grammar has it (every container closed in kind, every key a string followed by a colon,
// members and elements separated by commas, numbers and literals well formed, nothing after the record, no nesting
// past the limit), each string the walk does not read is stepped over by searching for its closing quote, and only
// the values the walk reads are built (as JSON.parse builds them). A line the scan cannot read exactly — invalid
// UTF-8, broken structure, a key where the walk reads keys written with escapes, nesting past the limit, anything
// but an object — is parsed the plain way, which reports why. What the scan does not check is the inside of the
// strings it steps over (keys of objects it reads nothing of included): a raw control character or a bad escape
// there (which JSON.stringify, and so Claude Code, never writes) leaves the line's calls counted here, and the full
// read (`--deep`) reports the line.

import { BACKSLASH, CLOSE_BRACE as CLOSE_OBJECT, CLOSE_BRACKET as CLOSE_ARRAY, COLON, COMMA, isJsonSpace, OPEN_BRACE as OPEN_OBJECT, OPEN_BRACKET as OPEN_ARRAY, QUOTE } from '../input/json-bytes.ts';
import type { JsonObject } from '../input/json-value.ts';

/** What the caller gives the scan (Node's buffer functions, native). */
export interface FastLines {
  /** Whether the bytes are valid UTF-8 as the fatal TextDecoder takes them (buffer.isUtf8). */
  validUtf8(bytes: Uint8Array): boolean;
  /** The text of bytes[start, end) of valid UTF-8 (Buffer's toString). */
  text(bytes: Uint8Array, start: number, end: number): string;
}

/** The top-level keys the walk reads (ClaudeCodeCalls.add, SidechainLanes.laneOf, linkSubagent). */
export const WALK_LINE_KEYS = ['type', 'subtype', 'sessionId', 'agentId', 'isSidechain', 'uuid', 'parentUuid', 'logicalParentUuid', 'timestamp', 'requestId', 'isCompactSummary', 'parentToolUseID'] as const;
/** Of `message` the walk reads the id, model and usage (its content only for a Task result's link). */
export const WALK_MESSAGE_KEYS = ['id', 'model', 'usage'] as const;

/** Thrown inside the scan: the line goes to the plain parse. */
class NotScanned extends Error {}
const NOT_SCANNED = new NotScanned();

/** Keys as bytes, looked up without building a string per key: only the keys of the same length are compared. */
class KeyTable {
  /** Per key length, the indexes of the keys of that length. */
  private readonly byLength: number[][] = [];
  private readonly bytes: Uint8Array[];
  constructor(readonly names: readonly string[]) {
    this.bytes = names.map((name) => Uint8Array.from(name, (c) => c.charCodeAt(0)));
    this.bytes.forEach((key, k) => (this.byLength[key.length] ??= []).push(k));
  }
  /** The index of the key in bytes[start, end), or -1. */
  find(line: Uint8Array, start: number, end: number): number {
    const candidates = this.byLength[end - start];
    if (candidates === undefined) return -1;
    outer: for (const k of candidates) {
      const key = this.bytes[k]!;
      for (let i = 0; i < key.length; i++) if (line[start + i] !== key[i]) continue outer;
      return k;
    }
    return -1;
  }
}

/** Of these the walk reads only the agent id (of an object). */
const AGENT_HOLDERS = ['toolUseResult', 'data'] as const;
const LINE_KEYS = new KeyTable([...WALK_LINE_KEYS, 'message', ...AGENT_HOLDERS]);
const MESSAGE_KEYS = new KeyTable([...WALK_MESSAGE_KEYS, 'content']);
const AGENT_KEYS = new KeyTable(['agentId']);
const MESSAGE = LINE_KEYS.names.indexOf('message');
const AGENT_HOLDER_KEYS = new Set(AGENT_HOLDERS.map((name) => LINE_KEYS.names.indexOf(name)));
const CONTENT = MESSAGE_KEYS.names.indexOf('content');
/** The slot of the message's key k (valueOf's memo) is MESSAGE_SLOTS + k: after the line keys' slots. */
const MESSAGE_SLOTS = LINE_KEYS.names.length;

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

/** A value's bytes in the line. */
interface Span {
  start: number;
  end: number;
}

const LITERALS = ['true', 'false', 'null'].map((word) => Uint8Array.from(word, (c) => c.charCodeAt(0)));

/** The closing bytes of the containers skipValue is inside, innermost last (one stack for every line). */
let closers = new Uint8Array(64);

/** Where the string opening at `at` ends (past its closing quote: the next quote after an even run of backslashes), or -1. */
function stringEnd(line: Uint8Array, at: number): number {
  let end = at;
  for (;;) {
    end = line.indexOf(QUOTE, end + 1);
    if (end < 0) return -1;
    let backslashes = 0;
    while (line[end - 1 - backslashes] === BACKSLASH) backslashes++;
    if ((backslashes & 1) === 0) return end + 1;
  }
}

/** Where JSON's number starting at `at` ends, or -1: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
function numberEnd(line: Uint8Array, at: number): number {
  if (line[at] === 0x2d) at++;
  if (line[at] === 0x30) at++;
  else {
    if (!isDigit(line[at])) return -1;
    while (isDigit(line[at])) at++;
  }
  if (line[at] === 0x2e) {
    if (!isDigit(line[++at])) return -1;
    while (isDigit(line[at])) at++;
  }
  if (line[at] === 0x65 || line[at] === 0x45) {
    at++;
    if (line[at] === 0x2b || line[at] === 0x2d) at++;
    if (!isDigit(line[at])) return -1;
    while (isDigit(line[at])) at++;
  }
  return at;
}

function literalEnd(line: Uint8Array, at: number): number {
  outer: for (const word of LITERALS) {
    for (let i = 0; i < word.length; i++) if (line[at + i] !== word[i]) continue outer;
    return at + word.length;
  }
  return -1;
}

/**
 * Where the value at `at` ends (its containers opening at `depth`), its structure checked; -1 when it is not
 * well formed or nests past `maxDepth`. One loop over the bytes with the open containers on a stack and the
 * place in a local: most of a line's bytes are in the values stepped over (tool results, answers).
 */
function skipValue(line: Uint8Array, at: number, depth: number, maxDepth: number): number {
  if (closers.length <= maxDepth) closers = new Uint8Array(maxDepth + 1);
  let top = 0;
  for (;;) {
    // At a value; in an object, at the member's key first.
    const byte = line[at];
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth + top > maxDepth) return -1;
      const close = byte === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      at = spaceEnd(line, at + 1);
      if (line[at] !== close) {
        closers[top++] = close;
        if (close === CLOSE_OBJECT && (at = keyEnd(line, at)) < 0) return -1;
        continue;
      }
      at++;
    } else if ((at = scalarEnd(line, at)) < 0) return -1;
    // After a value: close what it ends, or go on to the next item.
    for (;;) {
      if (top === 0) return at;
      at = spaceEnd(line, at);
      const next = line[at++];
      if (next === closers[top - 1]) top--;
      else if (next !== COMMA) return -1;
      else {
        at = spaceEnd(line, at);
        if (closers[top - 1] === CLOSE_OBJECT && (at = keyEnd(line, at)) < 0) return -1;
        break;
      }
    }
  }
}

/** Where the string, number or literal at `at` ends, or -1. */
function scalarEnd(line: Uint8Array, at: number): number {
  const byte = line[at];
  if (byte === QUOTE) return stringEnd(line, at);
  return byte === 0x2d || isDigit(byte) ? numberEnd(line, at) : literalEnd(line, at);
}

function spaceEnd(line: Uint8Array, at: number): number {
  while (isJsonSpace(line[at])) at++;
  return at;
}

/** Past a member's key (a string), its colon and the space after it: where its value starts, or -1. */
function keyEnd(line: Uint8Array, at: number): number {
  if (line[at] !== QUOTE) return -1;
  at = stringEnd(line, at);
  if (at < 0) return -1;
  at = spaceEnd(line, at);
  return line[at] === COLON ? spaceEnd(line, at + 1) : -1;
}

class LineScan {
  private at = 0;
  constructor(
    private readonly line: Uint8Array,
    private readonly fast: FastLines,
    private readonly maxDepth: number,
  ) {}

  /** The line's record reduced to the keys the walk reads. */
  record(): JsonObject {
    this.at = spaceEnd(this.line, 0);
    const view: JsonObject = {};
    let content: Span | null = null;
    if (this.openObject(1)) {
      do {
        const key = this.memberKey(LINE_KEYS);
        if (key < 0) this.skip(2);
        else if (key === MESSAGE) content = this.message(view);
        else view[LINE_KEYS.names[key]!] = AGENT_HOLDER_KEYS.has(key) ? this.agentOnly() : this.valueAfter(this.at, 2, key);
      } while (this.nextMember());
    }
    if (spaceEnd(this.line, this.at) !== this.line.length) throw NOT_SCANNED;
    // A Task result's link (linkSubagent) reads the message's tool_result block.
    const result = view['toolUseResult'] as JsonObject | null | undefined;
    const message = view['message'] as JsonObject | null | undefined;
    if (typeof result?.['agentId'] === 'string' && content !== null && message) message['content'] = this.valueOf(content.start, content.end);
    return view;
  }

  /**
   * `message` into `view`: of an object its id, model and usage (anything else reads as null); gives where its
   * content is.
   */
  private message(view: JsonObject): Span | null {
    if (this.line[this.at] !== OPEN_OBJECT) {
      this.skip(2);
      view['message'] = null;
      return null;
    }
    const kept: JsonObject = {};
    view['message'] = kept;
    let content: Span | null = null;
    if (this.openObject(2)) {
      do {
        const key = this.memberKey(MESSAGE_KEYS);
        const start = this.at;
        if (key < 0) this.skip(3);
        else if (key !== CONTENT) kept[MESSAGE_KEYS.names[key]!] = this.valueAfter(start, 3, MESSAGE_SLOTS + key);
        else {
          this.skip(3);
          content = { start, end: this.at };
        }
      } while (this.nextMember());
    }
    return content;
  }

  /** `toolUseResult` / `data`: of an object its agentId alone; anything else reads as null (the walk reads neither). */
  private agentOnly(): JsonObject | null {
    if (this.line[this.at] !== OPEN_OBJECT) {
      this.skip(2);
      return null;
    }
    const kept: JsonObject = {};
    if (this.openObject(2)) {
      do {
        if (this.memberKey(AGENT_KEYS) < 0) this.skip(3);
        else kept['agentId'] = this.valueAfter(this.at, 3);
      } while (this.nextMember());
    }
    return kept;
  }

  /**
   * Steps into the object at the scan's place, whose containers open at `depth`: whether it has a member (the scan
   * then at its key) or is empty (the scan past it). A loop over members, not a callback per member: a line's
   * closures cost as much as the scan of its keys.
   */
  private openObject(depth: number): boolean {
    if (this.line[this.at] !== OPEN_OBJECT || depth > this.maxDepth) throw NOT_SCANNED;
    this.at = spaceEnd(this.line, this.at + 1);
    if (this.line[this.at] !== CLOSE_OBJECT) return true;
    this.at++;
    return false;
  }

  /** A member's key (its index in `keys`, or -1) and the colon after it. */
  private memberKey(keys: KeyTable): number {
    const key = this.key(keys);
    this.at = spaceEnd(this.line, this.at);
    if (this.line[this.at] !== COLON) throw NOT_SCANNED;
    this.at = spaceEnd(this.line, this.at + 1);
    return key;
  }

  /** After a member's value: a comma and the next member (true, the scan at its key), or the object closed (false, the scan past it). */
  private nextMember(): boolean {
    this.at = spaceEnd(this.line, this.at);
    const next = this.line[this.at++];
    if (next === CLOSE_OBJECT) return false;
    if (next !== COMMA) throw NOT_SCANNED;
    this.at = spaceEnd(this.line, this.at);
    return true;
  }

  /** A key: its index in `keys`, or -1. A key with an escape or a control character goes to the plain parse. */
  private key(keys: KeyTable): number {
    const { line } = this;
    if (line[this.at] !== QUOTE) throw NOT_SCANNED;
    const start = this.at + 1;
    // Keys are short: a byte loop finds the closing quote sooner than a call to the native search would.
    let end = start;
    for (let b = line[end]; b !== QUOTE; b = line[++end]) if (b === undefined || b < 0x20 || b === BACKSLASH) throw NOT_SCANNED;
    this.at = end + 1;
    return keys.find(line, start, end);
  }

  /** Steps over one value whose containers open at `depth`, checking its structure. */
  private skip(depth: number): void {
    const end = skipValue(this.line, this.at, depth, this.maxDepth);
    if (end < 0) throw NOT_SCANNED;
    this.at = end;
  }

  /** The value starting at `start` (the scan's place), stepped over and built. */
  private valueAfter(start: number, depth: number, slot = -1): unknown {
    this.skip(depth);
    return this.valueOf(start, this.at, slot);
  }

  /**
   * The value in bytes[start, end), as JSON.parse gives it: a literal from its first byte (its spelling is checked),
   * a string without escapes as its text, no parse. `slot` names the key it is the value of: an ASCII string equal
   * to the last one read there (a session id, a model, a line type: the same line after line) is that string again.
   */
  private valueOf(start: number, end: number, slot = -1): unknown {
    const { line } = this;
    const first = line[start];
    if (first === QUOTE) {
      let plain = true;
      for (let i = start + 1; i < end - 1 && plain; i++) plain = line[i]! >= 0x20 && line[i] !== BACKSLASH;
      if (plain) return slot < 0 ? this.fast.text(line, start + 1, end - 1) : this.repeated(slot, start + 1, end - 1);
    } else if (first === 0x74) return true;
    else if (first === 0x66) return false;
    else if (first === 0x6e) return null;
    try {
      return JSON.parse(this.fast.text(line, start, end)) as unknown;
    } catch {
      // A value the walk reads holds a bad escape or a control character: the plain parse says where.
      throw NOT_SCANNED;
    }
  }

  /** The text of bytes[start, end) (no escape in it), the last text of `slot` when it is the same ASCII text. */
  private repeated(slot: number, start: number, end: number): string {
    const { line } = this;
    const last = lastTexts[slot];
    if (last !== undefined && last.length === end - start) {
      let same = true;
      for (let i = 0; i < last.length && same; i++) same = line[start + i]! < 0x80 && line[start + i] === last.charCodeAt(i);
      if (same) return last;
    }
    const text = this.fast.text(line, start, end);
    lastTexts[slot] = text;
    return text;
  }
}

/** Per key slot (line keys, then message keys), the last text read there: one string per key the walk reads. */
const lastTexts: (string | undefined)[] = [];

/**
 * The keys of a Claude Code line that the walk reads, with the values a parse of the decoded line gives them; null
 * when the scan cannot read the line exactly (parse it the plain way: it reports why).
 */
export function scanWalkView(line: Uint8Array, fast: FastLines, maxDepth: number): JsonObject | null {
  if (!fast.validUtf8(line)) return null;
  try {
    return new LineScan(line, fast, maxDepth).record();
  } catch (error) {
    if (error === NOT_SCANNED) return null;
    throw error;
  }
}
