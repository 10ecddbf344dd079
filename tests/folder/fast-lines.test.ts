// The usage pass's lines scanned instead of parsed whole (src/core/folder/claude-line.ts, the CLI's NODE_FAST_LINES):
// the pass gives exactly what it gives parsing every line — files, calls, models, errors, dropped copies — on every
// real Claude Code fixture and on SYNTHETIC lines built to look skippable without being so (a cut-off line, invalid
// UTF-8 deep inside a tool result, a key the walk reads holding non-ASCII text, duplicate and escaped keys, a Task
// result's link, nesting past the limit, blank lines of non-ASCII spaces). The one difference, by design: damage
// inside a string the scan steps over (a raw control character, a bad escape) is reported by the full read only.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUtf8 } from 'node:buffer';
import { readSessionUsage, type UsageReadOptions } from '../../src/core/folder/usage-pass.ts';
import { NODE_FAST_LINES } from '../../src/cli/fs/usage-inputs.ts';
import { scanWalkView, WALK_LINE_KEYS, WALK_MESSAGE_KEYS, type FastLines } from '../../src/core/folder/claude-line.ts';
import { isObject, type JsonObject } from '../../src/core/input/json-value.ts';
import { SeenCalls } from '../../src/core/input/seen-calls.ts';

const real = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/claude-code');
const present = fs.existsSync(real);
const fixtures = present ? fs.readdirSync(real).filter((name) => name.endsWith('.jsonl')).sort() : [];

/** NODE_FAST_LINES, counting the lines given to the scan. */
function counted(): FastLines & { lines: number } {
  const fast = {
    lines: 0,
    validUtf8: (bytes: Uint8Array) => {
      fast.lines++;
      return NODE_FAST_LINES.validUtf8(bytes);
    },
    text: NODE_FAST_LINES.text,
  };
  return fast;
}

async function bothWays(files: { name: string; bytes: Uint8Array }[], options: UsageReadOptions = {}) {
  const input = () => files.map((file) => ({ ...file, bytes: file.bytes.slice() }));
  const fast = counted();
  const plain = await readSessionUsage(input(), { ...options, seenCalls: new SeenCalls() });
  const quick = await readSessionUsage(input(), { ...options, seenCalls: new SeenCalls(), fastLines: fast });
  return { plain, quick, fastLines: fast.lines };
}

const bytesOf = (text: string) => new TextEncoder().encode(text);

describe.skipIf(!present)('the usage pass with the line scan, on the real Claude Code fixtures', () => {
  it.each(fixtures)('%s: the same read as parsing every line', async (name) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(real, name)));
    const { plain, quick, fastLines } = await bothWays([{ name, bytes }]);
    expect(plain).not.toBeNull();
    expect(quick).toEqual(plain);
    // Every line past the first records (the detection's) went to the scan.
    expect(fastLines).toBeGreaterThan(0);
  });
});

