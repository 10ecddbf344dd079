// The app at any size and its navigation: no panel is wider than a 390 px phone (light and dark), findings take you
// to the block, diff and cache row they name, a copied link restores request, panel and block, the request table
// is a grid whose rows open requests, and the treemap's tooltip stays on screen.
import type { Page } from '@playwright/test';
import { copyLink, expect, expectRequest, test } from './fixtures.ts';

async function expectNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `${what}: page is ${scrollWidth} px wide in a ${clientWidth} px viewport`).toBeLessThanOrEqual(clientWidth);
}

async function expectInViewport(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, selector).not.toBeNull();
  expect(box!.y + box!.height / 2).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height / 2).toBeLessThanOrEqual(viewport.height);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`at 390 px (${colorScheme}) no panel is wider than the screen, and a segment opens as a sheet`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('./');
    await expectNoHorizontalOverflow(page, 'start screen');
    await page.goto('./#example=gateway-interleaved');
    await expect(page.locator('#request-total')).toBeVisible();
    const tabs = await page.locator('[role=tab]').evaluateAll((nodes) => nodes.map((n) => n.id.replace(/^tab-/, '')));
    expect(tabs.length).toBeGreaterThanOrEqual(8);
    for (const id of tabs) {
      await page.locator(`#tab-${id}`).click();
      await expect(page.locator('#panel')).toHaveAttribute('data-panel', id);
      // The panel has its answer from the worker (no "…" placeholder left).
      await expect(page.locator('#panel')).not.toContainText(/…$/);
      await expect(page.locator('body')).toHaveAttribute('data-worker-pending', '0');
      await expectNoHorizontalOverflow(page, `panel ${id}`);
      // The open tab is scrolled into the tab bar.
      const tab = await page.locator(`#tab-${id}`).boundingBox();
      expect(tab!.x + tab!.width).toBeLessThanOrEqual(391);
    }
    await page.locator('#tab-tokens').click();
    await page.locator('.treemap .cell').first().click();
    const sheet = page.locator('.content-host.open');
    await expect(sheet).toBeVisible();
    await expect(sheet.locator('.content .payload')).not.toBeEmpty();
    const box = (await sheet.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(845);
    expect(box.y).toBeGreaterThan(0);
    await expectNoHorizontalOverflow(page, 'segment sheet');
    await sheet.getByRole('button', { name: 'Close the segment' }).click();
    await expect(page.locator('.content-host.open')).toHaveCount(0);
  });
}

test('a finding takes you to its block, its diff and its cache row', async ({ page }) => {
  await page.goto('./#example=openai-chat-tools-reordered&panel=findings');
  await expectRequest(page, 8);
  const card = page.locator('.finding').first();
  await expect(card).toContainText('tools_reordered');

  await card.getByRole('button', { name: 'Block tools[1]: show it in request 4' }).click();
  await expectRequest(page, 4);
  await expect(page.locator('#panel')).toHaveAttribute('data-panel', 'tokens');
  const cell = page.locator('.treemap .cell[aria-current="true"]');
  await expect(cell).toHaveCount(1);
  await expect(cell).toBeFocused();
  await expectInViewport(page, '.treemap .cell[aria-current="true"]');
  await expect(page.locator('.content')).toContainText('tools[1]');
  await expect(page).toHaveURL(/segment=tools%5B1%5D/);

  await page.locator('#tab-findings').click();
  await page.locator('.finding').first().getByRole('button', { name: 'Diff: what changed in request 4' }).click();
  await expect(page.locator('#panel')).toHaveAttribute('data-panel', 'diff');
  const row = page.locator('.diff-lines li[aria-current="true"]');
  await expect(row).toHaveAttribute('data-path', 'tools[1]');
  await expect(row).toBeFocused();
  await expectInViewport(page, '.diff-lines li[aria-current="true"]');

  await page.locator('#tab-findings').click();
  await page.locator('.finding').first().getByRole('button', { name: 'Cache row: its cache figures in request 4' }).click();
  await expect(page.locator('#panel')).toHaveAttribute('data-panel', 'cache');
  const cacheRow = page.locator('tbody tr[aria-current="true"]');
  await expect(cacheRow).toHaveAttribute('data-request', '3');
  await expect(cacheRow).toBeFocused();

  // The strip above the treemap groups by code with counts and goes to the same block.
  await page.locator('#tab-tokens').click();
  await page.locator('.findings-strip').getByRole('button', { name: 'tools[1] in #4: show it in request 4' }).click();
  await expect(page.locator('.treemap .cell[aria-current="true"]')).toBeFocused();
  await expect(page.locator('.findings-strip')).toContainText('tools_reordered · 1 request');
});

