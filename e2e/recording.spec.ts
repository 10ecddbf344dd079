// A capture written by `ctxray record` opens in the app as it does in the CLI: a gzipped gateway log whose
// requests carry the provider's recorded usage, streamed pieces merged. The capture is made here by the real
// recorder in front of the fake provider of the Vitest tests (SYNTHETIC data; nothing leaves 127.0.0.1).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeUpstream } from '../tests/record/fake-upstream.ts';
import { cliRequests, dropFile, expect, expectRequest, ROOT, selectRequest, test } from './fixtures.ts';

/** Two streamed Messages requests, the second continuing the first (a synthetic agent turn). */
const CLIENT = `
const post = (body) => new Promise((resolve, reject) => {
  const req = require('http').request(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST', headers: { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-synthetic', 'content-type': 'application/json' } }, (res) => { res.resume(); res.on('end', resolve); });
  req.on('error', reject);
  req.end(JSON.stringify(body));
});
const system = [{ type: 'text', text: 'Synthetic system prompt for the recording check. '.repeat(120), cache_control: { type: 'ephemeral' } }];
const first = [{ role: 'user', content: 'Synthetic question.' }];
(async () => {
  await post({ model: 'claude-sonnet-4-5-20250929', max_tokens: 64, stream: true, system, messages: first });
  await post({ model: 'claude-sonnet-4-5-20250929', max_tokens: 64, stream: true, system, messages: [...first, { role: 'assistant', content: 'Hi there.' }, { role: 'user', content: 'Synthetic follow-up.' }] });
})();
`;

async function recordCapture(dir: string): Promise<string> {
  const upstream = await startFakeUpstream();
  try {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'record', '--out', 'capture.jsonl.gz', '--upstream-anthropic', upstream.origin, '--', process.execPath, '-e', CLIENT], { cwd: dir, stdio: 'ignore' });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(0);
  } finally {
    await upstream.close();
  }
  return path.join(dir, 'capture.jsonl.gz');
}

test('a capture from ctxray record opens with recorded usage on every request', async ({ page }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ctxray-e2e-record-'));
  try {
    const capture = await recordCapture(dir);
    expect(readFileSync(capture).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const expected = cliRequests(capture);
    expect(expected).toHaveLength(2);
    await page.goto('./');
    await dropFile(page, capture);
    await expect(page.locator('.source-name')).toHaveText('capture.jsonl.gz');
    await expectRequest(page, 2);
    // The same requests, block for block, as the CLI reads from the capture.
    for (const i of [0, 1]) {
      await selectRequest(page, i);
      await expect(page.locator('.treemap .cell')).toHaveCount(expected[i]?.cells ?? -1);
    }
    await page.getByRole('tab', { name: 'Cache' }).click();
    await expect(page.locator('table.cache-table tbody tr')).toHaveCount(2);
    // The fake provider's stream recorded a 1,200-token cache read for each request (message_start).
    await expect(page.locator('table.cache-table thead')).toContainText('Recorded read');
    for (const row of [0, 1]) await expect(page.locator('table.cache-table tbody tr').nth(row)).toContainText('1,200');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
