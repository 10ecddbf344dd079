// The reusing JSONL parser must give exactly what JSON.parse gives, refuse exactly what it refuses (so the plain
// path reports the error), and hand back the same object for an item an earlier line already sent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResentJsonParser, type ResentJsonOptions } from '../../src/core/input/resent-json.ts';
import { lineDamage, resentLineSpecs, resentLogLines } from '../fuzz/arbitraries.ts';

const DEPTH = 512;

/** Parses the lines in order with one parser and one file, as a read does. */
function parseLines(lines: readonly string[], options: ResentJsonOptions = {}, maxDepth = DEPTH): unknown[] {
  const file = new ResentJsonParser(options).forFile();
  return lines.map((line) => file.parse(line, maxDepth));
}

/** JSON.parse, or undefined where it throws. */
function reference(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

const long = (tag: string) => `synthetic ${tag}: ${'lorem ipsum dolor sit amet '.repeat(8)}`;
const message = (role: string, tag: string) => ({ role, content: [{ type: 'text', text: long(tag) }] });

/** A synthetic agent loop: every line resends the history and adds one exchange. */
function loop(name: string, turns: number, wrap = (body: unknown) => body): string[] {
  const messages: unknown[] = [message('user', `${name} task`)];
  const lines: string[] = [];
  for (let t = 0; t < turns; t++) {
    lines.push(JSON.stringify(wrap({ model: 'claude-sonnet-4-5', max_tokens: 100, system: long('system'), messages })));
    messages.push(message('assistant', `${name} step ${t}`), message('user', `${name} result ${t}`));
  }
  return lines;
}

describe('ResentJsonParser', () => {
  it('gives what JSON.parse gives, and the same object for every resent message', () => {
    const lines = loop('a', 6);
    const parsed = parseLines(lines) as { messages: unknown[] }[];
    expect(parsed).toEqual(lines.map((line) => JSON.parse(line)));
    for (const body of parsed.slice(1)) expect(body.messages[0]).toBe(parsed[0]!.messages[0]);
    expect(parsed[5]!.messages[3]).toBe(parsed[2]!.messages[3]);
  });

  it('reuses short resent messages too (a brief reply, a one-line tool result), and parses the shortest anew', () => {
    // SYNTHETIC: each exchange is a ~90-character reply and a ~110-character tool result, then a 28-character "ok".
    const reply = (t: number) => ({ role: 'assistant', content: [{ type: 'text', text: `Reading file ${t} now.` }] });
    const result = (t: number) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${t}`, content: `line ${t}` }] });
    const messages: unknown[] = [{ role: 'user', content: 'ok' }];
    const lines: string[] = [];
    for (let t = 0; t < 4; t++) {
      messages.push(reply(t), result(t));
      lines.push(JSON.stringify({ model: 'claude-sonnet-4-5', messages }));
    }
    expect(JSON.stringify(reply(0)).length).toBeLessThan(128);
    expect(JSON.stringify(messages[0]).length).toBeLessThan(64);
    const parser = new ResentJsonParser();
    const file = parser.forFile();
    const parsed = lines.map((line) => file.parse(line, DEPTH)) as { messages: unknown[] }[];
    expect(parsed).toEqual(lines.map((line) => JSON.parse(line)));
    expect(parsed[3]!.messages[1]).toBe(parsed[0]!.messages[1]);
    expect(parsed[3]!.messages[2]).toBe(parsed[0]!.messages[2]);
    expect(parsed[3]!.messages[0]).not.toBe(parsed[0]!.messages[0]);
    // The last line resends the three exchanges before its own: 6 messages, counted by their text (less the
    // brackets and the 5 commas between them).
    expect(parser.lastReusedChars).toBe(JSON.stringify(messages.slice(1, 7)).length - 2 - 5);
  });

  it('finds resent items of interleaved conversations inside gateway records by their text', () => {
    const a = loop('a', 5, (request) => ({ timestamp: '2026-01-01T00:00:00Z', request }));
    const b = loop('b', 5, (request) => ({ timestamp: '2026-01-01T00:00:00Z', request }));
    const lines = a.flatMap((line, i) => [line, b[i]!]);
    const parsed = parseLines(lines) as { request: { messages: unknown[] } }[];
    expect(parsed).toEqual(lines.map((line) => JSON.parse(line)));
    // Line 8 is a's fifth turn: its first message was last seen on line 6, with b's line in between.
    expect(parsed[8]!.request.messages[0]).toBe(parsed[0]!.request.messages[0]);
    expect(parsed[9]!.request.messages[2]).toBe(parsed[3]!.request.messages[2]);
  });

  it('keeps key order, duplicate keys, "__proto__" keys, escapes and whitespace exactly as JSON.parse does', () => {
    const item = `{"__proto__": {"polluted": true}, "b": "${long('x')}", "a": 1, "b": 2, "1": "one", "k\\u00e9y": "\\ud800"}`;
    const lines = [`{ "items" : [ ${item} , ${item} ] , "n" : -1.5e3 }`, `{"items":[${item}],"z":null,"t":true}`, `[${item}, ${item}]`, '"top"', '  42  ', '{"__proto__":{"polluted":true},"1":[],"a":{"__proto__":null}}'];
    const parsed = parseLines(lines);
    lines.forEach((line, i) => {
      expect(JSON.stringify(parsed[i])).toBe(JSON.stringify(JSON.parse(line)));
      expect(parsed[i]).toEqual(JSON.parse(line));
    });
    const first = (parsed[0] as { items: Record<string, unknown>[] }).items[0]!;
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect(Object.keys(first)).toEqual(['1', '__proto__', 'b', 'a', 'kéy']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // At the levels the parser walks itself (not handed to JSON.parse whole), too.
    const walked = parsed.at(-1) as Record<string, unknown>;
    expect(Object.keys(walked)).toEqual(['1', '__proto__', 'a']);
    expect(Object.getPrototypeOf(walked)).toBe(Object.prototype);
  });

  it('refuses every line JSON.parse refuses, including around a resent item', () => {
    const [first, second] = loop('c', 2);
    const head = second!.slice(0, second!.indexOf('"messages":[') + '"messages":['.length);
    const resent = JSON.stringify(message('user', 'c task'));
    const bad = [
      `${head}${resent},]}`, // trailing comma
      `${head}${resent} ${resent}]}`, // missing comma
      `${head}${resent}x]}`, // garbage right after a resent item
      `${head}${resent.slice(0, -1)}]}`, // a resent item cut short
      `${head}${resent}]`, // unclosed object
      `${head}${resent}]}}`, // extra bracket
      '{"a":[1,2,3],"b":tru}',
      '{"a":"unterminated}',
      '{"a" 1}',
      '{a:1}',
      '{"a":1,}',
      '{"a":01}',
      '{"a":"tab\there"}',
      '{"a":[1 2]}',
      '',
      '   ',
    ];
    const results = parseLines([first!, ...bad]);
    expect(results[0]).toEqual(JSON.parse(first!));
    bad.forEach((line, i) => {
      expect(reference(line), line).toBeUndefined();
      expect(results[i + 1], line).toBeUndefined();
    });
  });

  it('applies the nesting limit to resent items at their new depth', () => {
    const item = JSON.stringify({ a: [[long('deep')]] }); // 3 levels
    const shallow = `{"x":[${item}]}`; // 5 levels
    const deeper = `{"y":{"x":[${item}]}}`; // 6 levels
    expect(parseLines([shallow, deeper], {}, 5)).toEqual([JSON.parse(shallow), undefined]);
    expect(parseLines([shallow, deeper], {}, 6)).toEqual([JSON.parse(shallow), JSON.parse(deeper)]);
    expect(parseLines(['[[[1]]]'], {}, 2)).toEqual([undefined]);
    // B follows A in the first line, so in the second it is expected after A and taken without being looked up.
    const a = JSON.stringify({ t: long('shallow') });
    const b = JSON.stringify({ a: [[long('deep')]] });
    const [first, second] = [`{"x":[${a},${b}]}`, `{"y":{"x":[${a},${b}]}}`];
    expect(parseLines([first, second], {}, 5)).toEqual([JSON.parse(first), undefined]);
  });

  it('gives the same values when it may remember almost nothing, or an item is larger than all it may remember', () => {
    const lines = loop('d', 8);
    expect(parseLines(lines, { maxRememberedChars: 300 })).toEqual(lines.map((line) => JSON.parse(line)));
    const huge = JSON.stringify({ type: 'image', data: 'A'.repeat(1000) });
    const withHuge = [`{"messages":[${huge}]}`, `{"messages":[${huge},${huge}]}`];
    expect(parseLines(withHuge, { maxRememberedChars: 300 })).toEqual(withHuge.map((line) => JSON.parse(line)));
  });

  it('stays exact when every line puts its arrays under new keys (the table of places is emptied now and then)', () => {
    const item = JSON.stringify(message('user', 'shared'));
    const lines = Array.from({ length: 5000 }, (_, i) => `{"key${i}":[${item},${item}]}`);
    const parsed = parseLines(lines);
    expect(parsed).toEqual(lines.map((line) => JSON.parse(line)));
    expect((parsed[4999] as Record<string, unknown[]>)['key4999']![0]).toBe((parsed[0] as Record<string, unknown[]>)['key0']![0]);
  });

  it('stops trying for the rest of a file whose lines resend too little', () => {
    const unique = Array.from({ length: 40 }, (_, i) => JSON.stringify({ messages: [message('user', `unique ${i}`)] }));
    const results = parseLines(unique, { trialChars: 2000 });
    expect(results[0]).toEqual(JSON.parse(unique[0]!));
    expect(results.at(-1)).toBeUndefined(); // the caller parses it the plain way
    // A repeating file keeps it on.
    const repeating = Array.from({ length: 40 }, () => unique[0]!);
    expect(parseLines(repeating, { trialChars: 2000 }).at(-1)).toEqual(JSON.parse(unique[0]!));
  });

  it('equals JSON.parse on generated logs and their damaged copies (property test)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ' ', '"', '\\', '\n', 'é', '\ud83d\ude00', '{', ']', ','), minLength: 0, maxLength: 40 });
    const block = fc.record({ type: fc.constantFrom('text', 'tool_result'), text: text.map((t) => long(t)), n: fc.integer() });
    const poolItem = fc.oneof(block, fc.array(block, { maxLength: 2 }), text.map((t) => long(t)), fc.constant(null));
    fc.assert(
      fc.property(fc.array(poolItem, { minLength: 1, maxLength: 6 }), resentLineSpecs, lineDamage, (pool, specs, damage) => {
        const lines = resentLogLines(pool, specs, damage);
        const parsed = parseLines(lines);
        lines.forEach((line, i) => {
          const expected = reference(line);
          if (expected === undefined) expect(parsed[i]).toBeUndefined();
          else expect(JSON.stringify(parsed[i])).toBe(JSON.stringify(expected));
        });
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});
