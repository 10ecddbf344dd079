// Hostile content in real Chromium: segment text, tool names and file names full of markup, script, SVG,
// javascript: URLs, CSS and bidi/control characters are shown as text in the app and in the `--html` report,
// never interpreted. Every check runs twice over: nothing executed (a canary stays unset, no CSP violation was
// even attempted) and nothing was injected (no element or handler attribute the payload names exists).
// Also: oversized input keeps the page responsive, and a cancelled worker is replaced for the next input.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import type { Page } from '@playwright/test';
import { encodeInput } from '../src/ui/share.ts';
import { Planter, MARKER_PREFIX } from '../tests/leaks/plant.ts';
import { requestLogFiles } from '../tests/leaks/inputs.ts';
import { dropFiles, expect, ROOT, selectRequest, test } from './fixtures.ts';

/** Payloads (synthetic): each would set window.__pwned or add an element if it were ever parsed as markup. */
const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<svg onload="window.__pwned = \'svg\'"><circle r="5"/></svg>',
  '<a href="javascript:window.__pwned=\'link\'" id="hostile-link">click</a>',
  '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
  '<style>body { display: none !important }</style><div style="position:fixed;inset:0;background:red" id="hostile-overlay"></div>',
  '</pre></td></tr></table><form id="hostile-form"><input name="x"></form>',
  '{{constructor.constructor("window.__pwned=\'template\'")()}} ${window.__pwned="tpl"}',
  'bidi \u202egnp.exe\u202c isolate \u2066x\u2069 bell \u0007 escape \u001b[31mred\u001b[0m nul-free zero-width \u200b end',
].join('\n');
const HOSTILE_NAME = '<img src=x onerror="window.__pwned=\'tool\'">';
/** Elements and attributes no hostile payload may create. */
const INJECTED = 'script:not([src]), img[src="x"], svg[onload], circle, iframe, a[href^="javascript:"], #hostile-link, #hostile-overlay, #hostile-form, [onerror], [onload], [onclick]';

function hostileLog(): string {
  const anthropic = {
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    system: `synthetic hostile system prompt\n${HOSTILE}`,
    tools: [{ name: HOSTILE_NAME, description: HOSTILE, input_schema: { type: 'object', properties: { [HOSTILE_NAME]: { type: 'string' } } } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: `synthetic hostile user text\n${HOSTILE}` }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_hostile', name: HOSTILE_NAME, input: { [HOSTILE_NAME]: HOSTILE } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_hostile', content: HOSTILE }] },
    ],
  };
  const chat = {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: HOSTILE },
      { role: 'user', content: [{ type: 'text', text: HOSTILE }, { type: 'image_url', image_url: { url: 'javascript:window.__pwned="image"' } }] },
    ],
  };
  // The same conversation again with its first message edited: the report's prefix diff shows block excerpts.
  const edited = { ...anthropic, messages: [{ role: 'user', content: [{ type: 'text', text: `edited ${HOSTILE_NAME}\n${HOSTILE}` }] }, ...anthropic.messages.slice(1), { role: 'assistant', content: `synthetic reply ${HOSTILE}` }, { role: 'user', content: HOSTILE }] };
  return `${JSON.stringify(anthropic)}\n${JSON.stringify(chat)}\n${JSON.stringify(edited)}\n`;
}

/** Installed before any page script: a canary, and a record of every CSP violation the page triggers. */
async function armCanary(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __pwned: unknown; __violations: string[] };
    w.__pwned = undefined;
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => w.__violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
}

async function expectNothingRan(page: Page): Promise<void> {
  const state = await page.evaluate((selector: string) => {
    const w = window as unknown as { __pwned: unknown; __violations: string[] };
    return { pwned: w.__pwned ?? null, violations: w.__violations, injected: [...document.querySelectorAll(selector)].map((e) => e.outerHTML.slice(0, 80)) };
  }, INJECTED);
  expect(state).toEqual({ pwned: null, violations: [], injected: [] });
}

