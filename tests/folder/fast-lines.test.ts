// The usage pass's lines read without decoding them (src/core/folder/claude-line.ts, the CLI's NODE_FAST_LINES):
// the pass gives exactly what it gives decoding every line — files, calls, models, errors, dropped copies — on every
// real Claude Code fixture and on SYNTHETIC lines built to look skippable without being so (invalid JSON or UTF-8
// deep inside a tool result, a key the walk reads holding non-ASCII text, duplicate and escaped keys, a Task
// result's link, nesting past the limit, blank lines of non-ASCII spaces).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUtf8 } from 'node:buffer';
import { readSessionUsage, type UsageReadOptions } from '../../src/core/folder/usage-pass.ts';
import { NODE_FAST_LINES } from '../../src/cli/commands/folder-usage-run.ts';
import type { FastLines } from '../../src/core/folder/claude-line.ts';
import { SeenCalls } from '../../src/core/input/seen-calls.ts';

const real = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/claude-code');
const present = fs.existsSync(real);
const fixtures = present ? fs.readdirSync(real).filter((name) => name.endsWith('.jsonl')).sort() : [];

/** NODE_FAST_LINES, counting the lines it parsed without decoding. */
function counted(): FastLines & { lines: number } {
  const fast = {
    lines: 0,
    validUtf8: (bytes: Uint8Array) => NODE_FAST_LINES.validUtf8(bytes),
    latin1: (bytes: Uint8Array) => {
      fast.lines++;
      return NODE_FAST_LINES.latin1(bytes);
    },
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

describe.skipIf(!present)('the usage pass without decoding, on the real Claude Code fixtures', () => {
  it.each(fixtures)('%s: the same read as decoding every line', async (name) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(real, name)));
    const { plain, quick, fastLines } = await bothWays([{ name, bytes }]);
    expect(plain).not.toBeNull();
    expect(quick).toEqual(plain);
    // Every line past the first records (the detection's) was tried without decoding.
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

describe('the usage pass without decoding, on lines that look skippable (SYNTHETIC)', () => {
  const cases: [string, string[]][] = [
    ['a large tool result', [userLine(`"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"${big}"}]}`), assistantLine(10)]],
    ['a raw tab inside a tool result (invalid JSON)', [userLine(`"message":{"role":"user","content":[{"type":"tool_result","content":"${big}\t${big}"}]}`), assistantLine(11)]],
    ['a bad escape deep inside a tool result', [userLine(`"message":{"role":"user","content":"${big}\\x${big}"}`), assistantLine(12)]],
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
  it.each(cases)('%s: the same read as decoding every line', async (_name, extra) => {
    const { plain, quick, fastLines } = await bothWays([{ name: 'synthetic.jsonl', bytes: bytesOf(session(extra)) }]);
    expect(plain).not.toBeNull();
    expect(quick).toEqual(plain);
    expect(fastLines).toBeGreaterThan(0);
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

describe('what reading without decoding rests on', () => {
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

  it('valid UTF-8 parses as Latin-1 text exactly when it parses decoded, to the same shape', () => {
    const sample = '{"type":"user","k":["é",1.5e3,{"ü":null,"x":"\\u00e9\\n→"}],"t":true}';
    const alphabet = ['"', '\\', '{', '}', '[', ']', ',', ':', 'é', '→', '𝄞', '\u00a0', '\ufeff', ' ', '\t', 'u', '0', 'e', '-', '.', 'n', 'x'];
    const shape = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(shape) : typeof value === 'object' && value !== null ? Object.entries(value).map(([k, v]) => [k.length > 0, shape(v)]) : typeof value === 'string' ? 'string' : value;
    for (let n = 0; n < 20_000; n++) {
      const chars = [...sample];
      for (let k = 0; k < 1 + Math.floor(random() * 2); k++) chars.splice(Math.floor(random() * chars.length), random() < 0.5 ? 1 : 0, alphabet[Math.floor(random() * alphabet.length)]!);
      const text = chars.join('');
      const bytes = bytesOf(text);
      let decoded: unknown = undefined;
      let latin: unknown = undefined;
      try {
        decoded = JSON.parse(text);
      } catch {
        // invalid
      }
      try {
        latin = JSON.parse(NODE_FAST_LINES.latin1(bytes));
      } catch {
        // invalid
      }
      expect(latin === undefined, text).toBe(decoded === undefined);
      if (decoded !== undefined) expect(shape(latin), text).toEqual(shape(decoded));
    }
  });
});
