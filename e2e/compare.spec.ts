// "Compare with…" in the app (issue #26.2): the cache-bust example against its fixed twin (both synthetic) gives the
// record `ctxray compare --json` gives for the same two files — shown row by row and exported as JSON and CSV —,
// two saved `analyze --json` records compare the same from the start page, an unreadable file is refused with
// its line while the first analysis stays, and the view is axe-clean (light and dark) and fits 1440 and 390 px.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, ROOT, test } from './fixtures.ts';
import { seriousViolations } from './axe.ts';
import { compareChangeText, compareValueText, METRIC_LABELS } from '../src/render/compare-text.ts';
import type { CompareRecord } from '../src/core/compare/index.ts';

const BUST = path.join(ROOT, 'examples/synthetic-anthropic-agent-cache-bust.jsonl.gz');
const FIXED = path.join(ROOT, 'examples/synthetic-anthropic-agent-cache-fixed.jsonl.gz');
const ctxray = (args: string[]): string => execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

let cli: CompareRecord;
let dir = '';
test.beforeAll(() => {
  cli = JSON.parse(ctxray(['compare', BUST, FIXED, '--json', '-'])) as CompareRecord;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-e2e-compare-'));
  ctxray(['analyze', BUST, '--json', path.join(dir, 'bust.json')]);
  ctxray(['analyze', FIXED, '--json', path.join(dir, 'fixed.json')]);
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The cache-bust example on screen, then "Compare with…" (by keyboard) and its fixed twin chosen as the after side. */
async function compareExample(page: Page): Promise<string> {
  const open = await openExample(page);
  // On a phone the header's actions fold behind "Options".
  if (await page.locator('.header-more').isVisible()) await page.locator('.header-more').click();
  await page.locator('#compare-with').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#compare-dialog')).toBeVisible();
  await page.locator('#compare-files-after').setInputFiles(FIXED);
  await expect(page.locator('h1')).toHaveText('Before → after');
  return open;
}

/** The cache-bust example on screen; the request it opened on (its own initial request). */
async function openExample(page: Page): Promise<string> {
  await page.goto('./#example=anthropic-agent-cache-bust');
  await expect(page.locator('#request-table')).toHaveAttribute('data-open', /^\d+$/);
  return (await page.locator('#request-table').getAttribute('data-open')) ?? '';
}

async function downloaded(page: Page, button: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${button}"]`).click()]);
  return fs.readFileSync(await download.path(), 'utf8');
}

/** The cells of a compare table: [label, before, after, change] per body row. */
const tableCells = (page: Page, id: string): Promise<string[][]> =>
  page.locator(`#compare-${id} tbody tr`).evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? '').trim())));

test('the example against its fixed twin shows and exports what `ctxray compare --json` gives; back returns to the session', async ({ page }) => {
  const open = await compareExample(page);
  // Every headline figure as the CLI's record has it, formatted, with the verdict in words.
  const verdictWord = { better: ' better', worse: ' worse', same: '', unknown: '' } as const;
  expect(await tableCells(page, 'totals')).toEqual(
    cli.metrics.map((row) => [METRIC_LABELS[row.metric], compareValueText(row.before, row.unit), compareValueText(row.after, row.unit), `${compareChangeText(row, row.unit)}${verdictWord[row.verdict]}`]),
  );
  expect((await tableCells(page, 'categories')).map((cells) => cells[0])).toEqual(cli.tokensByCategory.map((row) => row.category));
  expect((await tableCells(page, 'findings')).map((cells) => cells[0])).toEqual(cli.findings.map((row) => `${row.code} (${row.severity})`));
  const cost = cli.metrics.find((row) => row.metric === 'cost');
  expect(cost?.verdict).toBe('better');
  await expect(page.locator('#compare-headline')).toContainText('better');
  expect(JSON.parse(await downloaded(page, 'compare-json'))).toEqual(cli);
  const csv = (await downloaded(page, 'compare-csv')).trimEnd().split('\r\n');
  expect(csv[0]).toBe('section,item,measure,before,after,change,relative,verdict');
  expect(csv).toHaveLength(1 + cli.metrics.length + cli.tokensByCategory.length + 3 * cli.misses.length + 2 * cli.findings.length);
  expect(csv).toContain(`totals,cost,usd,${cost?.before},${cost?.after},${cost?.change},${cost?.relative},better`);
  await page.locator('#compare-back').click();
  await expect(page.locator('#request-table')).toHaveAttribute('data-open', open);
  await expect(page.locator('h1')).toContainText('synthetic example');
});

test('two saved analyze --json records compare from the start page as the CLI compares the logs', async ({ page }) => {
  await page.goto('./');
  await page.locator('#compare-with').click();
  await page.locator('#compare-files-before').setInputFiles(path.join(dir, 'bust.json'));
  await expect(page.locator('#compare-picked-before')).toHaveText('bust.json');
  await page.locator('#compare-files-after').setInputFiles(path.join(dir, 'fixed.json'));
  await expect(page.locator('h1')).toHaveText('Before → after');
  expect(JSON.parse(await downloaded(page, 'compare-json'))).toEqual(cli);
  await page.locator('#compare-back').click();
  await expect(page.locator('#file-input')).toBeAttached();
});

test('an unreadable file is refused with its line, and the first analysis stays on screen', async ({ page }) => {
  await openExample(page);
  await page.locator('#compare-with').click();
  await page.locator('#compare-files-after').setInputFiles({ name: 'junk.jsonl', mimeType: 'text/plain', buffer: Buffer.from('not json at all\n') });
  await expect(page.locator('.notice-host')).toContainText('Could not compare');
  await expect(page.locator('.notice-host')).toContainText('junk.jsonl:1:');
  await expect(page.locator('#request-table')).toBeVisible();
  await expect(page.locator('h1')).toContainText('synthetic example');
  // The worker's session is the example still: its panels answer.
  await page.getByRole('tab', { name: 'Findings', exact: true }).click();
  await expect(page.locator('#panel')).toHaveAttribute('data-panel', 'findings');
  await expect(page.locator('#panel')).not.toContainText('failed');
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`the compare view, ${scheme}`, () => {
    test.use({ colorScheme: scheme });
    for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      test(`at ${size.width}×${size.height}: one h1, axe clean, no horizontal overflow, no clipped number`, async ({ page }) => {
        await page.setViewportSize(size);
        await compareExample(page);
        await page.screenshot({ path: path.join(ROOT, 'test-results', `compare-${scheme}-${size.width}.png`), fullPage: true });
        expect(await page.locator('h1').count()).toBe(1);
        expect(await seriousViolations(page)).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, 'page wider than the viewport').toBeLessThanOrEqual(0);
        const clipped = await page.locator('.compare-table tbody td, .compare-table tbody th, .compare-table-wrap').evaluateAll((cells) =>
          cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent ?? ''),
        );
        expect(clipped).toEqual([]);
      });
    }
  });
}
