// Reading progress and Ctrl-C of `ctxray analyze`: the reporter's text and pacing, and the real binary's stderr and
// exit code (130 when interrupted). No timing is asserted.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeProgress, progressReporter } from '../../src/cli/progress.ts';
import { terminalSafe } from '../../src/cli/terminal-safe.ts';

const root = path.resolve(__dirname, '../..');
const bin = path.join(root, 'bin/ctxray.mjs');
const example = path.join(root, 'examples/synthetic-anthropic-file-reread.jsonl');

describe('describeProgress', () => {
  it('says records, megabytes read of the total and the share', () => {
    expect(describeProgress({ file: 0, records: 12345, bytesRead: 80_000_000, bytesTotal: 219_500_000 }, 'log.gz')).toBe(
      'log.gz: 12,345 records, 80.0 / 219.5 MB (36%)',
    );
  });
  it('leaves out the total when the size is unknown, and says "record" for one', () => {
    expect(describeProgress({ file: 0, records: 1, bytesRead: 1_250_000, bytesTotal: 0 }, '(stdin)')).toBe('(stdin): 1 record, 1.3 MB');
  });
});

describe('progressReporter', () => {
  it('redraws one terminal line at most every 200 ms and clears it at the end', () => {
    const written: string[] = [];
    let clock = 0;
    const reporter = progressReporter({ write: (t) => written.push(t), terminal: true, names: ['a.jsonl'], now: () => clock });
    reporter.update({ file: 0, records: 256, bytesRead: 1e6, bytesTotal: 4e6 });
    clock = 150;
    reporter.update({ file: 0, records: 512, bytesRead: 2e6, bytesTotal: 4e6 });
    clock = 200;
    reporter.update({ file: 0, records: 768, bytesRead: 3e6, bytesTotal: 4e6 });
    reporter.finish();
    reporter.finish();
    expect(written.map((text) => terminalSafe(text))).toEqual([
      '\rreading a.jsonl: 256 records, 1.0 / 4.0 MB (25%)\u001b[K',
      '\rreading a.jsonl: 768 records, 3.0 / 4.0 MB (75%)\u001b[K',
      '\r\u001b[K',
    ]);
  });
  it('writes plain lines every 2 s when stderr is not a terminal, and nothing to clear', () => {
    const written: string[] = [];
    let clock = 0;
    const reporter = progressReporter({ write: (t) => written.push(t), terminal: false, names: [], now: () => clock });
    reporter.update({ file: 1, records: 10, bytesRead: 5e5, bytesTotal: 0 });
    clock = 1999;
    reporter.update({ file: 1, records: 20, bytesRead: 6e5, bytesTotal: 0 });
    clock = 2000;
    reporter.update({ file: 1, records: 30, bytesRead: 7e5, bytesTotal: 0 });
    reporter.finish();
    expect(written).toEqual(['reading file 2: 10 records, 0.5 MB\n', 'reading file 2: 30 records, 0.7 MB\n']);
  });
});

describe('ctxray analyze progress and cancel (spawned)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-progress-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('-v writes reading progress on stderr; without it (not a terminal) stderr stays empty', () => {
    const verbose = spawnSync(process.execPath, [bin, 'analyze', example, '-v'], { encoding: 'utf8', timeout: 60_000 });
    expect(verbose.status).toBe(0);
    expect(verbose.stderr).toMatch(/^reading .*synthetic-anthropic-file-reread\.jsonl: \d+ records?, [\d.]+ \/ [\d.]+ MB \(\d+%\)\n/);
    const quiet = spawnSync(process.execPath, [bin, 'analyze', example], { encoding: 'utf8', timeout: 60_000 });
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it('Ctrl-C while reading stops the read and exits 130 with "cancelled", printing no report', async () => {
    // A named pipe keeps the read going for as long as the test wants: the CLI is mid-read when SIGINT arrives.
    const fifo = path.join(dir, 'slow.jsonl');
    const made = spawnSync('mkfifo', [fifo]);
    if (made.status !== 0) return expect.soft(made.status, 'mkfifo unavailable: cancel not exercised').toBe(0);
    const child = spawn(process.execPath, [bin, 'analyze', fifo, '-v'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The second Ctrl-C ends the process by SIGINT itself (a shell reports that as status 130).
    const exited = new Promise<number | string | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
    const writer = fs.createWriteStream(fifo);
    // The CLI may close its end before the last write lands: that EPIPE is the expected outcome, not an error.
    writer.on('error', () => undefined);
    const line = fs.readFileSync(example, 'utf8').split('\n')[0]! + '\n';
    // 300 records: the first progress line (every 256 records) proves the CLI is reading, its handler installed.
    writer.write(line.repeat(300));
    for (let waited = 0; !stderr.includes('reading') && waited < 45_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stderr).toContain('reading');
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // One more record wakes the pending read, which then sees the abort.
    writer.end(line);
    expect(await exited).toBe(130);
    expect(stderr.endsWith('\nctxray analyze: cancelled\n')).toBe(true);
    expect(stdout).toBe('');
  }, 60_000);

  it('a second Ctrl-C exits 130 at once when the input stalls (a pipe that sends nothing more)', async () => {
    const fifo = path.join(dir, 'stalled.jsonl');
    const made = spawnSync('mkfifo', [fifo]);
    if (made.status !== 0) return expect.soft(made.status, 'mkfifo unavailable: cancel not exercised').toBe(0);
    const child = spawn(process.execPath, [bin, 'analyze', fifo, '-v'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The second Ctrl-C ends the process by SIGINT itself (a shell reports that as status 130).
    const exited = new Promise<number | string | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
    const writer = fs.createWriteStream(fifo);
    // The CLI exits with the pipe still open: the rest of our write then fails with EPIPE, as expected.
    writer.on('error', () => undefined);
    writer.write((fs.readFileSync(example, 'utf8').split('\n')[0]! + '\n').repeat(300));
    for (let waited = 0; !stderr.includes('reading') && waited < 45_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stderr).toContain('reading');
    // The pipe stays open and silent: the first SIGINT only marks the read aborted, the second ends the process.
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGINT');
    // 130 when the cancelled read still wound down after the first Ctrl-C; SIGINT when the second one ended it.
    expect([130, 'SIGINT']).toContain(await exited);
    expect(stderr.endsWith('\nctxray analyze: cancelled\n')).toBe(true);
    writer.destroy();
  }, 60_000);
});
