// Where a JSON text first breaks the grammar (RFC 8259). JSON.parse only says that it failed, and in some engines
// its message quotes the input, so this locates the error without echoing anything. Iterative: the depth cap has
// been enforced before this runs, but a loop with an explicit stack never depends on that.

const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The text being checked and the index of the next character. */
interface Cursor {
  readonly text: string;
  readonly n: number;
  i: number;
  /** Containers open at `i`, innermost last. */
  readonly containers: ('object' | 'array')[];
}

/** UTF-16 index of the first character that makes `text` invalid JSON (text.length if it ends too early), or -1. */
export function firstJsonSyntaxError(text: string): number {
  const at: Cursor = { text, n: text.length, i: 0, containers: [] };
  let state: State = 'value';
  for (;;) {
    skipSpace(at);
    const next: State | number = STATES[state](at);
    if (typeof next === 'number') return next;
    state = next;
  }
}

type State = 'value' | 'key' | 'after';

/** Reads what the state allows at the cursor: the next state, or the offset of the fault (-1: valid, ended). */
const STATES: Record<State, (at: Cursor) => State | number> = { value: readValue, key: readKey, after: readAfter };

function readValue(at: Cursor): State | number {
  const { text } = at;
  const c = text.charCodeAt(at.i);
  if (c === 0x7b || c === 0x5b) {
    at.i++;
    skipSpace(at);
    if (text.charCodeAt(at.i) === (c === 0x7b ? 0x7d : 0x5d)) {
      at.i++;
      return 'after';
    }
    at.containers.push(c === 0x7b ? 'object' : 'array');
    return c === 0x7b ? 'key' : 'value';
  }
  if (c === 0x22) {
    if (!scanString(at)) return at.i;
  } else if (c === 0x2d || isDigit(c)) {
    if (!scanNumber(at)) return at.i;
  } else {
    const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, at.i));
    if (literal === undefined) return at.i;
    at.i += literal.length;
  }
  return 'after';
}

function readKey(at: Cursor): State | number {
  if (at.text.charCodeAt(at.i) !== 0x22 || !scanString(at)) return at.i;
  skipSpace(at);
  if (at.text.charCodeAt(at.i) !== 0x3a) return at.i;
  at.i++;
  return 'value';
}

function readAfter(at: Cursor): State | number {
  const top = at.containers[at.containers.length - 1];
  if (top === undefined) return at.i < at.n ? at.i : -1;
  const c = at.text.charCodeAt(at.i);
  if (c === 0x2c) {
    at.i++;
    return top === 'object' ? 'key' : 'value';
  }
  if (c === (top === 'object' ? 0x7d : 0x5d)) {
    at.i++;
    at.containers.pop();
    return 'after';
  }
  return at.i;
}

function skipSpace(at: Cursor): void {
  while (at.i < at.n && SPACE.has(at.text.charCodeAt(at.i))) at.i++;
}

/** Consumes a string starting at the quote under the cursor; false when it is malformed (the cursor on the fault). */
function scanString(at: Cursor): boolean {
  const { text, n } = at;
  at.i++;
  while (at.i < n) {
    const c = text.charCodeAt(at.i);
    if (c === 0x22) {
      at.i++;
      return true;
    }
    if (c < 0x20) return false;
    if (c !== 0x5c) at.i++;
    else if (!scanEscape(at)) return false;
  }
  return false;
}

/** Consumes the escape whose backslash is under the cursor; false when it is malformed (the cursor on the fault). */
function scanEscape(at: Cursor): boolean {
  const { text, n, i } = at;
  if (text.charCodeAt(i + 1) === 0x75) {
    for (let k = 2; k <= 5; k++) {
      if (!isHex(text.charCodeAt(i + k))) {
        at.i += k;
        return false;
      }
    }
    at.i += 6;
    return true;
  }
  if ('"\\/bfnrt'.includes(text.charAt(i + 1)) && i + 1 < n) {
    at.i += 2;
    return true;
  }
  at.i++;
  return false;
}

function scanDigits(at: Cursor): boolean {
  const start = at.i;
  while (at.i < at.n && isDigit(at.text.charCodeAt(at.i))) at.i++;
  return at.i > start;
}

function scanNumber(at: Cursor): boolean {
  const { text } = at;
  if (text.charCodeAt(at.i) === 0x2d) at.i++;
  if (text.charCodeAt(at.i) === 0x30) at.i++;
  else if (!scanDigits(at)) return false;
  if (text.charCodeAt(at.i) === 0x2e) {
    at.i++;
    if (!scanDigits(at)) return false;
  }
  const e = text.charCodeAt(at.i);
  if (e === 0x65 || e === 0x45) {
    at.i++;
    const sign = text.charCodeAt(at.i);
    if (sign === 0x2b || sign === 0x2d) at.i++;
    if (!scanDigits(at)) return false;
  }
  return true;
}
