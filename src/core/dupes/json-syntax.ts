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

/** UTF-16 index of the first character that makes `text` invalid JSON (text.length if it ends too early), or -1. */
export function firstJsonSyntaxError(text: string): number {
  const n = text.length;
  let i = 0;
  const containers: ('object' | 'array')[] = [];
  const skipSpace = (): void => {
    while (i < n && SPACE.has(text.charCodeAt(i))) i++;
  };
  /** Consumes a string starting at the quote under `i`; false when it is malformed (i stays on the fault). */
  const scanString = (): boolean => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text.charCodeAt(i + 1);
        if (e === 0x75) {
          for (let k = 2; k <= 5; k++) {
            if (!isHex(text.charCodeAt(i + k))) {
              i += k;
              return false;
            }
          }
          i += 6;
        } else if ('"\\/bfnrt'.includes(text.charAt(i + 1)) && i + 1 < n) i += 2;
        else {
          i++;
          return false;
        }
      } else i++;
    }
    return false;
  };
  const scanDigits = (): boolean => {
    const start = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    return i > start;
  };
  const scanNumber = (): boolean => {
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (!scanDigits()) return false;
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      if (!scanDigits()) return false;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!scanDigits()) return false;
    }
    return true;
  };

  let state: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    skipSpace();
    if (state === 'value') {
      const c = text.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) {
        i++;
        skipSpace();
        if (text.charCodeAt(i) === (c === 0x7b ? 0x7d : 0x5d)) {
          i++;
          state = 'after';
        } else {
          containers.push(c === 0x7b ? 'object' : 'array');
          state = c === 0x7b ? 'key' : 'value';
        }
        continue;
      }
      if (c === 0x22) {
        if (!scanString()) return i;
      } else if (c === 0x2d || isDigit(c)) {
        if (!scanNumber()) return i;
      } else {
        const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i));
        if (literal === undefined) return i;
        i += literal.length;
      }
      state = 'after';
    } else if (state === 'key') {
      if (text.charCodeAt(i) !== 0x22 || !scanString()) return i;
      skipSpace();
      if (text.charCodeAt(i) !== 0x3a) return i;
      i++;
      state = 'value';
    } else {
      const top = containers[containers.length - 1];
      if (top === undefined) return i < n ? i : -1;
      const c = text.charCodeAt(i);
      if (c === 0x2c) {
        i++;
        state = top === 'object' ? 'key' : 'value';
      } else if (c === (top === 'object' ? 0x7d : 0x5d)) {
        i++;
        containers.pop();
      } else return i;
    }
  }
}
