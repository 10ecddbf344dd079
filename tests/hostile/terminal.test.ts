// Terminal injection: model ids, file names and tool names come from the input and reach the terminal summary.
// Escape sequences in them (OSC 52 clipboard writes, clear-screen, C1 CSI, bidi overrides) are shown escaped;
// only the CLI's own colour and line-erase sequences pass. All inputs here are synthetic.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_ERASE_LINE, OWN_LINE_START, ownSgr, terminalSafe } from '../../src/cli/terminal-safe.ts';
import { REPO_ROOT } from '../fuzz/corpus.ts';

const BIN = path.join(REPO_ROOT, 'bin/ctxray.mjs');
const HOSTILE = '\u001b]52;c;c3ludGhldGlj\u0007\u001b[2J\u009b31m\u202e\u001b[8m';

describe('terminalSafe', () => {
  it('escapes every control character of the input, keeps newline and tab', () => {
    expect(terminalSafe(`a${HOSTILE}b\n\tc`)).toBe('a\\u001b]52;c;c3ludGhldGlj\\u0007\\u001b[2J\\u009b31m\\u202e\\u001b[8mb\n\tc');
  });

  it("turns only the CLI's own markers into colour, erase and carriage-return sequences, on a terminal only", () => {
    const own = `${OWN_LINE_START}${ownSgr(1)}bold${ownSgr(22)} ${ownSgr(33)}warn${ownSgr(39)}${OWN_ERASE_LINE}`;
    expect(terminalSafe(own)).toBe('\r\u001b[1mbold\u001b[22m \u001b[33mwarn\u001b[39m\u001b[K');
    expect(terminalSafe(own, { ownSequences: false })).toBe('bold warn');
  });

  it('escapes the same sequences when they arrive in data, even on a terminal', () => {
    const data = '\r\u001b[1mbold\u001b[22m \u001b[31mred\u001b[K\u001b[2K\r';
    expect(terminalSafe(data)).toBe('\\u000d\\u001b[1mbold\\u001b[22m \\u001b[31mred\\u001b[K\\u001b[2K\\u000d');
    // A marker's brackets without this process's token are plain text.
    expect(terminalSafe('\ue000deadbeef[31m\ue001x')).toBe('\ue000deadbeef[31m\ue001x');
  });
});

describe('ctxray analyze with hostile model ids, file names and tool names', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-terminal-'));
    const tool = (name: string) => ({ name: `${name}${HOSTILE}`, description: 'synthetic', input_schema: { type: 'object' } });
    const first = { model: `claude-sonnet-4-5${HOSTILE}`, system: 'synthetic', tools: [tool('alpha'), tool('beta')], messages: [{ role: 'user', content: 'synthetic' }] };
    // The second request reorders the tools: the finding names them (shown with --content).
    const second = { ...first, tools: [tool('beta'), tool('alpha')], messages: [...first.messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }] };
    fs.mkdirSync(path.join(dir, 'folder'));
    fs.writeFileSync(path.join(dir, 'folder', `log${HOSTILE.replaceAll('/', '')}.jsonl`), `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const file = `folder/log${HOSTILE.replaceAll('/', '')}.jsonl`;
  it.each([[['folder', '-v']], [['folder', '--json', '-']], [[file, '-v', '--content']], [[file, '--json', '-']]])('analyze %j writes no raw control character', (args) => {
    const run = spawnSync(process.execPath, [BIN, 'analyze', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 });
    expect(run.status).toBe(0);
    const both = run.stdout + run.stderr;
    const raw = [...both].filter((ch) => { const c = ch.charCodeAt(0); return (c < 0x20 && ch !== '\n' && ch !== '\t') || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069); });
    expect(raw).toEqual([]);
    if (args.includes('--content')) expect(run.stdout).toContain('alpha\\u001b]52;c;');
    else if (args.includes('-v')) expect(run.stdout).toContain('claude-sonnet-4-5\\u001b]52;c;');
    // A folder's record lists models, not requests (it is read one session at a time).
    else expect((JSON.parse(run.stdout) as { models: { id: string }[] }).models[0]!.id).toBe(`claude-sonnet-4-5${HOSTILE}`);
  });
});

/** Raw control, C1 and bidi characters in a text (newline and tab are allowed). */
function rawControls(text: string): string[] {
  return [...text].filter((ch) => {
    const c = ch.charCodeAt(0);
    return (c < 0x20 && ch !== '\n' && ch !== '\t') || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
  });
}

describe('every command with hostile names, options and ids, piped', () => {
  // OSC 52 clipboard write, OSC 8 hyperlink, SGR red, erase-line (with the carriage return that goes with it),
  // U+202E, C1 CSI: the CLI writes none of these to a pipe or a file.
  const EVIL = '\u001b]52;c;c3ludGhldGlj\u0007\u001b]8;;http://synthetic.invalid\u001b\\x\u001b]8;;\u001b\\\u001b[31m\u001b[K\u001b[2K\r\u202e\u009b2J';
  let dir = '';
  const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-hostile-cli-'));
    const request = { model: `claude-sonnet-4-5${EVIL}`, system: 'synthetic', messages: [{ role: 'user', content: 'synthetic' }] };
    const second = { ...request, system: 'synthetic changed', messages: [...request.messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }] };
    fs.writeFileSync(path.join(dir, 'log.jsonl'), `${JSON.stringify(request)}\n${JSON.stringify(second)}\n`);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each([
    [[`cmd${EVIL}`]],
    [['analyze', `--opt${EVIL}`, 'log.jsonl']],
    [['analyze', `missing${EVIL}.jsonl`]],
    [['analyze', 'log.jsonl', '-v']],
    [['analyze', 'log.jsonl', '--fail-on', 'info']],
    [['dupes', `--opt${EVIL}`]],
    [['dupes', `missing${EVIL}.jsonl`]],
    [['dupes', 'log.jsonl', '--out', `out${EVIL}/x.json`]],
    [['clearing', `--opt${EVIL}`]],
    [['clearing', '--journals', `j${EVIL}`, '--sidecar', `s${EVIL}`, '--routes', `r${EVIL}`, '--qualification', `q${EVIL}`]],
    [['qualify', `--opt${EVIL}`]],
  ])('argument list %# prints no raw control character on stdout or stderr', (args) => {
    const result = run(args);
    expect(result.status).not.toBeNull();
    expect(rawControls(result.stdout + result.stderr)).toEqual([]);
    // What was escaped is still there to read, as text.
    if (args[0]!.startsWith('cmd') || args.some((a) => a.startsWith('--opt'))) expect(result.stderr).toContain('\\u001b]52;c;');
  });

  it('analyze --html writes the model id as visible labels, with no raw ESC, BEL or U+202E', () => {
    expect(run(['analyze', 'log.jsonl', '--html', 'report.html']).status).toBe(0);
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(rawControls(html)).toEqual([]);
    expect(html).toContain('claude-sonnet-4-5⟨U+001B⟩]52;c;');
    expect(html).toContain('⟨U+202E⟩');
  });

  it('analyze --json <file> writes the model id with its controls as JSON escapes: the same value, no raw character', () => {
    expect(run(['analyze', 'log.jsonl', '--json', 'record.json']).status).toBe(0);
    const json = fs.readFileSync(path.join(dir, 'record.json'), 'utf8');
    expect(rawControls(json)).toEqual([]);
    expect(json).toContain('claude-sonnet-4-5\\u001b]52;c;');
    expect(json).toContain('\\u202e\\u009b2J');
    expect((JSON.parse(json) as { models: { id: string }[] }).models[0]!.id).toBe(`claude-sonnet-4-5${EVIL}`);
  });
});
