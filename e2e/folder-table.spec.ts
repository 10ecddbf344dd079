// The folder table in real Chromium: a folder laid out like ~/.claude/projects, of real sessions (read in place
// from ../shared/fixtures/real/transcripts and copied into a temp folder, with a flat subagent derived from a real
// file), dropped as Chromium delivers a folder (DataTransferItems whose webkitGetAsEntry gives directory entries).
// The app shows one row per session with the numbers of `ctxray analyze <folder> --json` sessions[]; a row opens
// that session's analysis and "← Sessions" comes back. Screenshots at 1440 and 390 px, light and dark, go to
// test-results/screenshots/ for a human to look at.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dropFolder, expect, folderFiles, hasRealFixtures, REAL_FIXTURES, ROOT, test } from './fixtures.ts';
import { buildRealSessionFolder } from '../tests/conformance/real-session-folder.ts';
import { agentLabel } from '../src/core/formats/labels.ts';

const OUT = path.join(ROOT, 'test-results', 'screenshots');
const real = path.join(REAL_FIXTURES, 'transcripts');

interface Row {
  file: string;
  agent: string;
  start: string | null;
  requests: number;
  subagents: { files: number; requests: number };
  recorded: { input: number; output: number; cacheRead: number; cacheWrite5m: number; cacheWrite1h: number };
  cost: number;
  recordedRequests: number;
  unpricedRequests: number;
  hitRate: number | null;
  misses: { cost: number } | null;
}

const count = new Intl.NumberFormat('en-US');
/** Every recorded request on a model without a price (Gemini): the table says so instead of $0. */
const unpriced = (row: Row) => row.recordedRequests > 0 && row.unpricedRequests >= row.recordedRequests;
const usd = (value: number) => `$${new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(value)}`;