/** SYNTHETIC: a Claude Code session of a user task and two calls, with `extra` lines after the first eight records. */
function session(extra: string[]): string {
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: '/synthetic', sessionId: 'synthetic-session', version: '2.1.38' };
  const user = (n: number, content: unknown) => JSON.stringify({ ...base, type: 'user', message: { role: 'user', content }, uuid: `u${n}`, timestamp: `2026-01-01T00:00:0${n}.000Z` });
  const assistant = (n: number) =>
    JSON.stringify({
      ...base,
      type: 'assistant',
      requestId: `req_${n}`,
      message: { model: 'claude-sonnet-4-5-20250929', id: `msg_${n}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: `answer ${n} — ok` }], usage: { input_tokens: 10 * n, cache_read_input_tokens: 100 * n, cache_creation_input_tokens: 5, output_tokens: 7 } },
      uuid: `a${n}`,
      timestamp: `2026-01-01T00:00:0${n}.500Z`,
    });
  const head = [user(1, 'task'), assistant(1), user(2, [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }]), assistant(2), user(3, 'more'), assistant(3), user(4, 'again'), assistant(4)];
  return [...head, ...extra].join('\n') + '\n';
}

const big = 'line of a file → ünïcödé\\n'.repeat(2000);
const userLine = (fields: string) => `{"type":"user","sessionId":"synthetic-session","isSidechain":false,"uuid":"x","timestamp":"2026-01-01T00:00:09.000Z",${fields}}`;
const assistantLine = (n: number, fields = '') =>
  `{"type":"assistant","sessionId":"synthetic-session","isSidechain":false,"requestId":"req_${n}","uuid":"y${n}","timestamp":"2026-01-01T00:00:09.500Z",${fields}"message":{"model":"claude-sonnet-4-5-20250929","id":"msg_${n}","role":"assistant","content":[{"type":"text","text":"${big}"}],"usage":{"input_tokens":3,"cache_read_input_tokens":40,"output_tokens":2}}}`;

describe('the usage pass with the line scan, on lines that look skippable (SYNTHETIC)', () => {
  const cases: [string, string[]][] = [
    ['a large tool result', [userLine(`"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"${big}"}]}`), assistantLine(10)]],
    ['a raw tab in a time stamp the walk reads', [userLine(`"message":{"role":"user","content":"x"}`).replace('T00:00:09', 'T00:00\t09'), assistantLine(11)]],
    ['a bad escape in a model id', [assistantLine(12).replace('claude-sonnet', 'claude\\x-sonnet')]],
    ['broken structure around a large string', [userLine(`"message":{"role":"user","content":["${big}" "${big}"]}`), userLine(`"message":{"role":"user","content":{"a":"${big}",}}`), userLine(`"message":{"role":"user","content":[01]}`), userLine(`"message":{"role":"user","content":[tru]}`), `${assistantLine(32)}{"type":"user"}`, assistantLine(33).replace('"usage":{', '"usage":[')]],
    ['a cut-off line', [userLine(`"message":{"role":"user","content":"${big}`).slice(0, -2), assistantLine(13)]],
    ['a non-ASCII model, session id and time stamp', [assistantLine(14).replace('claude-sonnet-4-5-20250929', 'claude-sönnet'), userLine('"message":{"role":"user","content":"é"}').replace('synthetic-session', 'séance').replace('2026-01-01T00:00:09', '２026-01-01T00:00:09'), assistantLine(15)]],
    ['a non-ASCII usage key', [assistantLine(16).replace('"output_tokens":2', '"output_tokens":2,"tïer":"x"')]],
    ['duplicate type keys: the last one counts', [assistantLine(17).replace('{"type":"assistant"', '{"type":"user","x":1,"type":"assistant"'), assistantLine(18).replace('"isSidechain":false', '"isSidechain":false,"type":"user"')]],
    ['keys written with escapes', [assistantLine(19).replace('"type":"assistant"', '"t\\u0079pe":"assistant"'), assistantLine(20).replace('"usage":', '"us\\u0061ge":')]],
    ['a Task result linking a subagent', [userLine(`"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_task","content":"${big}"}]},"toolUseResult":{"agentId":"agent-1","content":"${big}"}`)]],
    ['a progress line naming a subagent', [`{"type":"progress","sessionId":"synthetic-session","parentToolUseID":"toolu_p","data":{"agentId":"agent-2","message":"${big}"}}`]],
    ['a compaction', ['{"type":"system","subtype":"compact_boundary","sessionId":"synthetic-session","timestamp":"2026-01-01T00:00:10.000Z"}', assistantLine(21)]],
    ['blank lines of non-ASCII spaces, a BOM inside the file, CRLF', ['\u00a0\u3000', '\ufeff' + assistantLine(22), assistantLine(23) + '\r', '   \t']],
    ['a message that is not an object', [userLine('"message":"' + big + '"'), userLine('"message":["é"]')]],
    ['a sidechain of 1.0.x and of 2.x', [assistantLine(24).replace('"isSidechain":false', '"isSidechain":true').replace('"uuid":"y24"', '"uuid":"y24","parentUuid":null'), assistantLine(25).replace('"isSidechain":false', '"isSidechain":true,"agentId":"agent-3"')]],
    ['lines that are not objects', ['[1,2]', '"é"', '42', 'null']],
  ];
  it.each(cases)('%s: the same read as parsing every line', async (_name, extra) => {
    const { plain, quick, fastLines } = await bothWays([{ name: 'synthetic.jsonl', bytes: bytesOf(session(extra)) }]);
    expect(plain).not.toBeNull();
    expect(quick).toEqual(plain);
    expect(fastLines).toBeGreaterThan(0);
  });

  it('damage inside a string the scan steps over: the calls counted, the line reported by the full read only', async () => {
    const extra = [
      userLine(`"message":{"role":"user","content":[{"type":"tool_result","content":"${big}\t${big}"}]}`),
      assistantLine(11),
      userLine(`"message":{"role":"user","content":"${big}\\x${big}"}`),
      assistantLine(12),
    ];
    const { plain, quick } = await bothWays([{ name: 'synthetic.jsonl', bytes: bytesOf(session(extra)) }]);
    expect(plain!.errors.map((error) => error.line)).toEqual([9, 11]);
    expect(quick!.errors).toEqual([]);
    expect(quick!.requests.map((call) => call.recorded)).toEqual(plain!.requests.map((call) => call.recorded));
    expect(quick!.requests).toHaveLength(6);
  });

  it('invalid UTF-8 deep inside a tool result is reported where the decoding read reports it', async () => {
    const text = session([userLine(`"message":{"role":"user","content":"${big}@${big}"}`), assistantLine(30)]);
    const bytes = bytesOf(text);
    bytes[bytes.indexOf(0x40, text.length - big.length * 2)] = 0xff;
    const { plain, quick } = await bothWays([{ name: 'synthetic.jsonl', bytes }]);
    expect(plain!.errors.some((error) => error.message.startsWith('invalid UTF-8'))).toBe(true);
    expect(quick).toEqual(plain);
  });

  it('a line nested past the limit is reported as the decoding read reports it', async () => {
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;
    const extra = [userLine(`"message":{"role":"user","content":${deep}}`), assistantLine(31)];
    const { plain, quick } = await bothWays([{ name: 'synthetic.jsonl', bytes: bytesOf(session(extra)) }], { limits: { maxNestingDepth: 16 } });
    expect(plain!.errors.some((error) => error.message.startsWith('JSON nested deeper than 16'))).toBe(true);
    expect(quick).toEqual(plain);
  });

  it('a subagent linked through a Task result line in its parent is linked the same', async () => {
    const parent = session([userLine(`"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_task","content":"${big}"}]},"toolUseResult":{"agentId":"a1","status":"completed"}`)]);
    const agent = session([]).replaceAll('"isSidechain":false', '"isSidechain":true,"agentId":"a1"').replaceAll('"id":"msg_', '"id":"msg_agent_');
    const { plain, quick } = await bothWays([
      { name: 'synthetic-session.jsonl', bytes: bytesOf(parent) },
      { name: 'synthetic-session/subagents/agent-a1.jsonl', bytes: bytesOf(agent) },
    ]);
    expect(plain!.files[1]!.session!.startedBy).toBe('toolu_task');
    expect(quick).toEqual(plain);
  });
});

