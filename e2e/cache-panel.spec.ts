// The Cache panel in real Chromium: the same simulated figures and costs the CLI writes for the same example
// (synthetic), rows that open their request, and the offline calibration offer on a log with recorded usage.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { dropFiles, expect, expectRequest, ROOT, test } from './fixtures.ts';

interface CliCache {
  totals: { cost: { actual: number; optimized: number } };
  requests: { cache: { read: number; write5m: number; uncached: number } }[];
}

function cliRecord(file: string): CliCache {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', '--json', '-', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out) as CliCache;
}

const grouped = (n: number) => n.toLocaleString('en-US');

test('the cache table matches the CLI and a row opens its request', async ({ page }) => {
  const cli = cliRecord(path.join(ROOT, 'examples', 'synthetic-anthropic-agent-cache-bust.jsonl.gz'));
  await page.goto('./#example=anthropic-agent-cache-bust');
  await expectRequest(page, 24);
  await page.getByRole('tab', { name: 'Cache' }).click();
  const rows = page.locator('table.cache-table tbody tr');
  await expect(rows).toHaveCount(24);
  await expect(page.locator('.cache-summary')).toContainText(`Actual cost $${cli.totals.cost.actual.toFixed(4)}`);
  await expect(page.locator('.cache-summary')).toContainText(`optimized $${cli.totals.cost.optimized.toFixed(4)}`);
  const second = cli.requests[1]!.cache;
  const cells = rows.nth(1).locator('td');
  // Columns: #, model, prompt, read, write 5m, write 1h, miss, ...
  await expect(cells.nth(4)).toHaveText(`≈${grouped(second.write5m)}`);
  await expect(cells.nth(6)).toHaveText(`≈${grouped(second.uncached)}`);
  await rows.nth(4).click();
  await expectRequest(page, 5);
});

test('a log with recorded usage shows recorded columns and offers calibration', async ({ page }) => {
  const system = 'Synthetic system prompt for the cache panel check. '.repeat(150);
  const lines = [0, 1].map((turn) => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'Synthetic question.', cache_control: { type: 'ephemeral' } }] }];
    const usage =
      turn === 0
        ? { input_tokens: 3, cache_creation_input_tokens: 1900, cache_read_input_tokens: 0, output_tokens: 4 }
        : { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 1900, output_tokens: 4 };
    const request = { model: 'claude-sonnet-4-5', max_tokens: 8, system, messages };
    return JSON.stringify({ request, response: { usage } });
  });
  await page.goto('./');
  await dropFiles(page, [{ name: 'synthetic-recorded.jsonl', bytes: Buffer.from(lines.join('\n') + '\n') }]);
  await expectRequest(page, 2);
  await page.getByRole('tab', { name: 'Cache' }).click();
  await expect(page.locator('table.cache-table thead')).toContainText('Recorded read');
  await expect(page.locator('.cache-summary')).toContainText('agrees on whether the cache was read for 2 (100.0%)');
  // Recorded usage calibrates the Claude estimates by default; the box turns it off.
  const offer = page.locator('.cache-calibration input[type=checkbox]');
  await expect(offer).toBeChecked();
  const before = await page.locator('table.cache-table tbody tr').first().locator('td').nth(2).textContent();
  await offer.uncheck();
  await expect(page.locator('.cache-calibration input[type=checkbox]')).not.toBeChecked();
  // The choice is view state: the address (and a copied link) carries it.
  await expect(page).toHaveURL(/calibrate=off/);
  await expect(page.locator('table.cache-table tbody tr').first().locator('td').nth(2)).not.toHaveText(before ?? '');
});
