// Where a JSON text first goes wrong, and what was expected there. Used only after JSON.parse has refused a text:
// engines' messages differ (some give no position, some quote the input), and an error must be located without
// repeating payload text. Iterative (explicit stack), so it is safe on any nesting.

export interface SyntaxProblem {
  /** Character offset of the first offending character (text.length when the text ends too early). */
  offset: number;
  /** What went wrong, in words that never include the input text. */
  message: string;
}

type Expect = 'value' | 'key-or-end' | 'key' | 'colon' | 'comma-or-end' | 'value-or-end';

export function findJsonSyntaxError(text: string): SyntaxProblem | null {
  const scan: Scan = { text, i: skipSpace(text, 0), stack: [], expect: 'value', done: false };
  while (scan.i < text.length) {
    if (scan.done) return { offset: scan.i, message: 'more text after the end of the JSON value' };
    const problem = STEPS[scan.expect](scan, text[scan.i]!);
    if (problem !== null) return problem;
    if (scan.expect === 'comma-or-end' && scan.stack.length === 0) scan.done = true;
    scan.i = skipSpace(text, scan.i);
  }
  if (!scan.done || scan.stack.length > 0) return { offset: text.length, message: 'the text ends before the JSON does' };
  return null;
}

/** Where the scan is: the offset, the open containers, what may come next, whether the top-level value ended. */
interface Scan {
  readonly text: string;
  i: number;
  readonly stack: ('{' | '[')[];
  expect: Expect;
  done: boolean;
}

/** Reads what `scan.expect` allows at `c` (the character at scan.i) and moves on; a problem when it is not there. */
type Step = (scan: Scan, c: string) => SyntaxProblem | null;

const STEPS: Record<Expect, Step> = {
  value: valueStep,
  'value-or-end': valueStep,
  key: keyStep,
  'key-or-end': keyStep,
  colon: colonStep,
  'comma-or-end': commaOrEndStep,
};

/** Closes the innermost container on its closing character. */
function closeContainer(scan: Scan): null {
  scan.stack.pop();
  scan.i++;
  scan.expect = 'comma-or-end';
  return null;
}

function valueStep(scan: Scan, c: string): SyntaxProblem | null {
  if (scan.expect === 'value-or-end' && c === ']') return closeContainer(scan);
  if (c === '{' || c === '[') {
    scan.stack.push(c);
    scan.expect = c === '{' ? 'key-or-end' : 'value-or-end';
    scan.i++;
    return null;
  }
  return moveTo(scan, scanScalar(scan.text, scan.i), 'comma-or-end');
}

function keyStep(scan: Scan, c: string): SyntaxProblem | null {
  if (scan.expect === 'key-or-end' && c === '}') return closeContainer(scan);
  if (c !== '"') return { offset: scan.i, message: `expected a double-quoted property name, found ${describeCharacter(c)}` };
  return moveTo(scan, scanString(scan.text, scan.i), 'colon');
}

/** Moves past a scanned token to what may follow it, or hands on the problem the scan found. */
function moveTo(scan: Scan, end: number | SyntaxProblem, expect: Expect): SyntaxProblem | null {
  if (typeof end !== 'number') return end;
  scan.i = end;
  scan.expect = expect;
  return null;
}

function colonStep(scan: Scan, c: string): SyntaxProblem | null {
  if (c !== ':') return { offset: scan.i, message: `expected ':' after a property name, found ${describeCharacter(c)}` };
  scan.i++;
  scan.expect = 'value';
  return null;
}

function commaOrEndStep(scan: Scan, c: string): SyntaxProblem | null {
  const top = scan.stack[scan.stack.length - 1];
  if (top === undefined) {
    scan.done = true;
    return null;
  }
  const close = top === '{' ? '}' : ']';
  if (c === ',') {
    scan.expect = top === '{' ? 'key' : 'value';
    scan.i++;
  } else if (c === close) {
    scan.stack.pop();
    scan.i++;
  } else return { offset: scan.i, message: `expected ',' or '${close}', found ${describeCharacter(c)}` };
  return null;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

function scanScalar(text: string, i: number): number | SyntaxProblem {
  const c = text[i]!;
  if (c === '"') return scanString(text, i);
  for (const word of ['true', 'false', 'null']) {
    if (text.startsWith(word, i)) return i + word.length;
  }
  const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
  if (number && number[0] !== '' && number[0] !== '-') return i + number[0].length;
  return { offset: i, message: `expected a value, found ${describeCharacter(c)}` };
}

function scanString(text: string, start: number): number | SyntaxProblem {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return { offset: i, message: 'unescaped control character in a string' };
    if (c === 0x5c) {
      const next = text[i + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { offset: i, message: 'invalid \\u escape in a string' };
        i += 6;
        continue;
      }
      if (next === undefined || !'"\\/bfnrt'.includes(next)) return { offset: i, message: 'invalid escape sequence in a string' };
      i += 2;
      continue;
    }
    i++;
  }
  return { offset: text.length, message: 'the text ends before the JSON does (unterminated string)' };
}

/** A structural character by name; anything else only by its class, so no payload leaks into messages. */
export function describeCharacter(c: string): string {
  if ('{}[],:"'.includes(c)) return `'${c}'`;
  if (/[A-Za-z]/.test(c)) return 'a letter';
  if (/[0-9]/.test(c)) return 'a digit';
  return `character U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
