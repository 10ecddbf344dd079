// The folder's charts over time in real Chromium: a folder of real sessions (../shared/fixtures/real/transcripts,
// copied into a temp folder laid out like ~/.claude/projects), dropped as Chromium delivers a folder. The cost
// chart has one bar group per UTC day with requests (the days of `ctxray analyze <folder> --json` summary.days),
// its numbers table sums to the sessions' recorded cost, and the keyboard reaches every group: arrows move,
// Enter lists that day's sessions. Screenshots at 1440 and 390 px, light and dark, go to test-results/screenshots/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dropFolder, expect, folderFiles, hasRealFixtures, REAL_FIXTURES, ROOT, test } from './fixtures.ts';
import { buildRealSessionFolder } from '../tests/conformance/real-session-folder.ts';

const OUT = path.join(ROOT, 'test-results', 'screenshots');

interface Record {
  sessions: { file: string; cost: number; start: string | null; end: string | null }[];
  summary: { days: { day: string | null; requests: number }[] };
}

test.describe('the charts of a dropped folder of real sessions', () => {
  test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);
  let dir = '';
  let files: { path: string; base64: string }[] = [];
  let record: Record;

  test.beforeAll(() => {
    dir = buildRealSessionFolder(path.join(REAL_FIXTURES, 'transcripts'), { nested: false, agents: ['codex', 'gemini-cli'] });
    files = folderFiles(path.join(dir, 'projects'));
    const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', 'projects', '--json', '-'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    record = JSON.parse(out) as Record;
  });
  test.afterAll(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test('one bar group per day with requests; the table sums to the recorded cost; the keyboard opens a day', async ({ page }) => {
    await page.goto('./');
    await dropFolder(page, 'projects', files);
    await expect(page.locator('#folder-table')).toHaveAttribute('data-rows', String(record.sessions.length));
    const days = record.summary.days.flatMap((d) => (d.day === null ? [] : [d.day])).sort();
    // Every session's first and last day is one of them.
    for (const row of record.sessions) for (const time of [row.start, row.end]) if (time !== null) expect(days).toContain(time.slice(0, 10));
    expect(days.length).toBeGreaterThan(1);
    await expect(page.locator('.folder-charts')).toHaveAttribute('data-bucketing', 'day');
    const cost = page.locator('#folder-chart-cost-svg');
    await expect(cost.locator('.chart-group')).toHaveCount(days.length);
    expect(await cost.locator('.chart-group').evaluateAll((groups) => groups.map((g) => g.getAttribute('data-label')))).toEqual(days);
    for (const id of ['tokens', 'hit', 'lost']) await expect(page.locator(`#folder-chart-${id}-svg .chart-group`)).toHaveCount(days.length);

    // The table's totals column sums to the sessions' recorded cost (each shown to 4 decimals).
    const totals = await page.locator('#folder-chart-cost-table tbody tr td:last-child').allTextContents();
    expect(totals).toHaveLength(days.length);
    const sum = totals.reduce((s, text) => s + Number(text.replace(/[$,]/g, '')), 0);
    const recorded = record.sessions.reduce((s, row) => s + row.cost, 0);
    expect(Math.abs(sum - recorded)).toBeLessThanOrEqual(0.00005 * days.length + 1e-9);

    // One tab stop: the first group; its accessible name carries its day and value.
    await cost.locator('.chart-group').first().focus();
    await expect(cost.locator('.chart-group').first()).toHaveAttribute('aria-label', new RegExp(`^${days[0]}: \\$`));
    await page.keyboard.press('End');
    await expect(cost.locator('.chart-group').last()).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(cost.locator('.chart-group').nth(days.length - 2)).toBeFocused();
    expect(await cost.locator('.chart-group[tabindex="0"]').count()).toBe(1);
    await page.keyboard.press('Enter');
    const day = days[days.length - 2]!;
    await expect(page.locator('.folder-filter')).toContainText(`Sessions with requests on ${day}`);

    // By week: fewer or as many groups, each a Monday-to-Sunday range.
    await page.locator('.folder-charts button[data-bucketing="week"]').click();
    await expect(page.locator('.folder-charts')).toHaveAttribute('data-bucketing', 'week');
    const weeks = new Set(days.map((d) => { const t = Date.parse(`${d}T00:00:00Z`); return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10); }));
    await expect(page.locator('#folder-chart-cost-svg .chart-group')).toHaveCount(weeks.size);
  });

  test('screenshots at 1440 and 390 px, light and dark; nothing wider than the screen', async ({ browser }) => {
    fs.mkdirSync(OUT, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1440, 390]) {
        const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: width > 400 ? 900 : 844 } });
        const page = await context.newPage();
        await page.goto('./');
        await dropFolder(page, 'projects', files);
        await expect(page.locator('#folder-chart-cost-svg')).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${scheme} ${width}px`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(OUT, `${scheme}-folder-charts-${width}.png`), fullPage: width < 400 });
        // The real Codex session with a 45-minute pause, on its Timeline: the pause drawn narrow and marked.
        await page.locator('#folder-table .rt-body .rt-row', { hasText: 'rollout-2026-02-23T12-40-23' }).click();
        await page.getByRole('tab', { name: 'Timeline' }).click();
        await expect(page.locator('#timeline-chart .tl-gap').first()).toBeAttached();
        await page.locator('#timeline-chart').scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(OUT, `${scheme}-timeline-${width}.png`) });
        await context.close();
      }
    }
  });
});
