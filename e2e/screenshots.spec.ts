// Screenshots of the main views in light and dark, written to test-results/screenshots/ for a human to look at.
import path from 'node:path';
import { expect, ROOT, test } from './fixtures.ts';

const OUT = path.join(ROOT, 'test-results', 'screenshots');

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test('start screen', async ({ page }) => {
      await page.goto('./');
      await expect(page.locator('[data-example]').first()).toBeVisible();
      await page.screenshot({ path: path.join(OUT, `${scheme}-start.png`), fullPage: true });
    });

    test('tokens view with a segment open', async ({ page }) => {
      await page.goto('./#example=anthropic-agent-cache-bust');
      await expect(page.locator('.treemap .cell').first()).toBeVisible();
      await page.locator('.treemap .cell[data-segment="12"]').click();
      await expect(page.locator('.content .payload')).not.toBeEmpty();
      await page.locator('.treemap .cell[data-segment="16"]').hover();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(OUT, `${scheme}-tokens.png`) });
    });

    test('gateway log of several conversations', async ({ page }) => {
      await page.goto('./#example=gateway-interleaved');
      await expect(page.locator('.treemap .cell').first()).toBeVisible();
      await page.screenshot({ path: path.join(OUT, `${scheme}-gateway.png`), fullPage: true });
    });

    test('error state', async ({ page }) => {
      await page.goto('./');
      const broken = '{"model": "claude-sonnet-4-5", "messages": [ this is not JSON';
      await page.locator('#paste-input').fill(broken);
      await page.locator('#paste-analyze').click();
      await expect(page.locator('#notice')).toContainText('pasted text, line 1');
      // The text stays in the box to be fixed.
      await expect(page.locator('#paste-input')).toHaveValue(broken);
      await page.screenshot({ path: path.join(OUT, `${scheme}-error.png`) });
    });
  });
}
