// A reader that closes the pipe early (`ctxray analyze … | head -2`) ends the command's output, not the command:
// no EPIPE crash, no stack trace, the command's own exit status.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/ctxray.mjs');

function runClosingAfterFirstChunk(args: string[]): Promise<{ status: number | null; stderr: string; chunks: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let chunks = 0;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', () => {
      chunks++;
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr, chunks }));
  });
}

it('analyze -v into a pipe closed after its first chunk exits 0 without an EPIPE trace', async () => {
  // -v lists every segment of the 24 requests: far more than one pipe buffer, so later writes meet the closed pipe.
  const run = await runClosingAfterFirstChunk(['analyze', '-v', 'examples/synthetic-anthropic-agent-cache-bust.jsonl.gz']);
  expect(run.chunks).toBeGreaterThan(0);
  expect(run.stderr).not.toContain('EPIPE');
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.status).toBe(0);
}, 60_000);

it('dupes keeps its contract exit status (1, fail) when its reader leaves early', async () => {
  const run = await runClosingAfterFirstChunk(['dupes', 'examples/synthetic-anthropic-file-reread.jsonl', '--markdown']);
  expect(run.stderr).not.toContain('EPIPE');
  expect(run.status).toBe(1);
}, 60_000);
