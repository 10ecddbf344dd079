// A dropped folder read on the page's pool of session workers (src/ui/folder-pool.ts, src/worker/pool/) in real
// Chromium: real Claude Code sessions (../shared/fixtures/real, laid out like ~/.claude/projects with subagents,
// other agents' sessions and a session copied into a second project), plus copies of the small ones with their
// session, message and request ids rewritten so the folder takes a while. The table shows its first rows while the
// folder is read ("N of M sessions analysed in full"), then every row and the record of `ctxray analyze <folder>
// --json`; Cancel stops the read and terminates the pool. Screenshots of the table filling in at 1440 and 390 px go
// to test-results/screenshots/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { dropFolder, expect, folderFiles, hasRealFixtures, REAL_FIXTURES, ROOT, test } from './fixtures.ts';
import { buildRealSessionFolder } from '../tests/conformance/real-session-folder.ts';

const OUT = path.join(ROOT, 'test-results', 'screenshots');
const real = path.join(REAL_FIXTURES, 'transcripts');
const COPIED = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl';
/** Copies of each small real session, ids rewritten (a folder of about 40 sessions). */
const COPIES = 10;

interface Row {
  requests: number;
  cost: number;
}

const usd = (value: number) => `$${new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(value)}`;

/** A copy of a real Claude Code session as another session: its session id and its calls' ids rewritten. */
function rewritten(text: string, copy: number): { id: string; text: string } {
  const ids = new Set([...text.matchAll(/"sessionId":"([^"]+)"/g)].map((m) => m[1]!));
  const id = `${String(copy).padStart(8, '0')}-0000-4000-8000-${String(copy).padStart(12, '0')}`;
  let out = text;
  for (const old of ids) out = out.replaceAll(old, id);
  return { id, text: out.replace(/"(msg_[A-Za-z0-9]+)"/g, `"$1x${copy}"`).replace(/"(req_[A-Za-z0-9]+)"/g, `"$1x${copy}"`) };
}

async function exportedRecord(page: Page): Promise<string> {
  await page.locator('#export-menu > summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="ctxray-folder-json"]').click()]);
  return fs.readFileSync(await download.path(), 'utf8');
}

/** Watches the page from before the drop: when the first row showed, and whether it showed while the folder was read. */
async function watchFirstRows(page: Page): Promise<void> {
  await page.evaluate(() => {
    const watch = { start: performance.now(), firstRow: -1, rowsWhileFilling: 0 };
    (window as unknown as { folderWatch: typeof watch }).folderWatch = watch;
    new MutationObserver(() => {
      const rows = document.querySelectorAll('#folder-table .rt-body .rt-row').length;
      if (rows > 0 && watch.firstRow < 0) watch.firstRow = performance.now() - watch.start;
      if (rows > 0 && document.querySelector('#folder-progress[data-filling]') !== null) watch.rowsWhileFilling = Math.max(watch.rowsWhileFilling, rows);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

test.describe('a folder read on a pool of session workers', () => {
  test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);
  let dir = '';
  let files: { path: string; base64: string }[] = [];
  let cliOut = '';
  let cliRows: Row[] = [];

  test.beforeAll(() => {
    dir = buildRealSessionFolder(real, { nested: true, agents: ['codex', 'gemini-cli'] });
    const projects = path.join(dir, 'projects');
    const cc = (name: string) => path.join(real, 'claude-code', name);
    fs.copyFileSync(cc(COPIED), path.join(projects, '-real-a', COPIED));
    fs.mkdirSync(path.join(projects, '-real-c'));
    fs.copyFileSync(cc(COPIED), path.join(projects, '-real-c', COPIED));
    const small = [COPIED, 'short.jsonl', 'tool_heavy.jsonl'].map((name) => fs.readFileSync(cc(name), 'utf8'));
    for (let copy = 0; copy < COPIES * small.length; copy++) {
      const { id, text } = rewritten(small[copy % small.length]!, copy + 1);
      fs.mkdirSync(path.join(projects, `-copies-${copy % 4}`), { recursive: true });
      fs.writeFileSync(path.join(projects, `-copies-${copy % 4}`, `${id}.jsonl`), text);
    }
    files = folderFiles(projects);
    cliOut = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', 'projects', '--json', '-'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    cliRows = (JSON.parse(cliOut) as { sessions: Row[] }).sessions;
    fs.mkdirSync(OUT, { recursive: true });
  });
  test.afterAll(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test('shows the first rows while the folder is read, then the CLI’s whole table and record', async ({ page }) => {
    test.setTimeout(300_000);
    await page.goto('./?jobs=2');
    await watchFirstRows(page);
    await dropFolder(page, 'projects', files, { settled: false });
    const grid = page.locator('#folder-table');
    await expect(page.locator('#folder-progress[data-filling]')).toContainText(/\d+ of \d+ sessions analysed in full/, { timeout: 60_000 });
    await expect(grid.locator('.rt-body .rt-row').first()).toBeVisible();
    await expect(page.locator('body')).toHaveAttribute('data-folder-pool', '2');
    await page.screenshot({ path: path.join(OUT, 'folder-filling-1440.png') });

    await expect(page.locator('body')).toHaveAttribute('data-folder-read', 'done', { timeout: 240_000 });
    await expect(page.locator('body')).toHaveAttribute('data-folder-pool', '0');
    await expect(page.locator('#folder-progress')).toBeHidden();
    await expect(grid).toHaveAttribute('data-rows', String(cliRows.length));
    const requests = cliRows.reduce((sum, row) => sum + row.requests, 0);
    const cost = cliRows.reduce((sum, row) => sum + row.cost, 0);
    await expect(page.locator('#folder-summary')).toContainText(`${cliRows.length} sessions · ${requests.toLocaleString('en-US')} requests · ${usd(cost)} recorded cost`);
    expect(JSON.parse(await exportedRecord(page))).toEqual(JSON.parse(cliOut));

    const watch = await page.evaluate(() => (window as unknown as { folderWatch: { firstRow: number; rowsWhileFilling: number } }).folderWatch);
    expect(watch.firstRow).toBeGreaterThan(0);
    expect(watch.rowsWhileFilling).toBeGreaterThan(0);
    test.info().annotations.push({ type: 'first row', description: `${Math.round(watch.firstRow)} ms after the drop (${cliRows.length} sessions, pool of 2)` });
  });

  test('at 390 px the table fills in; Cancel stops the read and terminates the pool', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('./?jobs=2');
    await dropFolder(page, 'projects', files, { settled: false });
    await expect(page.locator('#folder-progress[data-filling]')).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('#folder-table .rt-body .rt-row').first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(OUT, 'folder-filling-390.png'), fullPage: true });

    await page.locator('#cancel').click();
    await expect(page.locator('body')).toHaveAttribute('data-folder-read', 'stopped');
    await expect(page.locator('body')).toHaveAttribute('data-folder-pool', '0');
    await expect(page.locator('#notice')).toContainText('Cancelled reading projects');
    await expect(page.locator('#folder-progress')).toContainText(/Reading stopped: \d+ of \d+ sessions analysed in full/);
    await expect(page.locator('#folder-table .rt-body .rt-row').first()).toBeVisible();
  });
});
