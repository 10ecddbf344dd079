// The treemap's zoom and search: zoom from the request into one message's blocks and back (pointer, keyboard,
// breadcrumb), a search that marks matching blocks, counts them and dims the rest; both kept while stepping between
// requests and carried by a copied link; nothing wider than a 390 px phone with both on screen.
import type { Page } from '@playwright/test';
import { copyLink, expect, expectRequest, test } from './fixtures.ts';

// Request 3 of this example: tools[0..11] are segments 0–11, system[0] is 12, messages[0] is 13, the assistant's
// message 1 is 14 (text) and 15 (read_file call), then 16 (its result), 17–18 (message 3) and 19 (message 4).
const REQUEST_3 = './#example=anthropic-agent-cache-bust&request=3&panel=tokens';
const cells = (page: Page) => page.locator('.treemap .cell');

test('zoom into a message with + and the button, back out with Esc, Backspace and the breadcrumb', async ({ page }) => {
  await page.goto(REQUEST_3);
  await expect(cells(page)).toHaveCount(20);
  await page.locator('.treemap .cell[data-segment="14"]').click();
  await expect(page.locator('#treemap-zoom-in')).toHaveText('Zoom into message 1 · assistant');
  await page.keyboard.press('+');
  await expect(cells(page)).toHaveCount(2);
  expect(await cells(page).evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset['segment']))).toEqual(['14', '15']);
  await expect(page.locator('.treemap-crumbs')).toHaveText(/Request #3.*message 1 · assistant.*messages\[1\]\.content\[0\]/);
  await expect(page.locator('.treemap .cell[data-segment="14"]')).toBeFocused();
  expect(page.url()).toContain('zoom=m1');
  // The two blocks fill the map between them.
  const areas = await cells(page).evaluateAll((nodes) => nodes.reduce((sum, n) => sum + n.clientWidth * n.clientHeight, 0));
  const map = await page.locator('.treemap').evaluate((n) => n.clientWidth * n.clientHeight);
  expect(areas / map).toBeGreaterThan(0.95);

  await page.keyboard.press('Escape');
  await expect(cells(page)).toHaveCount(20);
  await expect(page.locator('.treemap .cell[data-segment="14"]')).toBeFocused();
  expect(page.url()).not.toContain('zoom=');

  // The button zooms into the focused block's group: system[0] stands alone outside the messages.
  await page.keyboard.press('ArrowLeft');
  const focused = await page.evaluate(() => (document.activeElement as HTMLElement).dataset['segment']);
  await page.locator('#treemap-zoom-in').click();
  const inGroup = await cells(page).evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset['segment']));
  expect(inGroup).toContain(focused);
  expect(inGroup.length).toBeLessThan(20);
  await page.keyboard.press('Backspace');
  await expect(cells(page)).toHaveCount(20);

  // Double-click zooms; the breadcrumb's first step goes back.
  await page.locator('.treemap .cell[data-segment="12"]').dblclick();
  await expect(cells(page)).toHaveCount(1);
  await expect(page.locator('.treemap-crumbs')).toContainText('System');
  await page.locator('.treemap-crumbs button', { hasText: 'Request #3' }).click();
  await expect(cells(page)).toHaveCount(20);
});

test('search marks and counts matching blocks, dims the rest, Enter goes to the first, Esc clears', async ({ page }) => {
  await page.goto(REQUEST_3);
  await expect(cells(page)).toHaveCount(20);
  await page.locator('#treemap-search').fill('READ_FILE');
  // tools[0], the call in message 1, its result, the call in message 3 and its result.
  await expect(page.locator('.treemap .cell.match')).toHaveCount(5);
  expect(await page.locator('.treemap .cell.match').evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset['segment']))).toEqual(['0', '15', '16', '18', '19']);
  await expect(page.locator('#treemap-matches')).toHaveText('5 of 20 blocks match');
  const opacity = (segment: number) => page.locator(`.treemap .cell[data-segment="${segment}"]`).evaluate((n) => Number(getComputedStyle(n).opacity));
  expect(await opacity(13)).toBeLessThan(0.5);
  expect(await opacity(16)).toBe(1);
  await expect(page.locator('.treemap .cell[data-segment="16"]')).toHaveAttribute('aria-label', /^Match: Tool results/);

  // Kinds match too; inside a zoom the count says what lies outside it.
  await page.locator('#treemap-search').fill('tool results');
  await expect(page.locator('#treemap-matches')).toHaveText('2 of 20 blocks match');
  await page.locator('#treemap-search').press('Enter');
  await expect(page.locator('.treemap .cell[data-segment="16"]')).toBeFocused();
  await page.keyboard.press('+');
  await expect(cells(page)).toHaveCount(1);
  await expect(page.locator('#treemap-matches')).toHaveText('1 of 1 block match · 1 outside the zoom');
  await page.keyboard.press('Escape');

  await page.locator('#treemap-search').fill('no such block');
  await expect(page.locator('#treemap-matches')).toHaveText('0 of 20 blocks match');
  await page.locator('#treemap-search').press('Escape');
  await expect(page.locator('#treemap-search')).toHaveValue('');
  await expect(page.locator('#treemap-matches')).toHaveText('');
  await expect(page.locator('.treemap.searching')).toHaveCount(0);
});

test('zoom, search and the selected block are kept stepping between requests and restored by a copied link', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(REQUEST_3);
  await page.locator('.treemap .cell[data-segment="15"]').click();
  await page.keyboard.press('+');
  await page.locator('#treemap-search').fill('read_file');
  await page.locator('#treemap-search').blur();
  // The next request of the conversation has message 1 too: the same two blocks stay zoomed and marked.
  await page.keyboard.press('j');
  await expectRequest(page, 4);
  await expect(cells(page)).toHaveCount(2);
  await expect(page.locator('#treemap-search')).toHaveValue('read_file');
  await expect(page.locator('.treemap .cell.match')).toHaveCount(1);
  await expect(page.locator('.treemap .cell[aria-current="true"]')).toHaveAttribute('data-segment', '15');

  const link = await copyLink(page);
  expect(link).toMatch(/request=4&panel=tokens&segment=messages%5B1%5D.content%5B1%5D&zoom=m1&find=read_file/);
  const other = await context.newPage();
  await other.goto(link);
  await expectRequest(other, 4);
  await expect(other.locator('.treemap .cell')).toHaveCount(2);
  await expect(other.locator('.treemap .cell[aria-current="true"]')).toHaveAttribute('data-segment', '15');
  await expect(other.locator('#treemap-search')).toHaveValue('read_file');
  await expect(other.locator('.treemap-crumbs')).toContainText('message 1 · assistant');

  // A request without that message shows itself whole, and the link stops naming the zoom.
  await page.goto('./#example=anthropic-agent-cache-bust&request=1&panel=tokens&zoom=m7');
  await expect(cells(page)).not.toHaveCount(0);
  await expect(page.locator('.treemap-crumbs')).not.toContainText('message 7');
  expect(page.url()).not.toContain('zoom=');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`at 390 px (${colorScheme}) zoom and search fit the screen`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${REQUEST_3}&zoom=m1&find=read_file`);
    await expect(cells(page)).toHaveCount(2);
    await page.locator('#treemap-search').scrollIntoViewIfNeeded();
    await expect(page.locator('#treemap-search')).toBeVisible();
    await expect(page.locator('#treemap-matches')).toBeVisible();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    const bar = await page.locator('.treemap-bar').boundingBox();
    expect(bar!.x + bar!.width).toBeLessThanOrEqual(clientWidth);
  });
}