test('the selected block is kept while stepping, and a copied link restores request, panel and block', async ({ page, context }) => {
  await page.goto('./#example=openai-chat-tools-reordered&request=5&panel=tokens');
  await expectRequest(page, 5);
  await page.locator('.treemap .cell[data-segment="0"]').click();
  await expect(page).toHaveURL(/segment=tools%5B0%5D/);
  // j: the next request in the table; the same block stays selected there.
  await page.locator('#request-total').click();
  await page.keyboard.press('j');
  await expectRequest(page, 6);
  await expect(page.locator('.treemap .cell[aria-current="true"]')).toHaveAttribute('data-segment', '0');
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await expectRequest(page, 4);

  await context.grantPermissions(['clipboard-write']);
  const link = await copyLink(page);
  await expect(page.locator('#notice')).toContainText('Link copied');
  expect(link).toMatch(/request=4&panel=tokens&segment=tools%5B0%5D/);
  const other = await context.newPage();
  await other.goto(link);
  await expectRequest(other, 4);
  await expect(other.locator('#panel')).toHaveAttribute('data-panel', 'tokens');
  await expect(other.locator('.treemap .cell[aria-current="true"]')).toHaveAttribute('data-segment', '0');
  await expect(other.locator('.content')).toContainText('tools[0]');
});

test('the request table is a sortable, filterable grid whose rows open requests by mouse and keyboard', async ({ page }) => {
  await page.goto('./#example=openai-chat-tools-reordered');
  await expectRequest(page, 8);
  const grid = page.getByRole('grid', { name: /Requests/ });
  await expect(grid).toHaveAttribute('aria-rowcount', '9');
  await expect(grid.getByRole('row')).toHaveCount(9);
  await expect(grid.locator('[data-request="7"]')).toHaveAttribute('aria-selected', 'true');
  // The cache columns arrive from the worker: request 4 missed because its setup changed (the reordered tools).
  await expect(grid.locator('[data-request="3"]')).toContainText('setup changed');
  await grid.locator('[data-request="1"]').click();
  await expectRequest(page, 2);
  // Keyboard: the cursor moves with ↓ (or j), Enter opens.
  await grid.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expectRequest(page, 4);
  // The open request's miss names its block and links there.
  await expect(page.locator('#request-miss')).toContainText('setup changed at tools[1]');
  await page.locator('#request-miss').getByRole('button', { name: 'block tools[1]' }).click();
  await expect(page.locator('.treemap .cell[aria-current="true"]')).toBeFocused();
  await expect(page.locator('.content')).toContainText('tools[1]');
  // Sort by cost, most expensive first: request 4 (the miss) comes first.
  await grid.getByRole('button', { name: 'Cost' }).click();
  await expect(grid.locator('[role=columnheader][aria-sort="descending"]')).toHaveText(/Cost/);
  await expect(grid.locator('.rt-body .rt-row').first()).toHaveAttribute('data-request', '3');
  // Filter: misses only, then text over block paths.
  await page.locator('#request-filter-miss').selectOption('misses');
  await expect(page.locator('.rt-count')).toHaveText('2 of 8 requests');
  await page.locator('#request-filter-miss').selectOption('any');
  await page.locator('#request-filter').fill('messages[13]');
  await expect(page.locator('.rt-count')).toHaveText('2 of 8 requests');
  // The shortcuts sheet.
  await page.locator('#request-total').click();
  await page.keyboard.press('?');
  await expect(page.locator('#shortcuts')).toBeVisible();
  await expect(page.locator('#shortcuts')).toContainText('Next / previous request');
  await page.keyboard.press('Escape');
  await expect(page.locator('#shortcuts')).toBeHidden();
});

test('the tooltip of a cell at the right edge stays inside the viewport', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto('./#example=gateway-interleaved');
  await expect(page.locator('.treemap .cell').first()).toBeVisible();
  const rightmost = await page.locator('.treemap .cell').evaluateAll((cells) => {
    let best = 0;
    cells.forEach((c, i) => {
      if (c.getBoundingClientRect().right > cells[best]!.getBoundingClientRect().right) best = i;
    });
    return cells[best]!.getAttribute('data-segment');
  });
  await page.locator(`.treemap .cell[data-segment="${rightmost}"]`).hover();
  const tip = page.locator('.treemap-tip');
  await expect(tip).toBeVisible();
  const box = (await tip.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(1000);
  expect(box.y + box.height).toBeLessThanOrEqual(700);
});