test.describe('hostile segment text in the app', () => {
  test('every segment is shown as text when clicked; nothing runs, nothing is injected', async ({ page }) => {
    await armCanary(page);
    await page.goto('./');
    await dropFiles(page, [{ name: `${HOSTILE_NAME}.jsonl`, bytes: Buffer.from(hostileLog()) }]);
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(3));
    // The file name is shown as text too.
    await expect(page.locator('.source-name')).toHaveText(`${HOSTILE_NAME}.jsonl`);
    for (const request of [0, 1, 2]) {
      await selectRequest(page, request);
      const cells = page.locator('.treemap .cell');
      const count = await cells.count();
      expect(count).toBeGreaterThan(1);
      for (let i = 0; i < count; i++) {
        await page.locator(`.treemap .cell[data-segment="${i}"]`).click();
        const content = page.locator('.content');
        await expect(content).toHaveAttribute('data-segment', String(i));
        await expect(content).not.toContainText('Loading content');
        // Every segment carries hostile text (the image only in its URL): it must be visible as characters.
        await expect(content).toContainText(/<script>|<img src=x|javascript:window/);
        await expectNothingRan(page);
      }
    }
    // The raw markup is visible as characters inside a <pre>; bidi and control characters are shown as inert
    // ⟨U+XXXX⟩ markers (none is left in the page to reorder it), and copying gives the exact original text.
    await selectRequest(page, 1);
    await page.locator('.treemap .cell[data-segment="0"]').click();
    const shown = (await page.locator('.content .payload').textContent()) ?? '';
    expect(shown).toContain('<script>window.__pwned = "script"</script>');
    expect(shown).toContain('bidi ⟨U+202E⟩gnp.exe⟨U+202C⟩ isolate ⟨U+2066⟩x⟨U+2069⟩ bell ⟨U+0007⟩ escape ⟨U+001B⟩[31m');
    // The raw controls must not reach the page (the pattern is the point of this check).
    // eslint-disable-next-line no-control-regex
    expect(shown).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u001b\u200b]/);
    await expect(page.locator('.content .payload .invisible-char').first()).toHaveText('⟨U+202E⟩');
    const copied = await page.locator('.content .payload').evaluate((pre) => {
      const selection = document.getSelection()!;
      selection.selectAllChildren(pre);
      const transfer = new DataTransfer();
      pre.dispatchEvent(new ClipboardEvent('copy', { clipboardData: transfer, bubbles: true, cancelable: true }));
      selection.removeAllRanges();
      return transfer.getData('text/plain');
    });
    expect(copied).toBe(HOSTILE);
    expect(await page.locator('body').isVisible()).toBe(true);
    await expectNothingRan(page);
  });
});

test.describe('hostile model ids in the app', () => {
  test('a model id with OSC 52, SGR, erase-line, CR and bidi characters is shown escaped in every cell, title and picker', async ({ page }) => {
    await armCanary(page);
    await page.goto('./');
    const model = 'claude-sonnet-4-5\u001b]52;c;c3ludGhldGlj\u0007\u001b[31m\u001b[2K\r\u202egnp.exe\u009b2J';
    const request = (text: string) => ({ model, max_tokens: 8, system: 'synthetic', messages: [{ role: 'user', content: text }] });
    // The third request continues the first on another id: a model-change finding names both ids.
    const third = { ...request('synthetic one'), model: `${model}\u202d2`, messages: [...request('synthetic one').messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }] };
    const log = [request('synthetic one'), { ...request('synthetic two'), model: 'gpt-4o\u2066x\u2069' }, third].map((body) => `${JSON.stringify(body)}\n`).join('');
    await dropFiles(page, [{ name: 'ids.jsonl', bytes: Buffer.from(log) }]);
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', '3');
    await page.locator('#tab-findings').click();
    await expect(page.locator('#panel')).toContainText('Model changed');
    const shown = await page.evaluate(() => {
      const titles = [...document.querySelectorAll('[title]')].map((e) => e.getAttribute('title') ?? '');
      const options = [...document.querySelectorAll('option')].map((e) => e.textContent ?? '');
      return [document.body.innerText, ...titles, ...options].join('\n');
    });
    expect(shown).toContain('claude-sonnet-4-5⟨U+001B⟩]52;c;');
    expect(shown).toContain('⟨U+202E⟩gnp.exe⟨U+009B⟩2J');
    expect(shown).toContain('gpt-4o⟨U+2066⟩x⟨U+2069⟩');
    expect(shown).toContain('⟨U+009B⟩2J⟨U+202D⟩2');
    // No raw control or bidi character anywhere the page shows text (newline and tab are layout).
    // eslint-disable-next-line no-control-regex -- finding control characters is this expression's job
    const raw = [...shown.matchAll(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g)].map((m) => `U+${m[0].codePointAt(0)!.toString(16).padStart(4, '0')} in ${JSON.stringify(shown.slice(Math.max(0, m.index - 40), m.index + 10))}`);
    expect(raw).toEqual([]);
    await expectNothingRan(page);
  });
});

test.describe('hostile share links', () => {
  test('an input carried in the link is shown as text; a hostile fragment value is reported as text', async ({ page }) => {
    await armCanary(page);
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: HOSTILE }] });
    await page.goto(`./#input=${encodeInput(body)}&request=1`);
    await page.locator('.treemap .cell[data-segment="0"]').click();
    await expect(page.locator('.content .payload')).toContainText('<svg onload=');
    await expectNothingRan(page);

    await page.goto(`./#request=${encodeURIComponent('<img src=x onerror=window.__pwned=1>')}&example=${encodeURIComponent('<script>')}`);
    await expect(page.locator('#notice')).toContainText('<img src=x onerror=');
    await expectNothingRan(page);
  });
});

test.describe('records the app lets the user download', () => {
  test('the Duplicates panel JSON and markdown carry no planted text', async ({ page }) => {
    // Every text field of a synthetic log carries a marker; the downloads promise codes, counts and hashes only.
    const planted = new Planter('e').text(requestLogFiles()['bare.jsonl']!);
    await page.goto('./');
    await dropFiles(page, [{ name: 'planted.jsonl', bytes: Buffer.from(planted) }]);
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(3));
    await page.locator('#tab-duplicates').click();
    for (const label of ['Download JSON record', 'Download markdown report']) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label }).click()]);
      const file = await download.path();
      const text = readFileSync(file, 'utf8');
      expect(text.length).toBeGreaterThan(100);
      expect(text.toLowerCase()).not.toContain(MARKER_PREFIX);
    }
  });
});

