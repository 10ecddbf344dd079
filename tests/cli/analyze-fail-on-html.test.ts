// `ctxray analyze --fail-on / --html / --content`, in-process and spawned, on the synthetic example twins.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, parseAnalyzeArgs } from '../../src/cli/commands/analyze.ts';
import type { CliIO } from '../../src/cli/io.ts';

const root = path.resolve(__dirname, '../..');
const bin = path.join(root, 'bin/ctxray.mjs');
const BUST = path.join(root, 'examples/synthetic-anthropic-agent-cache-bust.jsonl.gz');
const FIXED = path.join(root, 'examples/synthetic-anthropic-agent-cache-fixed.jsonl.gz');
const REORDERED = path.join(root, 'examples/synthetic-openai-chat-tools-reordered.jsonl');
let dir = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-fail-on-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readStdin: async () => new Uint8Array(),
    env: { NO_COLOR: '1' },
    cwd: dir,
  };
  const code = await analyzeCommand(argv, io);
  return { code, stdout, stderr };
}

function spawn(args: string[]) {
  return spawnSync(process.execPath, [bin, 'analyze', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 });
}

describe('--fail-on, --html and --content parsing', () => {
  it('reads the new options and rejects bad values', () => {
    expect(parseAnalyzeArgs(['a.jsonl', '--fail-on=warning', '--html', 'r.html', '--content'])).toMatchObject({
      failOn: 'warning',
      html: 'r.html',
      content: true,
    });
    expect(() => parseAnalyzeArgs(['a.jsonl', '--fail-on', 'fatal'])).toThrow(/--fail-on must be one of error, warning, info/);
    expect(() => parseAnalyzeArgs(['a.jsonl', '--html'])).toThrow(/--html needs a value/);
    expect(() => parseAnalyzeArgs(['a.jsonl', '--html', 'x', '--json', 'x'])).toThrow(/same file/);
  });
});

describe('ctxray analyze with findings', () => {
  it('prints the findings and cost, names tools only with --content', async () => {
    const plain = await run([REORDERED, '-v']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('warning tools_reordered tools[1]');
    expect(plain.stdout).not.toContain('[grep_search, list_dir]');
    const withContent = await run([REORDERED, '--content', '-v']);
    expect(withContent.stdout).toContain('[grep_search, list_dir] → [list_dir, grep_search]');
  });

  it('says "No findings" on the fixed example and exits 0 even with --fail-on info', async () => {
    const result = await run([FIXED, '--fail-on', 'info', '-v']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No findings');
  });

  it('writes a self-contained HTML report and refuses to overwrite it without --force', async () => {
    const out = path.join(dir, 'report.html');
    expect((await run([REORDERED, '--html', out])).code).toBe(0);
    const html = fs.readFileSync(out, 'utf8');
    expect(html).toContain('tools_reordered');
    expect(html).not.toMatch(/<script/i);
    const again = await run([REORDERED, '--html', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--force');
    expect((await run([REORDERED, '--html', out, '--force'])).code).toBe(0);
    const intoInput = await run([REORDERED, '--html', REORDERED, '--force']);
    expect(intoInput.code).toBe(1);
  });
});

describe('bin/ctxray.mjs analyze --fail-on (spawned)', () => {
  it('exits 2 when a finding meets the threshold and 0 when none does', () => {
    const bust = spawn([BUST, '--fail-on', 'warning']);
    expect(bust.status).toBe(2);
    expect(bust.stderr).toContain('--fail-on warning: 2 finding(s)');
    // Both findings are warnings: an error threshold is not met.
    expect(spawn([BUST, '--fail-on', 'error']).status).toBe(0);
    expect(spawn([FIXED, '--fail-on', 'info']).status).toBe(0);
    expect(spawn([FIXED, '--fail-on', 'loud']).status).toBe(1);
  });
});
