// Accessibility in real Chromium: axe-core (a devDependency, run in the page) finds no serious or critical
// violation on the start page, on every panel of an example, on a dropped folder of real sessions (its table and
// charts) and on a session opened from it, in light and in dark. The app's CSP (script-src 'self') blocks an
// injected <script>, so axe's source is evaluated through the DevTools protocol (page.evaluate), which the page's
// CSP does not govern; the app itself runs under its production policy as everywhere else in the suite.
// Two examples by default; CTXRAY_AXE_ALL=1 runs every built-in example (all seven were clean when this was written).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { dropFolder, expect, folderFiles, hasRealFixtures, REAL_FIXTURES, test } from './fixtures.ts';
import { buildRealSessionFolder } from '../tests/conformance/real-session-folder.ts';
import { seriousViolations } from './axe.ts';

/** Waits until `selector` has content that has not changed for 300 ms (a panel's answer came and was drawn). */
async function settled(page: Page, selector: string): Promise<void> {
  let last = '';
  await expect
    .poll(async () => {
      const now = await page.locator(selector).innerHTML();
      const same = now === last && now.length > 0;
      last = now;
      return same;
    }, { intervals: [300] })
    .toBe(true);
}

async function expectClean(page: Page, where: string): Promise<void> {
  // Every view names itself with one h1.
  expect.soft(await page.locator('h1').count(), `${where}: h1`).toBe(1);
  expect.soft(await seriousViolations(page), where).toEqual([]);
}

/** Opens each panel tab of the analysis on screen in turn and checks it once its answer is drawn. */
async function everyPanel(page: Page, where: string): Promise<void> {
  const names = (await page.getByRole('tab').allTextContents()).map((t) => t.trim());
  expect(names).toEqual(PANELS);
  for (const name of names) {
    await page.getByRole('tab', { name, exact: true }).click();
    await expect(page.locator('#panel')).toHaveAttribute('data-panel', name.toLowerCase());
    // Let the panel's worker answer land: its content is there and stays the same for 300 ms.
    await settled(page, '#panel');
    await expectClean(page, `${where}, ${name} panel`);
  }
}

const PANELS = ['Tokens', 'Findings', 'Cache', 'Diff', 'Conversations', 'Timeline', 'Summary', 'Duplicates', 'Clearing'];

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`axe, ${scheme}`, () => {
    test.use({ colorScheme: scheme });

    test('the start page', async ({ page }) => {
      await page.goto('./');
      await expect(page.locator('#file-input')).toBeAttached();
      await expectClean(page, `${scheme} start page`);
    });

    // An Anthropic agent loop (every finding kind of a cache bust) and a gateway log of several formats and models.
    for (const example of (process.env.CTXRAY_AXE_ALL ? ['anthropic-agent-cache-bust', 'anthropic-agent-cache-fixed', 'anthropic-file-reread', 'openai-chat-tools-reordered', 'openai-responses-session', 'gateway-interleaved', 'mixed-models'] : ['anthropic-agent-cache-bust', 'gateway-interleaved'])) {
      test(`every panel of the ${example} example`, async ({ page }) => {
        await page.goto(`./#example=${example}`);
        await expect(page.locator('#request-table')).toBeVisible();
        await everyPanel(page, `${scheme} ${example}`);
      });
    }

    test('a folder of real sessions, its charts and tabs, and every panel of a session opened from it', async ({ page }) => {
      test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);
      // Nine panels of a real session after the folder: over a minute on a loaded machine.
      test.setTimeout(240_000);
      const dir = buildRealSessionFolder(path.join(REAL_FIXTURES, 'transcripts'), { nested: false, agents: ['codex', 'gemini-cli'] });
      try {
        await page.goto('./');
        await dropFolder(page, 'projects', folderFiles(path.join(dir, 'projects')));
        await expect(page.locator('#folder-chart-cost-svg')).toBeVisible();
        for (const details of await page.locator('.chart-table').all()) await details.locator('summary').click();
        await expectClean(page, `${scheme} folder view`);
        for (const tab of ['projects', 'days']) {
          await page.locator(`.folder-tab[data-tab="${tab}"]`).click();
          await expect(page.locator('#folder-table')).toHaveAttribute('data-tab', tab);
          await expectClean(page, `${scheme} folder view, ${tab}`);
        }
        await page.locator('.folder-tab[data-tab="sessions"]').click();
        await page.locator('#folder-table .rt-body .rt-row').first().click();
        await expect(page.locator('#folder-back')).toBeVisible();
        await everyPanel(page, `${scheme} real folder session`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