test.describe('the --html report', () => {
  let dir = '';
  test.beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ctxray-hostile-'));
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const content of [false, true]) {
    test(`opened in Chromium${content ? ' with --content' : ''}: markup stays text, nothing runs`, async ({ page, baseURL }) => {
      const help = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', '--help'], { encoding: 'utf8' });
      test.skip(!help.includes('--html'), 'this build has no analyze --html yet');
      const log = path.join(dir, `hostile-${content}.jsonl`);
      const report = path.join(dir, `report-${content}.html`);
      execFileSync('sh', ['-c', 'cat > "$1"', 'sh', log], { input: hostileLog() });
      execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', log, '--html', report, ...(content ? ['--content'] : [])], { encoding: 'utf8' });
      const html = readFileSync(report, 'utf8');
      // Served from the app's origin without the app's CSP header, so only the report's own <meta> CSP applies.
      const url = new URL(`__hostile-report-${content}.html`, baseURL).toString();
      await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
      await armCanary(page);
      await page.goto(url);
      await expect(page.locator('body')).toBeVisible();
      await expectNothingRan(page);
      expect(await page.locator('script').count()).toBe(0);
      const text = (await page.locator('body').textContent()) ?? '';
      if (content) expect(text).toContain('<img src=x onerror=');
      else expect(text).not.toContain('onerror');
    });
  }
});

test.describe('oversized input in the app', () => {
  test('a gzip bomb keeps the page responsive; cancel replaces the worker and the next input opens', async ({ page }) => {
    // 1 GiB of NUL bytes gzips to about 1 MB: one endless "line" for the worker to inflate and scan.
    const chunks: Buffer[] = [];
    const gzip = createGzip({ level: 9 });
    gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    const zeros = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 1024; i++) if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
    await new Promise((resolve) => gzip.end(resolve));
    const bomb = Buffer.concat(chunks);
    expect(bomb.byteLength).toBeLessThan(2 * 1024 * 1024);

    await page.goto('./');
    await dropFiles(page, [{ name: 'bomb.jsonl.gz', bytes: bomb }]);
    await expect(page.locator('#progress')).toBeVisible();
    // The main thread answers promptly while the worker churns.
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      await page.evaluate(() => document.title);
      expect(Date.now() - started).toBeLessThan(1_000);
      await page.waitForTimeout(200);
    }
    // Cancel: the worker is asked to stop, and terminated (then replaced on the next call) if it does not. On a fast
    // machine the reader may already have refused the file (NUL bytes are not text) before the click lands.
    await page.locator('#cancel').click({ timeout: 5_000 }).catch(() => undefined);
    await expect(page.locator('#progress')).toHaveCount(0, { timeout: 10_000 });
    await dropFiles(page, [{ name: 'after.jsonl', bytes: Buffer.from(hostileLog()) }]);
    await expect(page.locator('.source-name')).toHaveText('after.jsonl');
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(3));
  });

  test('a line over the 256 MiB record limit is named in the notice, and the rest of the file opens', async ({ page }) => {
    // 300 MiB of one JSON string on line 1 (about 300 KB gzipped), then a normal request on line 2.
    const chunks: Buffer[] = [];
    const gzip = createGzip({ level: 9 });
    gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    gzip.write('{"model":"gpt-4o","messages":[{"role":"user","content":"');
    const filler = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < 300; i++) if (!gzip.write(filler)) await new Promise((resolve) => gzip.once('drain', resolve));
    gzip.write(`"}]}\n${JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'synthetic after the long line' }] })}\n`);
    await new Promise((resolve) => gzip.end(resolve));
    await page.goto('./');
    await dropFiles(page, [{ name: 'long-line.jsonl.gz', bytes: Buffer.concat(chunks) }]);
    await expect(page.locator('#notice')).toContainText('1 record could not be read', { timeout: 60_000 });
    await expect(page.locator('#notice .notice-details')).toContainText('long-line.jsonl.gz, line 1');
    await expect(page.locator('#notice .notice-details')).toContainText('longer than the record limit of 256 MiB');
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(1));
  });

  test('10,000-deep nesting is a located error naming the limit, and the app keeps working', async ({ page }) => {
    await page.goto('./');
    const deep = `{"model":"gpt-4o","messages":[{"role":"user","content":${'['.repeat(10_000)}${']'.repeat(10_000)}}]}`;
    await dropFiles(page, [{ name: 'deep.jsonl', bytes: Buffer.from(`${deep}\n`) }]);
    await expect(page.locator('#notice')).toContainText('deep.jsonl');
    await expect(page.locator('#notice')).toContainText('nested deeper than 512 levels');
    await dropFiles(page, [{ name: 'after.jsonl', bytes: Buffer.from(hostileLog()) }]);
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(3));
  });
});
