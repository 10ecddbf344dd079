// A file that records usage but no bodies — a real Cline ui_messages.json opened without its
// api_conversation_history.json — opens with the figures it recorded (requests, cost, hit rate, lost to misses, the
// same as `ctxray analyze --json` for that file alone) and says there is no body to break down: no treemap, no
// block table. Axe clean, light and dark; screenshots at 1440 and 390 px go to test-results/screenshots/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, expectRequest, hasRealFixtures, REAL_FIXTURES, ROOT, test } from './fixtures.ts';
import { seriousViolations } from './axe.ts';

const OUT = path.join(ROOT, 'test-results', 'screenshots');
const SOURCE = path.join(REAL_FIXTURES, 'transcripts/cline/exported_conversation_1769053680585/ui_messages.json');
const usd = (value: number) => `$${new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(value)}`;

interface Session {
  requests: number;
  cost: number;
  hitRate: number;
  misses: { count: number; cost: number };
}

test.describe('a usage-only file (a real Cline ui_messages.json alone)', () => {
  test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);
  let dir = '';
  let file = '';
  let cli: Session;

  test.beforeAll(() => {
    // Alone in a folder of its own: beside its history the CLI would read the bodies too.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-usage-only-'));
    file = path.join(dir, 'ui_messages.json');
    fs.copyFileSync(SOURCE, file);
    const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', file, '--json', '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const record = JSON.parse(out) as { sessions: Session[]; requests: { notes: string[] }[] };
    expect(record.requests.length).toBeGreaterThan(0);
    expect(record.requests.every((r) => r.notes.includes('usage_only'))).toBe(true);
    cli = record.sessions[0]!;
  });
  test.afterAll(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1440, 390]) {
      test(`shows the recorded figures and no breakdown, ${scheme} ${width}px`, async ({ browser }) => {
        const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: width > 400 ? 900 : 844 } });
        const page = await context.newPage();
        await page.goto('./');
        await page.locator('#file-input').setInputFiles(file);
        const panel = page.locator('#panel');
        await expect(panel).toHaveAttribute('data-panel', 'tokens');
        await expect(page.locator('#usage-only-statement')).toContainText('there is no body to break down');
        const figures = page.locator('#usage-only-figures');
        await expect(figures).toContainText(`Requests${cli.requests} every one with its recorded usage`);
        await expect(figures).toContainText(`Cost${usd(cli.cost)} from the recorded usage`);
        await expect(figures).toContainText(`Cache hit rate${(cli.hitRate * 100).toFixed(1)}%`);
        await expect(figures).toContainText(`Lost to misses${usd(cli.misses.cost)} on ${cli.misses.count} miss${cli.misses.count === 1 ? '' : 'es'}`);
        await expect(page.locator('#usage-only-request')).toContainText('Recorded prompt');
        // No picture or table of blocks the file never held.
        await expect(panel.locator('.map-host, .treemap-bar, .table-host, .totals-host')).toHaveCount(0);
        // Panels that read the bodies (Diff, Conversations, Duplicates) have no tab: they would show inferred blocks.
        const tabs = (await page.getByRole('tab').allTextContents()).map((t) => t.trim());
        expect(tabs).toEqual(['Tokens', 'Findings', 'Cache', 'Timeline', 'Summary', 'Clearing']);
        // Another request of the file: the same view, its own figures.
        await page.keyboard.press('Escape');
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.keyboard.press('k');
        await expectRequest(page, cli.requests - 1);
        await expect(page.locator('#usage-only').getByRole('heading', { name: `Request #${cli.requests - 1}` })).toBeVisible();
        await expect(page.locator('#usage-only-request')).toBeVisible();
        await expect(panel.locator('.map-host')).toHaveCount(0);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${scheme} ${width}px`).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), `${scheme} ${width}px`).toEqual([]);
        fs.mkdirSync(OUT, { recursive: true });
        await page.screenshot({ path: path.join(OUT, `${scheme}-usage-only-${width}.png`), fullPage: true });
        await context.close();
      });
    }
  }
});
