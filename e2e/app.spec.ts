// The app shell: progress and Cancel on a large input, a sub-path deployment, and the sortable segment table.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DIST, expect, ROOT, test } from './fixtures.ts';

test('a large input shows progress and can be cancelled; the next input still opens', async ({ page }) => {
  await page.goto('./');
  // ~24 MB of synthetic OpenAI JSONL built inside the page, so it need not cross from the test process. Every
  // line is distinct, so each must be tokenized exactly (seconds of work): Cancel is clicked long before the end.
  await page.evaluate(() => {
    const lines = Array.from({ length: 600 }, (_, i) =>
      JSON.stringify({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: `synthetic filler line ${i}: ${Array.from({ length: 6000 }, (_, j) => `w${(i * 7919 + j * 104729) % 100003}`).join(' ')}` }],
      }),
    );
    const file = new File([lines.join('\n')], 'synthetic-large.jsonl');
    const transfer = new DataTransfer();
    transfer.items.add(file);
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  });
  await expect(page.locator('#progress')).toBeVisible();
  await expect(page.locator('#progress')).toContainText('synthetic-large.jsonl');
  await page.locator('#cancel').click();
  await expect(page.locator('#notice')).toContainText('Cancelled opening synthetic-large.jsonl');
  await expect(page.locator('#progress')).toHaveCount(0);
  await expect(page.locator('#drop-target')).toBeVisible();

  await page.locator('[data-example="openai-responses-session"]').click();
  await expect(page.locator('.treemap .cell').first()).toBeVisible();
});

test('the segment table sorts by any column', async ({ page }) => {
  await page.goto('./#example=anthropic-file-reread');
  await expect(page.locator('.segments tbody tr').first()).toBeVisible();
  const tokensOfRows = async (): Promise<number[]> =>
    (await page.locator('.segments tbody tr td:nth-child(5)').allTextContents()).map((t) => Number(t.replace(/[^\d]/g, '')));
  await page.locator('button[data-sort="tokens"]').click();
  await expect(page.locator('th[aria-sort="descending"]')).toContainText('Tokens');
  const descending = await tokensOfRows();
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  await page.locator('button[data-sort="tokens"]').click();
  const ascending = await tokensOfRows();
  expect(ascending).toEqual([...descending].reverse().sort((a, b) => a - b));
  await page.locator('button[data-sort="index"]').click();
  await expect(page.locator('.segments tbody tr').first()).toHaveAttribute('data-segment', '0');
});

test.describe('deployed below a sub-path', () => {
  let server: ChildProcess;
  let base = '';

  test.beforeAll(async () => {
    server = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), '--port', '0', '--dir', DIST, '--prefix', '/team/tools/ctxray/'], { cwd: ROOT });
    base = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
      server.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
    });
  });

  test.afterAll(() => {
    server.kill();
  });

  test('opens an example and loads every asset from below that path', async ({ browser }) => {
    const context = await browser.newContext();
    const requested: string[] = [];
    context.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith('blob:') && !url.startsWith('data:')) requested.push(url);
    });
    const page = await context.newPage();
    await page.goto(`${base}#example=openai-chat-tools-reordered`);
    await expect(page.locator('.treemap .cell').first()).toBeVisible();
    expect(requested.length).toBeGreaterThan(3);
    for (const url of requested) expect(url.startsWith(base), url).toBe(true);
    await context.close();
  });
});

test('the overview strip and the address bar both move between requests without re-reading the input', async ({ page }) => {
  await page.goto('./#example=mixed-models');
  await expect(page.locator('.strip .strip-bar')).toHaveCount(18);
  await page.locator('.strip .strip-bar[data-request="2"]').click();
  await expect(page.locator('#request-table')).toHaveAttribute('data-open', '2');
  await expect(page).toHaveURL(/request=3&/);
  await expect(page.locator('.strip .strip-bar.selected')).toHaveAttribute('data-request', '2');

  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(request.url()));
  await page.evaluate(() => (location.hash = '#example=mixed-models&request=5&panel=tokens'));
  await expect(page.locator('#request-table')).toHaveAttribute('data-open', '4');
  expect(fetched.filter((url) => url.includes('/examples/'))).toEqual([]);
  await page.goBack();
  await expect(page.locator('#request-table')).toHaveAttribute('data-open', '2');
});

test('a worker crash is reported and a fresh worker takes over with the same input', async ({ page }) => {
  await page.goto('./#example=openai-responses-session&request=2');
  await expect(page.locator('.treemap .cell').first()).toBeVisible();
  const [first] = page.workers();
  // An uncaught exception inside the worker, as a bug in the analysis would throw.
  await first?.evaluate(() => {
    setTimeout(() => {
      throw new Error('synthetic crash');
    }, 0);
  });
  await expect(page.locator('#notice')).toContainText('The analysis worker stopped');
  await expect(page.locator('#notice')).toContainText('A fresh worker read the input again');
  await expect(page.locator('#request-table')).toHaveAttribute('data-open', '1');
  // Content comes from the new worker.
  await page.locator('.treemap .cell').first().click();
  await expect(page.locator('.content .payload')).not.toBeEmpty();
  await expect(page.locator('.content .error')).toHaveCount(0);
});
