// A plain bomb through standard input or a large plain file given to `dupes` is read as it arrives and stops at
// its work limit: neither is held whole first (standard input read whole took 4.6 GB and 26 s for 1.5 GB of
// newlines; a 1.5 GB plain file given to dupes took 1.6 GB). All inputs are synthetic.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import { dupesCommand } from '../../src/cli/commands/dupes.ts';
import type { CliIO, Command } from '../../src/cli/io.ts';
import { evaluateDupesInput } from '../../src/core/dupes/evaluate.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** 4 GiB of newlines made on demand in 1 MiB chunks, counting what the reader pulled. */
function newlineBomb(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new Uint8Array(MiB).fill(0x0a);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= 4 * GiB) controller.close();
      else {
        pulled += chunk.byteLength;
        controller.enqueue(chunk.slice());
      }
    },
  });
  return { stream, pulled: () => pulled };
}

async function run(command: Command, argv: string[], io: Partial<CliIO>): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await command(argv, {
    stdout: () => undefined,
    stderr: (text) => (stderr += text),
    readStdin: () => Promise.reject(new Error('standard input was read whole')),
    env: { NO_COLOR: '1' },
    cwd: os.tmpdir(),
    ...io,
  });
  return { code, stderr };
}

describe('standard input is streamed', () => {
  it.each([
    ['dupes', dupesCommand, 2],
    ['analyze', analyzeCommand, 1],
  ] as const)('%s - stops a newline bomb at LIMIT_BLANK_LINES after reading a few MiB of it', async (_name, command, exit) => {
    const bomb = newlineBomb();
    const { code, stderr } = await run(command, ['-'], { openStdin: () => bomb.stream });
    expect(code).toBe(exit);
    expect(stderr).toContain('LIMIT_BLANK_LINES');
    expect(stderr).toContain('1000001');
    expect(bomb.pulled()).toBeLessThan(16 * MiB);
  });
});

describe('dupes streams a plain file', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-streamed-'));
    // 1,000,001 newlines, then a hole up to 1.5 GiB (sparse: no disk used): read whole, it would take 1.5 GiB.
    const file = path.join(dir, 'blank.jsonl');
    fs.writeFileSync(file, Buffer.alloc(1_000_001, 0x0a));
    fs.truncateSync(file, 1.5 * GiB);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a 1.5 GiB file of blank lines stops at LIMIT_BLANK_LINES without being held whole', async () => {
    const peakBefore = process.resourceUsage().maxRSS * 1024;
    const { code, stderr } = await run(dupesCommand, ['blank.jsonl'], { cwd: dir });
    const peakGrowth = process.resourceUsage().maxRSS * 1024 - peakBefore;
    expect(code).toBe(2);
    expect(stderr).toContain('unknown (LIMIT_BLANK_LINES)');
    expect(stderr).toContain('line 1000001');
    expect(peakGrowth).toBeLessThan(512 * MiB);
  });
});

describe('evaluateDupesInput on a stream', () => {
  /** The bytes as a stream of 1,000-byte chunks (so a head, a gzip header and an envelope span chunks). */
  const streamOf = (bytes: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.byteLength; at += 1000) controller.enqueue(bytes.slice(at, at + 1000));
        controller.close();
      },
    });
  const question = { role: 'user', content: 'synthetic repeated question' };
  const line = JSON.stringify({ model: 'gpt-4o', messages: [question, { role: 'assistant', content: 'synthetic answer' }, question] });
  const log = new TextEncoder().encode(`${line}\n`.repeat(50));
  const envelope = new TextEncoder().encode(JSON.stringify({ suite: 'v1', blocks: [{ text: 'synthetic a' }, { text: 'synthetic a' }, { text: 'synthetic b' }] }));

  it.each([
    ['a plain log', 'log.jsonl', log, 'fail'],
    ['a gzipped log', 'log.jsonl.gz', new Uint8Array(gzipSync(log)), 'fail'],
    ['an envelope', 'e.json', envelope, 'fail'],
    ['a gzipped envelope', 'e.json.gz', new Uint8Array(gzipSync(envelope)), 'fail'],
    ['an empty input', 'empty.jsonl', new Uint8Array(0), undefined],
  ])('%s gives the record its bytes give', async (_what, name, bytes, result) => {
    const fromBytes = await evaluateDupesInput({ name, bytes });
    if (result !== undefined) expect(fromBytes.result).toBe(result);
    expect(await evaluateDupesInput({ name, bytes: streamOf(bytes) })).toEqual(fromBytes);
  });

  it('a plain stream past the log cap is LOG_TOO_LARGE, the gzipped one too', async () => {
    for (const bytes of [log, new Uint8Array(gzipSync(log))]) {
      const record = await evaluateDupesInput({ name: bytes === log ? 'log.jsonl' : 'log.jsonl.gz', bytes: streamOf(bytes) }, { maxLogBytes: log.byteLength - 1 });
      expect(record).toMatchObject({ result: 'unknown', reason: 'LOG_TOO_LARGE', detail: { limit: log.byteLength - 1 } });
    }
  });
});
