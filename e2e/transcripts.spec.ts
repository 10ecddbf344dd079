// Transcripts in real Chromium: a dropped transcript opens on the Timeline (chart, compactions marked, recorded vs
// simulated figures), and several dropped transcripts give the Summary tables (per day, per model). The Claude
// Code sessions here are SYNTHETIC (written by this test); the pi session is a real fixture, read in place.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { dropFiles, expect, hasRealFixtures, REAL_FIXTURES, selectRequest, shownTotal, test } from './fixtures.ts';
import { syntheticClaudeCodeSession } from '../tests/transcripts/claude-code-session.ts';

/** A synthetic Claude Code session: one user turn and one recorded API call per entry, a minute apart. */
const syntheticSession = (...args: Parameters<typeof syntheticClaudeCodeSession>) => Buffer.from(syntheticClaudeCodeSession(...args));

const SESSION_A = syntheticSession('synthetic-a', '2026-03-01T10:00:00.000Z', [
  { input: 1000, read: 0, write5m: 2000, output: 100 },
  { input: 10, read: 3000, write5m: 200, output: 50 },
]);
const SESSION_B = syntheticSession('synthetic-b', '2026-03-02T09:00:00.000Z', [{ input: 500, read: 0, write5m: 0, output: 20 }]);

test('a dropped transcript shows its timeline with recorded usage beside the reconstruction', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [{ name: 'synthetic-session-a.jsonl', bytes: SESSION_A }]);
  await expect(page.locator('#request-table')).toHaveAttribute('data-open', '1');
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const panel = page.locator('#panel');
  await expect(panel.locator('#timeline-chart')).toBeVisible();
  // Three series by default where usage was recorded: recorded prompt, reconstructed + inferred setup, recorded
  // cache read (one line each, 2 requests); the legend's checkboxes add the others.
  await expect(panel.locator('#timeline-chart polyline')).toHaveCount(3);
  await expect(panel.locator('polyline.tl-recorded')).toHaveCount(1);
  await expect(panel.locator('polyline.tl-reconstructed')).toHaveCount(0);
  await panel.getByRole('checkbox', { name: 'Reconstructed prompt' }).check();
  await expect(panel.locator('polyline.tl-reconstructed')).toHaveCount(1);
  await expect(panel.locator('#timeline-chart polyline')).toHaveCount(4);
  await expect(panel.locator('#timeline-agreement')).toContainText('2 request(s) carry recorded usage');
  await expect(panel.locator('#timeline-agreement')).toContainText('unknown');
  // Clicking the left edge of the plot selects the first request.
  const box = await panel.locator('#timeline-chart').boundingBox();
  if (box === null) throw new Error('timeline chart has no box');
  await page.mouse.click(box.x + box.width * 0.07, box.y + box.height / 2);
  await expect(page.locator('#request-table')).toHaveAttribute('data-open', '0');
});

test('a 5-hour idle gap is drawn narrow and marked', async ({ page }) => {
  // SYNTHETIC: three calls from 10:00 (a minute apart), then two from 15:02, in one file: a 5-hour pause.
  const before = syntheticClaudeCodeSession('synthetic-c', '2026-03-01T10:00:00.000Z', [{ input: 1000, read: 0, write5m: 2000, output: 10 }, { input: 10, read: 3000, write5m: 100, output: 10 }, { input: 10, read: 3100, write5m: 100, output: 10 }]);
  const after = syntheticClaudeCodeSession('synthetic-d', '2026-03-01T15:02:00.000Z', [{ input: 1000, read: 0, write5m: 2500, output: 10 }, { input: 10, read: 3500, write5m: 100, output: 10 }]);
  await page.goto('./');
  await dropFiles(page, [{ name: 'synthetic-idle.jsonl', bytes: Buffer.from(before + after) }]);
  await expect(page.locator('#request-table')).toHaveAttribute('data-requests', '5');
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const chart = page.locator('#panel #timeline-chart');
  await expect(chart.locator('.tl-gap')).toHaveCount(1);
  await expect(chart.locator('.tl-gap-label')).toHaveText('idle 5 h');
  await expect(chart).toHaveAttribute('aria-label', /1 idle gap\(s\) over 15 min drawn narrow/);
  // 3 active minutes (2 before, 1 after) share 96% of the plot: the pause starts at 2/3 × 0.96 = 0.64 of it and
  // ends at 0.68, so the 10:02 and 15:02 requests sit 4% of the plot apart, not at its two edges.
  const xs = await chart.locator('polyline.tl-recorded').evaluateAll((lines) => lines.flatMap((line) => (line.getAttribute('points') ?? '').split(' ').map((p) => Number(p.split(',')[0]))));
  const left = 64;
  const plot = 960 - 64 - 16;
  expect(xs.map((x) => Math.round(((x - left) / plot) * 100))).toEqual([0, 32, 64, 68, 100]);
});

