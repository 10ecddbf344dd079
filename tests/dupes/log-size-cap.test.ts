// The request-log size cap of `ctxray dupes`: a gzipped log is inflated no further than the cap (not to the
// reader's 8 GiB ceiling) and refused as `unknown` / LOG_TOO_LARGE. At the cap passes, one over is refused.
// Every log here is synthetic.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { logTooLarge } from '../../src/cli/commands/dupes.ts';
import { REASON_MEANINGS } from '../../src/core/dupes/codes.ts';
import { evaluateDupesInput } from '../../src/core/dupes/evaluate.ts';
import { MAX_LOG_BYTES } from '../../src/core/dupes/limits.ts';
import { dupesRecordJson } from '../../src/core/dupes/record.ts';
import { assertSchemaValid } from './helpers.ts';

const MiB = 1024 * 1024;
/** One synthetic request, resent: every line after the first repeats its user message (a duplicate). */
// Each line is one request that repeats its question; identical lines are one conversation, measured once (its
// last request): one duplicate block however many lines.
const question = { role: 'user', content: 'synthetic repeated question' };
const line = `${JSON.stringify({ model: 'gpt-4o', messages: [question, { role: 'assistant', content: 'synthetic answer' }, question] })}\n`;
const lineBytes = Buffer.byteLength(line);
const log = (lines: number) => Buffer.from(line.repeat(lines));

describe('request-log size cap', () => {
  it('is 2 GiB, and its meaning states it', () => {
    expect(MAX_LOG_BYTES).toBe(2_147_483_648);
    expect(REASON_MEANINGS.LOG_TOO_LARGE).toContain('2,147,483,648 bytes');
  });

  it('a gzipped log exactly at the cap is measured like the same log uncompressed', async () => {
    const plain = log(10);
    const cap = plain.byteLength;
    const fromGzip = await evaluateDupesInput({ name: 'log.jsonl.gz', bytes: gzipSync(plain) }, { maxLogBytes: cap });
    const fromPlain = await evaluateDupesInput({ name: 'log.jsonl', bytes: plain }, { maxLogBytes: cap });
    expect(fromGzip.result).toBe('fail');
    expect(fromGzip.totals.duplicateBlocks).toBe(1);
    expect(dupesRecordJson(fromGzip)).toBe(dupesRecordJson(fromPlain));
  });

  it('a gzip bomb one line over the cap is refused with the cap, not read', async () => {
    // 64 MiB of lines inflate from about 100 KB; the cap is 1 MiB.
    const bomb = gzipSync(log(Math.ceil((64 * MiB) / lineBytes)));
    expect(bomb.byteLength).toBeLessThan(MiB);
    const record = await evaluateDupesInput({ name: 'log.jsonl.gz', bytes: bomb }, { maxLogBytes: MiB });
    expect(record).toMatchObject({ result: 'unknown', reason: 'LOG_TOO_LARGE', detail: { limit: MiB }, mapping: 'request-log-last-requests-v1' });
    expect(record.detail).toEqual({ limit: MiB });
    expect(record.totals.blocks).toBe(0);
    assertSchemaValid(record);
  });

  it('a plain log one byte over the cap is refused with its exact size', async () => {
    const plain = log(10);
    const record = await evaluateDupesInput({ name: 'log.jsonl', bytes: plain }, { maxLogBytes: plain.byteLength - 1 });
    expect(record).toMatchObject({ result: 'unknown', reason: 'LOG_TOO_LARGE' });
    expect(record.detail).toEqual({ limit: plain.byteLength - 1, actual: plain.byteLength });
  });

  it('a gzip inside the gzip counts its inflated size against the same cap', async () => {
    const nested = gzipSync(gzipSync(log(Math.ceil((8 * MiB) / lineBytes))));
    const record = await evaluateDupesInput({ name: 'log.jsonl.gz', bytes: nested }, { maxLogBytes: MiB });
    expect(record).toMatchObject({ result: 'unknown', reason: 'LOG_TOO_LARGE', detail: { limit: MiB } });
    // Under the cap, a log compressed twice is read like the plain log.
    const small = await evaluateDupesInput({ name: 'log.jsonl.gz', bytes: gzipSync(gzipSync(log(10))) }, { maxLogBytes: MiB });
    expect(small).toMatchObject({ result: 'fail', totals: { duplicateBlocks: 1 } });
  });

  it('corrupt gzip is still reported as before, not as too large', async () => {
    const cut = gzipSync(log(1000)).subarray(0, 200);
    const record = await evaluateDupesInput({ name: 'log.jsonl.gz', bytes: cut }, { maxLogBytes: MiB });
    expect(record.result).toBe('unknown');
    expect(record.reason).not.toBe('LOG_TOO_LARGE');
  });
});

describe('ctxray dupes on a gzipped log (spawned)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ctxray-dupes-cap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures a small gzipped log under the default cap', () => {
    const file = path.join(dir, 'log.jsonl.gz');
    writeFileSync(file, gzipSync(log(3)));
    const run = spawnSync(process.execPath, [path.resolve(__dirname, '../../bin/ctxray.mjs'), 'dupes', file], { encoding: 'utf8' });
    const record = JSON.parse(run.stdout) as { result: string; reason: string | null };
    expect(record).toMatchObject({ result: 'fail', reason: null });
    expect(run.status).toBe(1);
  });
});

describe('dupes CLI on a plain log over 2 GiB', () => {
  it('refuses it by its size as LOG_TOO_LARGE with the actual size (a sparse file, never read), exit 2', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ctxray-big-'));
    try {
      const file = path.join(dir, 'big.jsonl');
      writeFileSync(file, '{"messages":[]}\n');
      truncateSync(file, MAX_LOG_BYTES + 1);
      const bin = path.resolve(import.meta.dirname, '../../bin/ctxray.mjs');
      const run = spawnSync(process.execPath, [bin, 'dupes', file], { encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(JSON.parse(run.stdout)).toMatchObject({ result: 'unknown', reason: 'LOG_TOO_LARGE', detail: { limit: MAX_LOG_BYTES, actual: MAX_LOG_BYTES + 1 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('at exactly 2 GiB the size alone does not refuse it (at the cap passes)', () => {
    expect([logTooLarge(MAX_LOG_BYTES - 1), logTooLarge(MAX_LOG_BYTES), logTooLarge(MAX_LOG_BYTES + 1)]).toEqual([false, false, true]);
  });
});
