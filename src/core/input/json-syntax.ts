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
  const stack: ('{' | '[')[] = [];
  let expect: Expect = 'value';
  let i = skipSpace(text, 0);
  let done = false;
  while (i < text.length) {
    const c = text[i]!;
    if (done) return { offset: i, message: 'more text after the end of the JSON value' };
    switch (expect) {
      case 'value':
      case 'value-or-end': {
        if (expect === 'value-or-end' && c === ']') {
          stack.pop();
          i++;
          expect = 'comma-or-end';
          break;
        }
        if (c === '{' || c === '[') {
          stack.push(c);
          expect = c === '{' ? 'key-or-end' : 'value-or-end';
          i++;
          break;
        }
        const end = scanScalar(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        expect = 'comma-or-end';
        break;
      }
      case 'key':
      case 'key-or-end': {
        if (expect === 'key-or-end' && c === '}') {
          stack.pop();
          i++;
          expect = 'comma-or-end';
          break;
        }
        if (c !== '"') return { offset: i, message: `expected a double-quoted property name, found ${describeCharacter(c)}` };
        const end = scanString(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        expect = 'colon';
        break;
      }
      case 'colon':
        if (c !== ':') return { offset: i, message: `expected ':' after a property name, found ${describeCharacter(c)}` };
        i++;
        expect = 'value';
        break;
      case 'comma-or-end': {
        const top = stack[stack.length - 1];
        if (top === undefined) {
          done = true;
          continue;
        }
        const close = top === '{' ? '}' : ']';
        if (c === ',') {
          expect = top === '{' ? 'key' : 'value';
          i++;
        } else if (c === close) {
          stack.pop();
          i++;
        } else return { offset: i, message: `expected ',' or '${close}', found ${describeCharacter(c)}` };
        break;
      }
    }
    if (expect === 'comma-or-end' && stack.length === 0) done = true;
    i = skipSpace(text, i);
  }
  if (!done || stack.length > 0) return { offset: text.length, message: 'the text ends before the JSON does' };
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
