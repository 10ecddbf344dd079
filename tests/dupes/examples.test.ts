// The exact-duplicate view of the built-in examples (synthetic), through the spawned CLI: an agent loop that
// caches cleanly resends its history without duplicating context; one that reads the same file twice does not.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dupes = (example: string) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'dupes', path.join(ROOT, 'examples', example)], { encoding: 'utf8', timeout: 60_000 });

describe('ctxray dupes on the examples', () => {
  it('passes the fixed agent loop: 24 requests of one conversation, measured by its last request', () => {
    const run = dupes('synthetic-anthropic-agent-cache-fixed.jsonl.gz');
    expect(run.status).toBe(0);
    const record = JSON.parse(run.stdout) as { result: string; mapping: string; blocks: { origin: { request: number } }[]; totals: { duplicateBlocks: number } };
    expect([record.result, record.mapping, record.totals.duplicateBlocks]).toEqual(['pass', 'request-log-last-requests-v1', 0]);
    expect(new Set(record.blocks.map((b) => b.origin.request))).toEqual(new Set([23]));
  });

  it('fails the file re-read example: the same file content three times in one request', () => {
    const run = dupes('synthetic-anthropic-file-reread.jsonl');
    expect(run.status).toBe(1);
    const record = JSON.parse(run.stdout) as { result: string; duplicates: { occurrences: number; bytesPerBlock: number }[] };
    expect(record.result).toBe('fail');
    expect(record.duplicates.map((d) => [d.occurrences, d.bytesPerBlock])).toEqual([[3, 11825]]);
  });
});
