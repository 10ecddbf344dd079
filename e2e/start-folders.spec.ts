// The start page's agent folders in real Chromium: for each agent ctxray knows, the folders of the core table
// (src/core/agents/locations.ts, the one `ctxray analyze` with no path searches) on the user's system — told from
// the user agent the context emulates — first, the other systems behind a disclosure; each path copies; and
// "Choose folder…" (the folder picker, given a folder of real Claude Code and Cline sessions) opens the same folder
// table a drop does, with the CLI's sessions. Axe clean, no overflow, at 1440×900 and 390×844, light and dark;
// screenshots go to test-results/screenshots/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { AGENTS, agentFoldersByPlatform, type Platform } from '../src/core/agents/locations.ts';
import { buildRealSessionFolder } from '../tests/conformance/real-session-folder.ts';
import { expect, hasRealFixtures, REAL_FIXTURES, ROOT, test } from './fixtures.ts';
import { seriousViolations } from './axe.ts';

const OUT = path.join(ROOT, 'test-results', 'screenshots');
const AGENTS_OF = {
  darwin: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  win32: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
} satisfies Record<Platform, string>;
const TABLE = agentFoldersByPlatform();
const LABEL = Object.fromEntries(TABLE.map((t) => [t.platform, t.label])) as Record<Platform, string>;

const CASES: { scheme: 'light' | 'dark'; width: number; system: Platform }[] = [
  { scheme: 'light', width: 1440, system: 'darwin' },
  { scheme: 'dark', width: 1440, system: 'win32' },
  { scheme: 'light', width: 390, system: 'linux' },
  { scheme: 'dark', width: 390, system: 'darwin' },
];

test.describe('the start page says where each agent keeps its logs', () => {
  for (const { scheme, width, system } of CASES) {
    test(`${LABEL[system]} first, ${scheme} ${width}px`, async ({ browser }) => {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: width > 400 ? 900 : 844 }, userAgent: AGENTS_OF[system] });
      const page = await context.newPage();
      await page.goto('./');
      const section = page.locator('#agent-folders');
      await expect(section.getByRole('heading', { name: 'Where the agents keep their logs' })).toBeVisible();
      // The user's system first and open, named as this computer; the others folded.
      const blocks = section.locator('.agent-system');
      await expect(blocks.first()).toHaveAttribute('data-platform', system);
      await expect(section.getByRole('heading', { name: `On ${LABEL[system]} (this computer)` })).toBeVisible();
      const others = TABLE.filter((t) => t.platform !== system);
      for (const other of others) await expect(page.locator(`#agent-folders-${other.platform}`)).toBeHidden();
      // Every agent, with exactly the core table's folders for that system, in its order.
      const mine = page.locator(`#agent-folders-${system}`);
      for (const agent of AGENTS) {
        const row = mine.locator(`tr[data-agent="${agent.id}"]`);
        await expect(row.locator('th')).toContainText(agent.name);
        const want = TABLE.find((t) => t.platform === system)!.folders.filter((f) => f.agent === agent.id).map((f) => f.path);
        expect(await row.locator('code.agent-path').allTextContents(), `${system} ${agent.id}`).toEqual(want);
      }
      const claude = TABLE.find((t) => t.platform === system)!.folders.find((f) => f.agent === 'claude-code')!.path;
      await expect(mine).toContainText(system === 'darwin' ? 'Cmd+Shift+.' : system === 'linux' ? 'Ctrl+H' : '%APPDATA%');
      // A path copies (the page keeps what the button wrote: the Permissions-Policy forbids reading it back).
      await page.evaluate(() => {
        navigator.clipboard.writeText = (text: string) => {
          (window as unknown as { copied: string }).copied = text;
          return Promise.resolve();
        };
      });
      const copy = mine.locator('tr[data-agent="claude-code"] button.copy-path').first();
      await expect(copy).toHaveAccessibleName(`Copy ${claude}`);
      await copy.click();
      expect(await page.evaluate(() => (window as unknown as { copied?: string }).copied)).toBe(claude);
      await expect(copy).toHaveAccessibleName(`Copied ${claude}`);
      // The other systems open from the keyboard.
      const summary = section.locator('.agent-others > summary');
      await expect(summary).toHaveText(`Other systems: ${others.map((o) => o.label).join(', ')}`);
      await summary.focus();
      await page.keyboard.press('Enter');
      for (const other of others) {
        await expect(page.locator(`#agent-folders-${other.platform}`).getByRole('heading', { name: `On ${other.label}` })).toBeVisible();
      }
      // A VS Code extension's other editors, behind their own disclosure, open too.
      await mine.locator('tr[data-agent="cline"] details.agent-more > summary').click();
      await expect(mine.locator('tr[data-agent="cline"] code.agent-path')).toHaveCount(TABLE[0]!.folders.filter((f) => f.agent === 'cline').length);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${scheme} ${width}px`).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), `${scheme} ${width}px`).toEqual([]);
      expect(await page.locator('h1').count()).toBe(1);
      fs.mkdirSync(OUT, { recursive: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(OUT, `${scheme}-start-folders-${width}.png`), fullPage: true });
      await section.screenshot({ path: path.join(OUT, `${scheme}-start-folders-section-${width}.png`) });
      await context.close();
    });
  }
});

test.describe('"Choose folder…" opens a folder of real sessions as a drop does', () => {
  test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);
  let dir = '';
  let sessions = 0;
  test.beforeAll(() => {
    dir = buildRealSessionFolder(path.join(REAL_FIXTURES, 'transcripts'), { nested: true, agents: [] });
    const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', 'projects', '--json', '-'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    sessions = (JSON.parse(out) as { sessions: unknown[] }).sessions.length;
  });
  test.afterAll(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the folder table with the CLI\'s sessions', async ({ page }) => {
    await page.goto('./');
    // The button opens the folder picker (a hidden webkitdirectory input), by click or keyboard.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose folder…' }).focus();
    await page.keyboard.press('Enter');
    const picker = await chooser;
    expect(await picker.element().evaluate((input) => (input as HTMLInputElement).webkitdirectory)).toBe(true);
    await picker.setFiles(path.join(dir, 'projects'));
    const grid = page.locator('#folder-table');
    expect(sessions).toBeGreaterThan(1);
    await expect(grid).toHaveAttribute('data-rows', String(sessions));
    await expect(page.locator('#folder-summary')).toContainText(`${sessions} sessions`);
    await expect(page.locator('.source-name')).toContainText('projects');
  });

  test('a chosen folder with no log file in it says so, by its name', async ({ page }) => {
    const empty = path.join(dir, 'synthetic-no-logs');
    fs.mkdirSync(empty, { recursive: true });
    fs.writeFileSync(path.join(empty, 'notes.txt'), 'synthetic: not a log\n');
    await page.goto('./');
    await page.locator('#folder-input').setInputFiles(empty);
    await expect(page.locator('#notice')).toContainText('synthetic-no-logs holds no .jsonl, .json or .gz file that could be read.');
    await expect(page.locator('#agent-folders')).toBeVisible();
  });
});
