// The picture above the fold (issue #26.3): at 1440×900 and 390×844 the selected request's treemap starts in the
// top 45% of the first screen, on an example and on a session opened from a dropped folder; no numeric cell of the
// request list clips its number (scrollWidth > clientWidth), and the list, unfolded on a phone, fits the screen.
import path from 'node:path';
import { dropFolder, expect, folderFiles, realSessionFolder, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

async function treemapTop(page: Page): Promise<number> {
  await expect(page.locator('.treemap .cell').first()).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.locator('.treemap').evaluate((node) => node.getBoundingClientRect().top);
}

/** Numeric cells of the request list whose number does not fit (their text, for the message). */
async function clippedNumbers(page: Page): Promise<string[]> {
  await expect(page.locator('#request-table .rt-body .rt-row').first()).toBeAttached();
  return page.locator('#request-table .rt-cell.num').evaluateAll((cells) =>
    cells.filter((c) => c.getClientRects().length > 0 && c.scrollWidth > c.clientWidth).map((c) => c.textContent ?? ''),
  );
}

async function checkSession(page: Page, label: string, size: { width: number; height: number }): Promise<void> {
  expect(await treemapTop(page), `${label}: treemap top`).toBeLessThanOrEqual(size.height * 0.45);
  if (size.width < 981) {
    // Folded behind its button on a phone; unfolded, it fits the screen.
    await expect(page.locator('#request-table')).toBeHidden();
    await page.locator('#requests-toggle').click();
    await expect(page.locator('#requests-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('#request-table')).toBeVisible();
    const width = await page.locator('#request-table').evaluate((node) => node.scrollWidth);
    expect(width, `${label}: request list width`).toBeLessThanOrEqual(size.width - 24);
  }
  // The cache columns (cost) arrive from the worker: wait for them before measuring.
  await expect(page.locator('#request-filter-miss')).toBeEnabled();
  expect(await clippedNumbers(page), `${label}: clipped numeric cells`).toEqual([]);
}

for (const size of SIZES) {
  test(`an example at ${size.width}×${size.height}: the treemap is above the fold and no number clips`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: size });
    const page = await context.newPage();
    await page.goto('./#example=anthropic-agent-cache-bust');
    await checkSession(page, `example ${size.width}`, size);
    await context.close();
  });
}

test.describe('a session opened from a dropped folder', () => {
  const folder = realSessionFolder();

  for (const size of SIZES) {
    test(`at ${size.width}×${size.height}: the treemap is above the fold and no number clips`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      await page.goto('./');
      await dropFolder(page, 'projects', folderFiles(path.join(folder(), 'projects')));
      await page.locator('#folder-table .rt-body .rt-row').first().click();
      await expect(page.locator('#folder-back')).toBeVisible();
      await checkSession(page, `folder session ${size.width}`, size);
      await context.close();
    });
  }
});
