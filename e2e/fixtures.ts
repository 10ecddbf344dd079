// Shared e2e helpers. Every test runs under a fixture that records each request the browser makes and fails the
// test if any goes to another origin (the CSP proof covers the whole suite), or if the page throws.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test as base, type Page, type Request } from '@playwright/test';
import { buildRealSessionFolder, filesBelow } from '../tests/conformance/real-session-folder.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REAL_FIXTURES = path.resolve(ROOT, '../shared/fixtures/real');
export const hasRealFixtures = existsSync(REAL_FIXTURES);
/**
 * Inside a describe: skips it when the real fixtures are absent, else lays the real Codex and Gemini CLI sessions
 * out as a `projects` folder for its tests (removed after them). The getter gives the folder's parent.
 */
export function realSessionFolder(): () => string {
  let dir = '';
  test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);
  test.beforeAll(() => {
    dir = buildRealSessionFolder(path.join(REAL_FIXTURES, 'transcripts'), { nested: false, agents: ['codex', 'gemini-cli'] });
  });
  test.afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  return () => dir;
}

/** The build the suite serves (see playwright.config.ts). */
export const DIST = path.join(ROOT, 'test-results', `dist-${Number(process.env.CTXRAY_E2E_PORT ?? 4317)}`);

export const test = base.extend<{ sameOriginOnly: void }>({
  sameOriginOnly: [
    async ({ context, baseURL }, use) => {
      const origin = new URL(baseURL ?? 'http://127.0.0.1/').origin;
      const foreign = new Set<Request>();
      const errors: string[] = [];
      context.on('request', (request) => {
        const url = request.url();
        // data:/blob: URLs never leave the browser.
        if (url.startsWith('data:') || url.startsWith('blob:')) return;
        if (new URL(url).origin !== origin) foreign.add(request);
      });
      // Playwright reports a request the CSP stopped before sending it (failure text "csp"); it never left.
      context.on('requestfailed', (request) => {
        const reason = request.failure()?.errorText ?? '';
        if (reason === 'csp' || reason.includes('ERR_BLOCKED_BY_CSP')) foreign.delete(request);
      });
      context.on('page', (page) => page.on('pageerror', (error) => errors.push(error.message)));
      await use();
      expect([...foreign].map((r) => r.url()), 'requests to another origin').toEqual([]);
      expect(errors, 'uncaught page errors').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export interface CliRequest {
  total: number;
  segments: number;
  /** Cells the request's treemap draws: one per segment, and one more for a transcript's inferred setup. */
  cells: number;
}

/** Per-request totals and segment counts from the CLI (`ctxray analyze --json -`) for the same file. */
export function cliRequests(files: string | string[], extra: string[] = []): CliRequest[] {
  const inputs = typeof files === 'string' ? [files] : files;
  // The app's view shows the counts as tokenized; the CLI rescales Claude estimates on recorded usage by default,
  // so the comparison asks it for the uncalibrated counts.
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', '--json', '-', '--no-usage-calibration', ...extra, ...inputs], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const record = JSON.parse(out) as { requests: { tokens: { total: number; byCategory: Record<string, number> }; segments: unknown[] }[] };
  return record.requests.map((r) => ({
    total: r.tokens.total,
    segments: r.segments.length,
    cells: r.segments.length + (r.tokens.byCategory['setup_inferred'] ? 1 : 0),
  }));
}

/** Drops files onto the page the way a user's drag does (a DataTransfer holding File objects). */
export async function dropFiles(page: Page, files: { name: string; bytes: Buffer }[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, base64: f.bytes.toString('base64') }));
  await page.evaluate((items) => {
    const transfer = new DataTransfer();
    for (const item of items) {
      const binary = atob(item.base64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      transfer.items.add(new File([bytes], item.name));
    }
    const target = document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, payload);
}

export function dropFile(page: Page, file: string): Promise<void> {
  return dropFiles(page, [{ name: path.basename(file), bytes: readFileSync(file) }]);
}

/** Waits until the app shows request `n` (1-based) of a loaded input. */
export async function expectRequest(page: Page, n: number): Promise<void> {
  await expect(page.locator('#request-table')).toHaveAttribute('data-open', String(n - 1));
}

/** The selected request's total as shown (data attribute holds the exact number behind the formatted text). */
export async function shownTotal(page: Page): Promise<number> {
  return Number(await page.locator('#request-total').getAttribute('data-total'));
}

/** Opens request `index0` (0-based) by clicking its row in the request table, scrolled into view first. */
export async function selectRequest(page: Page, index0: number): Promise<void> {
  const table = page.locator('#request-table');
  const row = table.locator(`[data-request="${index0}"]`);
  // Rows are virtualized: only those near the scroll position exist, so scroll the table to the row first.
  await table.evaluate((grid, i) => (grid.scrollTop = Math.max(0, i - 2) * 28), index0);
  await row.click();
  await expectRequest(page, index0 + 1);
}

/**
 * Clicks Copy link and returns the link it wrote. The app's Permissions-Policy forbids reading the clipboard back,
 * so the page keeps a copy of what the button writes (the context needs the clipboard-write permission).
 */
export async function copyLink(page: Page): Promise<string> {
  await page.evaluate(() => {
    const write = navigator.clipboard.writeText.bind(navigator.clipboard);
    navigator.clipboard.writeText = (text: string) => {
      (window as unknown as { copied: string }).copied = text;
      return write(text);
    };
  });
  await page.locator('#copy-link').click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { copied?: string }).copied ?? null)).not.toBeNull();
  return page.evaluate(() => (window as unknown as { copied: string }).copied);
}

/** The files below `dir` (paths relative to it, with `/`), with their bytes, for `dropFolder`. */
export function folderFiles(dir: string): { path: string; base64: string }[] {
  return filesBelow(dir).map((rel) => ({ path: rel, base64: readFileSync(path.join(dir, rel)).toString('base64') }));
}

/**
 * Drops a folder named `name` holding `files` the way Chromium hands one over: a DataTransferItem whose
 * webkitGetAsEntry gives a directory entry, read through its readers (one batch, then an empty one). Returns once
 * the page is done with it (<body data-folder-read>: the table filled in, or a case, a session or a message
 * opened), unless `settled` is false (to see the table fill in).
 */
export async function dropFolder(page: Page, name: string, files: { path: string; base64: string }[], options: { settled?: boolean } = {}): Promise<void> {
  await page.evaluate(() => document.body.removeAttribute('data-folder-read'));
  await dropFolderNow(page, name, files);
  if (options.settled !== false) await page.waitForFunction(() => ['done', 'stopped'].includes(document.body.getAttribute('data-folder-read') ?? ''), undefined, { timeout: 120_000 });
}

async function dropFolderNow(page: Page, name: string, files: { path: string; base64: string }[]): Promise<void> {
  await page.evaluate(
    ({ name, files }) => {
      type Entry = { isFile: boolean; isDirectory: boolean; name: string; fullPath: string; [key: string]: unknown };
      const folders = new Map<string, Entry[]>();
      const entries = new Map<string, Entry>();
      const folder = (fullPath: string): Entry[] => {
        const known = folders.get(fullPath);
        if (known !== undefined) return known;
        const children: Entry[] = [];
        folders.set(fullPath, children);
        const entry: Entry = {
          isFile: false,
          isDirectory: true,
          name: fullPath.split('/').pop()!,
          fullPath,
          createReader: () => {
            let done = false;
            return { readEntries: (ok: (e: unknown[]) => void) => ok(done ? [] : ((done = true), children)) };
          },
        };
        entries.set(fullPath, entry);
        const parent = fullPath.slice(0, fullPath.lastIndexOf('/'));
        if (parent !== '') folder(parent).push(entry);
        return children;
      };
      folder(`/${name}`);
      for (const file of files) {
        const fullPath = `/${name}/${file.path}`;
        const base = fullPath.split('/').pop()!;
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        folder(fullPath.slice(0, fullPath.lastIndexOf('/'))).push({ isFile: true, isDirectory: false, name: base, fullPath, file: (ok: (f: File) => void) => ok(new File([bytes], base)) });
      }
      const root = entries.get(`/${name}`);
      const transfer = { types: ['Files'], files: [], items: [{ kind: 'file', webkitGetAsEntry: () => root }] };
      const drop = new DragEvent('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(drop, 'dataTransfer', { value: transfer });
      document.body.dispatchEvent(drop);
    },
    { name, files },
  );
}
