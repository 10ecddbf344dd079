import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, colorEnabled, parseAnalyzeArgs } from '../../src/cli/commands/analyze.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { analysisValidator } from '../analysis/schema.ts';

const repo = path.resolve(__dirname, '../..');
const bin = path.join(repo, 'bin/ctxray.mjs');
/** Start of every ANSI escape sequence. */
const ESC = '\u001b';

// Synthetic request bodies, written for these tests.
const GPT4O_HELLO = '{"model":"gpt-4o","messages":[{"role":"user","content":"hello"}]}';
const CLAUDE_BODY = '{"model":"claude-sonnet-4-5-20250929","max_tokens":10,"messages":[{"role":"user","content":"Say hi."}]}';
const UNKNOWN_MODEL = '{"model":"gpt-4o-search-preview","messages":[{"role":"user","content":"hello"}]}';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-analyze-'));
  fs.writeFileSync(path.join(dir, 'chat.jsonl'), `${GPT4O_HELLO}\n${UNKNOWN_MODEL}\n`);
  fs.writeFileSync(path.join(dir, 'claude.json'), CLAUDE_BODY);
  fs.writeFileSync(path.join(dir, 'broken.jsonl'), `${GPT4O_HELLO}\n{"model":"gpt-4o","messages":[\n${GPT4O_HELLO}\n`);
  fs.writeFileSync(path.join(dir, 'empty.jsonl'), '');
  fs.writeFileSync(path.join(dir, 'binary.bin'), new Uint8Array([0, 159, 146, 150, 255, 0, 1, 2, 3, 200, 201]));
  fs.writeFileSync(path.join(dir, 'chat.jsonl.gz'), gzipSync(`${GPT4O_HELLO}\n`));
  const truncated = gzipSync(`${GPT4O_HELLO}\n`.repeat(200));
  fs.writeFileSync(path.join(dir, 'truncated.jsonl.gz'), truncated.subarray(0, Math.floor(truncated.length / 2)));
  fs.writeFileSync(path.join(dir, 'deep.json'), '['.repeat(10_000) + ']'.repeat(10_000));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function capture(env: Record<string, string | undefined> = {}, stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    readStdin: () => Promise.resolve(new TextEncoder().encode(stdin)),
    env,
    cwd: dir,
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

async function run(argv: string[], env: Record<string, string | undefined> = {}, stdin = '') {
  const c = capture(env, stdin);
  const code = await analyzeCommand(argv, c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

function spawn(args: string[], input?: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [bin, 'analyze', ...args], { cwd: dir, input, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
}

describe('argument parsing', () => {
  it('reads options in both spellings', () => {
    expect(parseAnalyzeArgs(['a.jsonl', '--format=openai', '--model', 'gpt-4o', '--json', 'o.json', '-v', '--force'])).toEqual({
      inputs: ['a.jsonl'],
      format: 'openai-chat',
      model: 'gpt-4o',
      json: 'o.json',
      force: true,
      verbose: true,
      help: false,
    });
    expect(parseAnalyzeArgs(['--', '-odd-name.jsonl']).inputs).toEqual(['-odd-name.jsonl']);
    expect(parseAnalyzeArgs(['--format', 'anthropic', '-']).format).toBe('anthropic-messages');
  });

  it.each([
    [['a', '--agent', 'codex'], '--agent picks the default folders'],
    [['--agent', 'vim'], '--agent must be one of claude-code, codex, gemini-cli, pi, opencode, cline, roo, kilo (got "vim")'],
    [['a', '--format', 'xml'], '--format must be one of'],
    [['a', '--model'], '--model needs a value'],
    [['a', '--bogus'], 'unknown option --bogus'],
    [['-', '-'], 'only once'],
    [['a', '--verbose=yes'], 'takes no value'],
  ])('rejects %j', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: ctxray analyze');
  });

  it('decides color from NO_COLOR, TERM and the terminal', () => {
    expect(colorEnabled({}, true)).toBe(true);
    expect(colorEnabled({}, false)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '' }, true)).toBe(true);
    expect(colorEnabled({ TERM: 'dumb' }, true)).toBe(false);
  });
});

describe('ctxray analyze (in process)', () => {
  it('prints tokens by category per request and per file, exact OpenAI and ≈ Claude counts', async () => {
    const result = await run(['chat.jsonl', 'claude.json', '-v']);
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).not.toContain(ESC);
    // gpt-4o "hello": 1 token + 7 framing = 8, as OpenAI records it.
    expect(out).toMatch(/#0 line 1\s+gpt-4o\s+8 {2}user 1 · overhead 7/);
    expect(out).toContain('model gpt-4o (1 request): priced as GPT-4o, prices as of 2026-11-10');
    expect(out).toContain('model gpt-4o-search-preview (1 request): unknown model, not priced');
    expect(out).toContain('priced as Claude Sonnet 4.5, snapshot id');
    expect(out).toMatch(/#2 line 1\s+claude-sonnet-4-5-20250929\s+≈\d+/);
    expect(out).toContain('file 1: chat.jsonl (openai-chat, 2 requests)');
    expect(out).toContain('all files:');
  });

  it('lists segments with -v and applies --model', async () => {
    const result = await run(['chat.jsonl', '-v', '--model', 'gpt-5']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('model gpt-5 (--model) (2 requests): priced as GPT-5');
    expect(result.stdout).toMatch(/messages\[0\]\.content\s+user\s+1/);
    expect(result.stdout).toContain('overhead: framing 6, tools preamble 0, tool-use system prompt 0');
  });

  it('reads gzip and stdin', async () => {
    expect((await run(['chat.jsonl.gz', '-v'])).stdout).toContain('#0 line 1');
    const viaStdin = await run(['-', '-v'], {}, GPT4O_HELLO);
    expect(viaStdin.code).toBe(0);
    expect(viaStdin.stdout).toContain('(stdin)');
  });

  it('reports a broken line with its place and analyzes the rest', async () => {
    const result = await run(['broken.jsonl', '-v']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('2 requests');
    expect(result.stdout).toMatch(/broken\.jsonl:2: /);
  });

  it.each([
    ['missing.jsonl', 'cannot read missing.jsonl: no such file'],
    ['empty.jsonl', 'empty.jsonl'],
    ['binary.bin', 'binary.bin'],
    ['truncated.jsonl.gz', 'truncated.jsonl.gz'],
    ['deep.json', 'deep.json'],
  ])('exits 1 on unreadable input %s with a located message', async (file, message) => {
    const result = await run([file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });
});

describe('--json', () => {
  it('writes a schema-valid record, refuses to overwrite without --force, replaces with it', async () => {
    const out = path.join(dir, 'out.json');
    fs.rmSync(out, { force: true });
    expect((await run(['chat.jsonl', '--json', 'out.json'])).code).toBe(0);
    const record = JSON.parse(fs.readFileSync(out, 'utf8')) as { requests: Array<{ tokens: { total: number; exact: boolean } }> };
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    expect(record.requests[0]?.tokens).toMatchObject({ total: 8, exact: true });
    expect(fs.readFileSync(out, 'utf8')).not.toContain('hello');

    fs.writeFileSync(out, 'keep me');
    const refused = await run(['chat.jsonl', '--json', 'out.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--json already exists');
    expect(refused.stderr).toContain('--force');
    expect(fs.readFileSync(out, 'utf8')).toBe('keep me');

    expect((await run(['chat.jsonl', '--json', 'out.json', '--force'])).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toMatchObject({ schema: 'ctxray.analysis/2' });
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
  });

  it('never writes over an input, even with --force', async () => {
    const before = fs.readFileSync(path.join(dir, 'chat.jsonl'), 'utf8');
    const result = await run(['chat.jsonl', '--json', 'chat.jsonl', '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--json is one of the inputs');
    expect(fs.readFileSync(path.join(dir, 'chat.jsonl'), 'utf8')).toBe(before);
  });

  it('writes the record alone to stdout with --json -', async () => {
    const result = await run(['chat.jsonl', '--json', '-']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ schema: 'ctxray.analysis/2', totals: { requests: 2 } });
  });
});

describe('bin/ctxray.mjs analyze (spawned)', () => {
  it('exits 0 on success, honours NO_COLOR and reads stdin', () => {
    const ok = spawn(['-', '-v'], GPT4O_HELLO, { NO_COLOR: '1' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('#0 line 1');
    expect(ok.stdout).not.toContain(ESC);
  });

  it('exits 1 on bad arguments and on unreadable input', () => {
    const badArgs = spawn(['--format', 'xml', 'chat.jsonl']);
    expect(badArgs.status).toBe(1);
    expect(badArgs.stderr).toContain('--format must be one of');
    const unreadable = spawn(['binary.bin']);
    expect(unreadable.status).toBe(1);
    expect(unreadable.stderr).toContain('binary.bin');
  });
});