test.describe('a dropped folder of real sessions', () => {
  test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);
  let dir = '';
  let files: { path: string; base64: string }[] = [];
  let cliRows: Row[] = [];

  test.beforeAll(() => {
    dir = buildRealSessionFolder(real, { nested: false, agents: ['codex', 'gemini-cli'] });
    files = folderFiles(path.join(dir, 'projects'));
    const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', 'projects', '--json', '-'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    cliRows = (JSON.parse(out) as { sessions: Row[] }).sessions;
  });
  test.afterAll(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test('shows the CLI sessions[] table; a row opens its session and "← Sessions" comes back', async ({ page }) => {
    await page.goto('./');
    await dropFolder(page, 'projects', files);
    const grid = page.locator('#folder-table');
    await expect(grid).toHaveAttribute('data-rows', String(cliRows.length));
    expect(cliRows.some((row) => row.file.includes('agent-'))).toBe(false);
    // Costliest first, as the CLI lists them; every figure as the CLI record has it.
    const shown = await grid.locator('.rt-body .rt-row').evaluateAll((rows) =>
      rows.sort((a, b) => parseFloat((a as HTMLElement).style.top) - parseFloat((b as HTMLElement).style.top)).map((row) => [...row.children].map((cell) => cell.textContent ?? '')),
    );
    expect(shown.map((cells) => cells[0])).toEqual(cliRows.map((row) => row.file));
    shown.forEach((cells, i) => {
      const row = cliRows[i]!;
      const r = row.recorded;
      expect(cells.slice(1, 2).concat(cells.slice(3)), row.file).toEqual([
        // The agent in words; the record keeps the importer id.
        agentLabel(row.agent),
        row.subagents.files > 0 ? `${count.format(row.requests)} (${count.format(row.subagents.requests)} sub)` : count.format(row.requests),
        count.format(r.input),
        count.format(r.output),
        count.format(r.cacheRead),
        count.format(r.cacheWrite5m + r.cacheWrite1h),
        unpriced(row) ? 'unpriced' : usd(row.cost),
        row.hitRate === null ? '–' : `${(row.hitRate * 100).toFixed(1)}%`,
        row.misses === null ? 'n/a' : unpriced(row) ? 'unpriced' : usd(row.misses.cost),
      ]);
    });
    await expect(page.locator('#folder-summary')).toContainText(`${cliRows.length} sessions`);

    // Sorting by requests (most first) puts the longest session on top.
    await grid.locator('button.sort[data-column="requests"]').click();
    const most = [...cliRows].sort((a, b) => b.requests - a.requests)[0]!;
    await expect(grid.locator('.rt-body .rt-row[aria-rowindex="2"] .rt-cell').first()).toHaveText(most.file);

    // The session with the subagent opens with its subagent's calls in its request list.
    const withAgent = cliRows.find((row) => row.subagents.files > 0)!;
    await grid.locator('.rt-body .rt-row', { hasText: withAgent.file }).click();
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(withAgent.requests));
    await page.locator('#folder-back').click();
    await expect(grid).toHaveAttribute('data-rows', String(cliRows.length));
    await expect(grid.locator('.rt-row.selected .rt-cell').first()).toHaveText(withAgent.file);

    // Per project: one row per project; opening one lists its sessions only.
    await page.locator('.folder-tab[data-tab="projects"]').click();
    const projects = new Set(cliRows.map((row) => (row.file.includes('/') ? row.file.split('/')[0] : '')));
    await expect(grid).toHaveAttribute('data-rows', String(projects.size));
    await grid.locator('.rt-body .rt-row', { hasText: '-real-a' }).click();
    await expect(grid).toHaveAttribute('data-rows', String(cliRows.filter((row) => row.file.startsWith('-real-a/')).length));
    await page.locator('#folder-all').click();
    await expect(grid).toHaveAttribute('data-rows', String(cliRows.length));
    // Per day: opening a day lists the sessions with requests that day.
    await page.locator('.folder-tab[data-tab="days"]').click();
    await expect(grid).toHaveAttribute('data-tab', 'days');
    // Those real sessions each run within one day.
    const feb10 = cliRows.filter((row) => row.start?.startsWith('2026-02-10')).length;
    expect(feb10).toBeGreaterThan(1);
    await grid.locator('.rt-body .rt-row', { hasText: '2026-02-10' }).click();
    await expect(grid).toHaveAttribute('data-rows', String(feb10));
    await expect(page.locator('.folder-filter')).toContainText('Sessions with requests on 2026-02-10');
  });

  test('a folder of one session opens it at once; Enter on a row opens that session; a folder without requests says so', async ({ page }) => {
    await page.goto('./');
    // The Cline task alone: one session (its parts read together), so its analysis opens, no table.
    const task = files.filter((file) => file.path.startsWith('cline/'));
    const cline = cliRows.find((row) => row.agent === 'cline-task')!;
    await dropFolder(page, 'projects', task);
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(cline.requests));
    await expect(page.locator('#folder-back')).toHaveCount(0);

    // The keyboard: the second row (second costliest) opens with Enter.
    await dropFolder(page, 'projects', files);
    const grid = page.locator('#folder-table');
    await expect(grid).toHaveAttribute('data-rows', String(cliRows.length));
    await grid.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(cliRows[1]!.requests));

    // Nothing readable: a located notice, and the screen it was dropped on stays.
    await dropFolder(page, 'projects', [{ path: 'synthetic-not-a-log.json', base64: Buffer.from('{"synthetic": "not a request"}\n').toString('base64') }]);
    await expect(page.locator('#notice')).toContainText('no session with a request could be read');
    await expect(page.locator('#notice')).toContainText('synthetic-not-a-log.json');
  });

  test('screenshots at 1440 and 390 px, light and dark; nothing wider than a phone screen', async ({ browser }) => {
    fs.mkdirSync(OUT, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1440, 390]) {
        const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: width > 400 ? 900 : 844 } });
        const page = await context.newPage();
        await page.goto('./');
        await dropFolder(page, 'projects', files);
        await expect(page.locator('#folder-table')).toHaveAttribute('data-rows', String(cliRows.length));
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${scheme} ${width}px`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(OUT, `${scheme}-folder-${width}.png`), fullPage: true });
        // A session opened from the table, with "← Sessions" in the header: still no wider than the screen.
        await page.locator('#folder-table .rt-body .rt-row').first().click();
        await expect(page.locator('#folder-back')).toBeVisible();
        const sessionOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(sessionOverflow, `${scheme} ${width}px, a session`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(OUT, `${scheme}-folder-session-${width}.png`) });
        await context.close();
      }
    }
  });
});