test('several dropped transcripts fill the Summary tables per day and per model', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [
    { name: 'synthetic-session-a.jsonl', bytes: SESSION_A },
    { name: 'synthetic-session-b.jsonl', bytes: SESSION_B },
  ]);
  await expect(page.locator('#request-table')).toBeVisible();
  await page.getByRole('tab', { name: 'Summary' }).click();
  const days = page.locator('#summary-days tbody tr');
  await expect(days).toHaveCount(2);
  // Hand-computed: day 1 prompts 3000 + 3210, day 2 prompt 500 (recorded usage).
  await expect(days.nth(0)).toContainText('2026-03-01');
  await expect(days.nth(0)).toContainText('6,210');
  await expect(days.nth(1)).toContainText('500');
  await expect(page.locator('#summary-models tbody tr')).toHaveCount(1);
  await expect(page.locator('#summary-conversations tbody tr').first()).toContainText('synthetic-session-a.jsonl');
});

test('a real pi session with two compactions shows both on the timeline', async ({ page }) => {
  test.skip(!hasRealFixtures, `real fixtures absent (${REAL_FIXTURES})`);
  const file = path.join(REAL_FIXTURES, 'transcripts/pi/before-compaction.jsonl');
  await page.goto('./');
  await dropFiles(page, [{ name: path.basename(file), bytes: readFileSync(file) }]);
  await expect(page.locator('#request-table')).toBeVisible();
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const panel = page.locator('#panel');
  await expect(panel.locator('#timeline-chart .tl-compaction')).toHaveCount(2);
  await expect(panel.locator('#timeline-compactions')).toContainText('2 compaction(s)');
  await expect(panel.locator('#timeline-agreement')).toContainText('484 request(s) carry recorded usage');
});

test('a request log that is not a transcript still gets a timeline and a summary', async ({ page }) => {
  await page.goto('./#example=gateway-interleaved&panel=timeline');
  const panel = page.locator('#panel');
  await expect(panel.locator('#timeline-chart')).toBeVisible();
  await expect(panel.locator('polyline.tl-reconstructed, circle.tl-reconstructed').first()).toBeAttached();
  await page.getByRole('tab', { name: 'Summary' }).click();
  await expect(page.locator('#summary-days tbody tr').first()).toBeVisible();
  await expect(page.locator('#summary-models tbody tr').first()).toBeVisible();
});

test('a real Claude Code request shows its unrecorded setup in the treemap and totals the provider count', async ({ page }, testInfo) => {
  test.skip(!hasRealFixtures, `real fixtures absent (${REAL_FIXTURES})`);
  const file = path.join(REAL_FIXTURES, 'transcripts/claude-code/tool_heavy.jsonl');
  await page.goto('./');
  await page.locator('#file-input').setInputFiles(file);
  await expect(page.locator('#request-table')).toBeVisible();
  await selectRequest(page, 3);
  // The provider counted 27,666 prompt tokens for the last call (its recorded usage); the request totals that.
  await expect(page.locator('#recorded-total')).toHaveText('27,666');
  // The call before re-wrote 7,992 tokens after a change in the unrecorded setup, which has no block to link to:
  // no block link, and no empty separator for one.
  await selectRequest(page, 2);
  await expect(page.locator('#request-miss')).toHaveText(/^Cache miss: setup changed at \(system prompt and tools, not recorded\), \$0\.0759 over a hit · diff · cache row$/);
  await selectRequest(page, 3);
  expect(await shownTotal(page)).toBe(27_666);
  const setup = page.locator('.treemap .cell[data-category="setup_inferred"]');
  await expect(setup).toHaveCount(1);
  await expect(setup).toHaveAttribute('aria-label', /not recorded, ≈[\d,]+ inferred from recorded usage/);
  await expect(page.locator('table.totals tr[data-category="setup_inferred"]')).toContainText('≈');
  await expect(page.locator('table.totals tfoot [data-total]')).toHaveAttribute('data-total', '27666');
  await expect(page.locator('table.segments tbody tr').filter({ hasText: 'not recorded; inferred from recorded usage' })).toHaveCount(1);
  // The inferred setup is the largest rectangle: the request's biggest block is visible.
  const areas = await page.locator('.treemap .cell').evaluateAll((cells) =>
    cells.map((cell) => ({ category: cell.getAttribute('data-category'), area: cell.getBoundingClientRect().width * cell.getBoundingClientRect().height })),
  );
  expect(areas.reduce((a, b) => (b.area > a.area ? b : a)).category).toBe('setup_inferred');
  await setup.click();
  await expect(page.locator('.content h3')).toContainText('Not recorded, inferred');
  // Summary's prompt for the day is the recorded one (25,801 + 26,007 + 26,507 + 27,666): the requests' totals.
  await page.getByRole('tab', { name: 'Summary' }).click();
  await expect(page.locator('#summary-days tbody tr').first()).toContainText('105,981');
  await page.getByRole('tab', { name: 'Tokens' }).click();
  await page.locator('.treemap .cell[data-category="setup_inferred"]').click();
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1440, 390]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: testInfo.outputPath(`setup-inferred-${scheme}-${width}.png`), fullPage: width === 390 });
    }
  }
});
