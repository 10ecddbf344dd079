// `--force` replaces an existing report, never an input: not the file standard input is redirected from (found by
// fstat(0)), not a file inside an input folder (containment is checked before existence). Every input byte stays
// as it was and the run exits non-zero. Synthetic inputs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputPath } from '../../src/cli/fs/safe-output.ts';
import { REPO_ROOT } from '../fuzz/corpus.ts';

const BIN = path.join(REPO_ROOT, 'bin/ctxray.mjs');
const LOG = `${JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'synthetic' }] })}\n`;

describe('--force and input identity', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-force-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[], stdinFile?: string) => {
    const stdin = stdinFile === undefined ? 'pipe' : fs.openSync(path.join(dir, stdinFile), 'r');
    try {
      return spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', stdio: [stdin, 'pipe', 'pipe'] });
    } finally {
      if (typeof stdin === 'number') fs.closeSync(stdin);
    }
  };

  it.each([['--json'], ['--html']])('analyze - %s <file> --force with stdin redirected from that file leaves it byte-identical', (flag) => {
    fs.writeFileSync(path.join(dir, 'log.jsonl'), LOG);
    const result = run(['analyze', '-', flag, 'log.jsonl', '--force'], 'log.jsonl');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('another name of an input');
    expect(fs.readFileSync(path.join(dir, 'log.jsonl'), 'utf8')).toBe(LOG);
  });

  it('analyze <folder> --json <folder>/old.html --force refuses: the file lies inside an input folder', () => {
    // A .html file is not read from the folder, so only containment protects it.
    fs.mkdirSync(path.join(dir, 'logs'));
    fs.writeFileSync(path.join(dir, 'logs', 'a.jsonl'), LOG);
    fs.writeFileSync(path.join(dir, 'logs', 'old.html'), 'kept');
    const result = run(['analyze', 'logs', '--json', 'logs/old.html', '--force']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('--json lies inside an input directory');
    // --html takes a log file: with a folder it is refused before anything is read or written.
    const html = run(['analyze', 'logs', '--html', 'logs/old.html', '--force']);
    expect(html.status).toBe(1);
    expect(html.stderr).toContain('--html takes log files, not a folder');
    expect(fs.readFileSync(path.join(dir, 'logs', 'old.html'), 'utf8')).toBe('kept');
  });

  it('--force still replaces an existing report that is no input', () => {
    fs.writeFileSync(path.join(dir, 'log.jsonl'), LOG);
    fs.writeFileSync(path.join(dir, 'old.json'), 'old');
    expect(run(['analyze', 'log.jsonl', '--json', 'old.json', '--force']).status).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'old.json'), 'utf8'))).toHaveProperty('schema');
  });

  it('dupes - --out with stdin redirected from a new name of that file refuses it as an input alias', () => {
    fs.writeFileSync(path.join(dir, 'log.jsonl'), LOG);
    fs.linkSync(path.join(dir, 'log.jsonl'), path.join(dir, 'alias.json'));
    const result = run(['dupes', '-', '--out', 'alias.json'], 'log.jsonl');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('(OUTPUT_ALIASES_INPUT)');
    expect(fs.readFileSync(path.join(dir, 'log.jsonl'), 'utf8')).toBe(LOG);
  });

  it('checkOutputPath ranks the input rules before OUTPUT_EXISTS, the only one --force may override', () => {
    fs.mkdirSync(path.join(dir, 'in'));
    fs.writeFileSync(path.join(dir, 'in', 'old.json'), 'x');
    fs.writeFileSync(path.join(dir, 'LOG.jsonl'), 'x');
    fs.writeFileSync(path.join(dir, 'other.json'), 'x');
    const inputs = [path.join(dir, 'in'), path.join(dir, 'log.jsonl')];
    expect(checkOutputPath(path.join(dir, 'in', 'old.json'), inputs)).toMatchObject({ code: 'OUTPUT_INSIDE_INPUT' });
    expect(checkOutputPath(path.join(dir, 'LOG.jsonl'), inputs)).toMatchObject({ code: 'OUTPUT_NAME_CLASH' });
    expect(checkOutputPath(path.join(dir, 'other.json'), inputs)).toMatchObject({ code: 'OUTPUT_EXISTS' });
  });
});
