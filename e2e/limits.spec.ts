// Resource limits in the app: an input that reaches a stated limit is refused with a located message, the worker
// that read it is replaced by a fresh one, and the page goes on working. The worker count is read from
// <body data-worker-generation>. Every input here is synthetic.
import { createGzip } from 'node:zlib';
import { dropFiles, expect, test } from './fixtures.ts';

const MiB = 1024 * 1024;

/**
 * A synthetic request on line 1, then `spaceMiB` MiB of spaces: one endless line (skipped at the record limit,
 * never buffered), gzipped about 1000:1. Spaces rather than NUL bytes, which the reader refuses as binary at once.
 */
async function gzipBomb(spaceMiB: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const gzip = createGzip({ level: 9 });
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  gzip.write(`${JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'synthetic line before the bomb' }] })}\n`);
  const spaces = Buffer.alloc(MiB, 0x20);
  for (let i = 0; i < spaceMiB; i++) if (!gzip.write(spaces)) await new Promise((resolve) => gzip.once('drain', resolve));
  // 'end' (not end()'s callback): only then has the last compressed chunk been emitted.
  await new Promise((resolve) => {
    gzip.once('end', resolve);
    gzip.end();
  });
  return Buffer.concat(chunks);
}

test.describe('resource limits in the app', () => {
  test('a gzip bomb over the 2 GiB limit is refused, the worker is replaced, and an example opens next', async ({ page }) => {
    // Inflating 2 GiB took about 20 s in Chromium here, and minutes when the shared machine was busy.
    test.setTimeout(480_000);
    const bomb = await gzipBomb(2048 + 1);
    expect(bomb.byteLength).toBeLessThan(4 * MiB);

    await page.goto('./');
    await dropFiles(page, [{ name: 'bomb.jsonl.gz', bytes: bomb }]);
    await expect(page.locator('body')).toHaveAttribute('data-worker-generation', '1');
    // The page answers while the worker inflates.
    const started = Date.now();
    await page.evaluate(() => document.title);
    expect(Date.now() - started).toBeLessThan(1_000);

    const notice = page.locator('#notice');
    await expect(notice).toContainText('bomb.jsonl.gz was not opened: it reached a size limit', { timeout: 420_000 });
    await expect(notice.locator('.notice-details')).toHaveText('bomb.jsonl.gz: decompressed size exceeds the limit of 2 GiB per file (a gzip bomb, or raise the limit)');
    // Replaced at once, and the partial read (line 1) is not shown.
    await expect(page.locator('body')).toHaveAttribute('data-worker-generation', '2');
    await expect(page.locator('#request-table')).toHaveCount(0);
    await expect(page.locator('#progress')).toHaveCount(0);

    // The next input opens in the fresh worker; nothing reads the bomb again.
    await page.locator('[data-example="gateway-interleaved"]').click();
    await expect(page.locator('#request-table')).toBeAttached();
    await expect(page.locator('.source-name')).toContainText('(synthetic example)');
    await expect(page.locator('#notice')).toHaveCount(0);
    await expect(page.locator('body')).toHaveAttribute('data-worker-generation', '2');
    // Content comes from the fresh worker's session.
    await page.locator('.treemap .cell[data-segment="0"]').click();
    await expect(page.locator('.content .payload')).not.toBeEmpty();
  });
});

test.describe('the worker watchdog', () => {
  test('a worker that sends nothing for 30 s is replaced, the notice says so, and the next input opens', async ({ page, context }) => {
    test.setTimeout(120_000);
    // The first worker loads a stand-in module that never answers (a hung analysis); later workers load the app's.
    await context.route(/\/assets\/worker-[^/]*\.js$/, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: "self.addEventListener('message', () => {});\n" }), { times: 1 });
    await page.goto('./');
    const paste = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'synthetic pasted request' }] });
    await page.locator('textarea').first().fill(paste);
    await page.locator('#paste-analyze').click();
    await expect(page.locator('body')).toHaveAttribute('data-worker-generation', '1');
    await expect(page.locator('#notice')).toContainText('The analysis sent no progress for 30 s, so its worker was stopped and replaced.', { timeout: 60_000 });
    await expect(page.locator('body')).toHaveAttribute('data-worker-generation', '2');
    await expect(page.locator('#progress')).toHaveCount(0);
    // The same input again, now in the fresh (real) worker.
    await page.locator('textarea').first().fill(paste);
    await page.locator('#paste-analyze').click();
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(1));
    await expect(page.locator('body')).toHaveAttribute('data-worker-generation', '2');
  });
});