describe('the line scan, held to JSON.parse and the fatal decoder', () => {
  // A seeded generator: the same bytes every run.
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const decodes = (bytes: Uint8Array) => {
    try {
      fatal.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };

  it('buffer.isUtf8 accepts exactly what the fatal decoder accepts', () => {
    const sample = bytesOf('{"a":"é → 𝄞 \u{10ffff}"}');
    for (let n = 0; n < 20_000; n++) {
      const bytes = sample.slice();
      for (let k = 0; k < 1 + Math.floor(random() * 3); k++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      expect(isUtf8(bytes), Array.from(bytes).join(',')).toBe(decodes(bytes));
    }
  });

  /** What the walk reads of a parsed line (the oracle the scan is held to). */
  const walkView = (value: JsonObject): JsonObject => {
    const view: JsonObject = {};
    for (const key of WALK_LINE_KEYS) if (value[key] !== undefined) view[key] = value[key];
    for (const key of ['toolUseResult', 'data']) {
      const inner = value[key];
      if (inner !== undefined) view[key] = isObject(inner) ? (inner['agentId'] === undefined ? {} : { agentId: inner['agentId'] }) : null;
    }
    const message = value['message'];
    if (message === undefined) return view;
    if (!isObject(message)) return { ...view, message: null };
    const kept: JsonObject = {};
    for (const key of WALK_MESSAGE_KEYS) if (message[key] !== undefined) kept[key] = message[key];
    const result = value['toolUseResult'];
    if (isObject(result) && typeof result['agentId'] === 'string' && message['content'] !== undefined) kept['content'] = message['content'];
    return { ...view, message: kept };
  };

  it.each([
    ['a leading zero', '[01]'], ['a bare point', '[1.]'], ['a lone minus', '[-]'], ['an empty exponent', '[1e]'], ['a point first', '[.5]'], ['a plus sign', '[+1]'],
    ['a cut literal', '[tru]'], ['a cut null', '[nul]'], ['a wrong literal', '[nan]'], ['a key without colon', '{"a" 1}'], ['a trailing comma in an object', '{"a":1,}'],
    ['a trailing comma in an array', '[1,]'], ['a leading comma', '[,1]'], ['an empty member', '{,}'], ['members without comma', '{"a":1 "b":2}'],
    ['elements without comma', '["a" "b"]'], ['a number key', '{1:2}'], ['an array closed as an object', '[1}'], ['an object closed as an array', '{"a":1]'],
    ['an escaped closing quote', '"abc\\"'], ['an unclosed array', '[[1]'],
  ])('%s in a value the walk skips is no scan (%s)', (_name, value) => {
    const line = `{"type":"user","content":${value},"uuid":"u"}`;
    expect(() => JSON.parse(line)).toThrow();
    expect(scanWalkView(bytesOf(line), NODE_FAST_LINES, 512)).toBeNull();
  });

  it.each([['{"type":"user"}x'], ['{"type":"user"}{"type":"user"}'], ['{"type":"user",}'], ['["type"]'], ['{"type":"user"']])('%s is no scan', (line) => {
    expect(scanWalkView(bytesOf(line), NODE_FAST_LINES, 512)).toBeNull();
  });

  it.each([['[0]'], ['[-0.5e+3]'], ['[1E-2]'], ['[]'], ['{}'], ['[true,false,null]'], ['" \\" \\\\"'], [' [ 1 , { "a" : [ ] } ] '], ['"é𝄞"']])('%s in a value the walk skips scans as it parses', (value) => {
    const line = `{"type":"user","content":${value},"uuid":"u"}`;
    expect(JSON.parse(line)).toBeDefined();
    expect(scanWalkView(bytesOf(line), NODE_FAST_LINES, 512)).toEqual({ type: 'user', uuid: 'u' });
  });

  it('a value equal to the last one of its key is read as the same text; one that only looks equal is not', () => {
    // "Ã©" is two characters whose codes are the two UTF-8 bytes of "é": compared as bytes to the last text, the
    // second line would read as the first.
    const lines = ['Ã©', 'é', 'é', 'ab', 'ac', 'ac', 'a\\u0062', 'ab'].map((model) => `{"type":"assistant","sessionId":"s","message":{"model":"${model}","usage":{}}}`);
    for (const line of lines) expect(scanWalkView(bytesOf(line), NODE_FAST_LINES, 512), line).toEqual(JSON.parse(line));
  });

  it('nesting: a line at the limit scans, one level past it does not', () => {
    const at = (depth: number) => `{"type":"user","content":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(scanWalkView(bytesOf(at(16)), NODE_FAST_LINES, 16)).toEqual({ type: 'user' });
    expect(scanWalkView(bytesOf(at(17)), NODE_FAST_LINES, 16)).toBeNull();
  });

  it('the scan reads a line exactly when JSON.parse does, to what the walk reads of it', () => {
    const sample =
      '{"type":"user","uuid":"u1","k":["é",1.5e3,{"ü":null,"x":"\\u00e9\\n→"}],"t":true,"message":{"id":"m","usage":{"input_tokens":2},"content":[{"type":"tool_result","content":"a\\"b"}]},"toolUseResult":{"agentId":"a","n":-0.5}}';
    const alphabet = ['"', '\\', '{', '}', '[', ']', ',', ':', 'é', '→', '𝄞', '\u00a0', '\ufeff', ' ', '\t', 'u', '0', 'e', '-', '.', 'n', 'x', '1', 'E', '+', 't'];
    let scanned = 0;
    let valid = 0;
    for (let n = 0; n < 20_000; n++) {
      const chars = [...sample];
      for (let k = 0; k < 1 + Math.floor(random() * 2); k++) chars.splice(Math.floor(random() * chars.length), random() < 0.5 ? 1 : 0, alphabet[Math.floor(random() * alphabet.length)]!);
      const text = chars.join('');
      let decoded: unknown = undefined;
      try {
        decoded = JSON.parse(text);
      } catch {
        // invalid
      }
      const view = scanWalkView(bytesOf(text), NODE_FAST_LINES, 512);
      if (decoded !== undefined) valid++;
      if (view === null) continue;
      scanned++;
      // Accepted but invalid only by damage inside a string it steps over: a tab or a backslash the mutation put there.
      if (decoded === undefined) expect(/\t|\\/.test(text), text).toBe(true);
      else expect(view, text).toEqual(walkView(decoded as JsonObject));
    }
    // Most mutations keep the line valid, and the scan reads nearly all of those.
    expect(scanned).toBeGreaterThan(valid * 0.9);
  });

});
