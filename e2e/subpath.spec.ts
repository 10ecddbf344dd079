// The built app served below a sub-path, as GitHub Pages serves a project site (https://<owner>.github.io/ctxray/):
// every example opens, the worker and sql.js's wasm load, a copied share link keeps the sub-path and reopens the
// input, and every request the page makes stays under the sub-path (the build's URLs are all relative).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test as base, type BrowserContext } from '@playwright/test';
import { copyLink, DIST, ROOT } from './fixtures.ts';

const SUB_PATH = '/some/sub/path/';

interface Entry {
  id: string;
  requests: number;
}
const examples = JSON.parse(readFileSync(path.join(ROOT, 'examples/index.json'), 'utf8')) as Entry[];

let server: ChildProcess | undefined;
let appUrl = '';

/** Serves the suite's build with scripts/serve.mjs --prefix on a free port; resolves to the printed URL. */
function serveBelowSubPath(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), '--port', '0', '--dir', DIST, '--prefix', SUB_PATH], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /served at (http:\/\/\S+)/.exec(printed);
      if (match) resolve(match[1]!);
    });
    child.stderr.on('data', (chunk: Buffer) => reject(new Error(`serve.mjs: ${chunk.toString()}`)));
    child.on('exit', (code) => reject(new Error(`serve.mjs exited ${code}`)));
  });
}

/** Every URL the browser asks for, and every page error; checked after each test. */
const test = base.extend<{ subPathOnly: void }>({
  subPathOnly: [
    async ({ context }: { context: BrowserContext }, use) => {
      const outside: string[] = [];
      const errors: string[] = [];
      context.on('request', (request) => {
        const url = request.url();
        if (url.startsWith('data:') || url.startsWith('blob:')) return;
        if (!url.startsWith(appUrl)) outside.push(url);
      });
      context.on('page', (page) => page.on('pageerror', (error) => errors.push(error.message)));
      await use();
      expect(outside, `requests outside ${SUB_PATH}`).toEqual([]);
      expect(errors, 'uncaught page errors').toEqual([]);
    },
    { auto: true },
  ],
});

test.beforeAll(async () => {
  appUrl = await serveBelowSubPath();
  expect(new URL(appUrl).pathname).toBe(SUB_PATH);
});

test.afterAll(() => {
  server?.kill();
});

test.describe(`the app served under ${SUB_PATH}`, () => {
  for (const example of examples) {
    test(`opens the ${example.id} example`, async ({ page }) => {
      await page.goto(appUrl);
      await page.locator(`[data-example="${example.id}"]`).click();
      await expect(page.locator('#request-total')).toBeVisible();
      await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(example.requests));
      expect(page.url().startsWith(`${appUrl}#example=${example.id}&`)).toBe(true);
    });
  }

  test('a copied share link keeps the sub-path and reopens the pasted input', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-write']);
    await page.goto(appUrl);
    const body = { model: 'claude-sonnet-4-5', max_tokens: 16, system: 'SYNTHETIC sub-path check', messages: [{ role: 'user', content: 'SYNTHETIC hello' }] };
    await page.locator('#paste-input').fill(`${JSON.stringify(body)}\n`);
    await page.locator('#paste-analyze').click();
    await expect(page.locator('#request-total')).toBeVisible();
    const link = await copyLink(page);
    expect(link.startsWith(`${appUrl}#input=`)).toBe(true);

    const second = await context.newPage();
    await second.goto(link);
    await expect(second.locator('#request-total')).toBeVisible();
    await expect(second.locator('.source-name')).toHaveText('Pasted text');
    // system + one user message
    await expect(second.locator('.treemap .cell')).toHaveCount(2);
  });

  test('the Clearing panel loads sql.js and its wasm from under the sub-path', async ({ page }) => {
    const dir = path.join(ROOT, 'examples/clearing/build');
    await page.goto(`${appUrl}#example=anthropic-file-reread`);
    await page.locator('#tab-clearing').click();
    await page.locator('#clearing-journals').setInputFiles(readdirSync(path.join(dir, 'journals')).map((name) => path.join(dir, 'journals', name)));
    await page.locator('#clearing-sidecar').setInputFiles(path.join(dir, 'sidecar.sqlite'));
    await page.locator('#clearing-routes').setInputFiles(path.join(dir, 'routes.json'));
    await page.locator('#clearing-qualification').setInputFiles(path.join(dir, 'qualification.json'));
    await page.locator('#clearing-agent').setInputFiles(path.join(dir, 'agent-config.json'));
    await page.locator('#clearing-allowlist').setInputFiles(path.join(dir, 'app-allowlist.json'));
    await page.getByRole('button', { name: 'Analyze clearing opportunity' }).click();
    await expect(page.locator('.clearing-card[data-api="anthropic-messages"] .clearing-verdict')).toHaveText('BUILD');
  });
});
