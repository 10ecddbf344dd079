// Opening input the other ways: dropping real request files (one or several), pasting, a malformed file followed
// by a good one, reading a segment's content by click and by keyboard, and share links.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  cliRequests,
  copyLink,
  dropFile,
  dropFiles,
  expect,
  expectRequest,
  hasRealFixtures,
  REAL_FIXTURES,
  ROOT,
  selectRequest,
  shownTotal,
  test,
} from './fixtures.ts';

const REAL_FILES = [
  'anthropic-messages/pai_parallel_tool_calls_seq.jsonl',
  'anthropic-messages/llm-anthropic_image_prompt.json',
  'openai-chat/llm_tool_chain_of_two_calls_seq.jsonl',
  'openai-responses/pai_thinking_with_tool_calls_seq.jsonl',
  'transcripts/pi/large-session.jsonl',
];

/** A small synthetic Anthropic request (labelled synthetic in its own text). */
const SYNTHETIC_MARKER = 'synthetic e2e marker: the quick brown fox 4711';
const syntheticRequest = (turns: number): string =>
  JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 256,
    system: 'You are a synthetic test assistant used by the ctxray end-to-end suite.',
    messages: Array.from({ length: turns }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: i === 0 ? `${SYNTHETIC_MARKER} <img src=x onerror="document.title='pwned'"> <b>bold?</b>` : `synthetic turn ${i + 1}`,
    })),
  });

test.describe('real request files dropped on the page', () => {
  test.skip(!hasRealFixtures, `real fixtures not found at ${REAL_FIXTURES}; skipping the drop tests on real files`);

  for (const relative of REAL_FILES) {
    test(`drop ${relative}`, async ({ page }) => {
      const file = path.join(REAL_FIXTURES, relative);
      const expected = cliRequests(file);
      await page.goto('./');
      await dropFile(page, file);
      await expect(page.locator('.source-name')).toHaveText(path.basename(file));
      await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(expected.length));
      // A long transcript rebuilds hundreds of requests: check the first, a middle and the last one.
      const last = expected.length - 1;
      const picked = expected.length <= 12 ? expected.map((_, i) => i) : [0, Math.floor(last / 2), last];
      for (const i of picked) {
        await selectRequest(page, i);
        await expect(page.locator('.treemap .cell')).toHaveCount(expected[i]?.cells ?? -1);
        expect(await shownTotal(page), `${relative} request ${i + 1}`).toBe(expected[i]?.total);
      }
    });
  }

  test('an inline image segment shows a preview of the image', async ({ page }) => {
    await page.goto('./');
    await dropFile(page, path.join(REAL_FIXTURES, 'anthropic-messages/llm-anthropic_image_prompt.json'));
    await page.locator('.treemap .cell[data-category="image"]').click();
    const preview = page.locator('.content img.preview');
    await expect(preview).toBeVisible();
    expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(page.locator('.content')).toContainText('image/png');
  });

  test('drop two files at once', async ({ page }) => {
    const files = ['openai-chat/llm_tool_chain_of_two_calls_seq.jsonl', 'anthropic-messages/llm-anthropic_tools_seq.jsonl'].map((f) => path.join(REAL_FIXTURES, f));
    const expected = cliRequests(files);
    await page.goto('./');
    await dropFiles(page, files.map((f) => ({ name: path.basename(f), bytes: readFileSync(f) })));
    await expect(page.locator('.source-name')).toHaveText('2 files');
    await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(expected.length));
    for (let i = 0; i < expected.length; i++) {
      await selectRequest(page, i);
      expect(await shownTotal(page)).toBe(expected[i]?.total);
    }
  });
});

test('paste into the box, read a segment as text, and reopen it from a share link', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-write']);
  await page.goto('./');
  const text = `${syntheticRequest(1)}\n${syntheticRequest(3)}\n`;
  await page.locator('#paste-input').fill(text);
  await page.locator('#paste-analyze').click();
  await expectRequest(page, 2);
  await expect(page.locator('.source-name')).toHaveText('Pasted text');
  // system + 3 messages
  await expect(page.locator('.treemap .cell')).toHaveCount(4);
  expect((await page.locator('#request-total').textContent())?.startsWith('≈')).toBe(true);

  // The first user message: payload text is shown as text, never as markup.
  await page.locator('.treemap .cell[data-segment="1"]').click();
  const payload = page.locator('.content .payload');
  await expect(payload).toContainText(SYNTHETIC_MARKER);
  await expect(payload).toContainText('<img src=x');
  expect(await payload.locator('img, b').count()).toBe(0);
  expect(await page.title()).not.toBe('pwned');

  await selectRequest(page, 0);
  const link = await copyLink(page);
  await expect(page.locator('#notice')).toContainText('Link copied');
  // The block selected on request 2 is kept on request 1 and travels in the link.
  expect(link).toMatch(/#input=[A-Za-z0-9_-]+&request=1&panel=tokens&segment=[^&]+$/);

  const second = await context.newPage();
  await second.goto(link);
  await expectRequest(second, 1);
  await expect(second.locator('.source-name')).toHaveText('Pasted text');
  await expect(second.locator('.treemap .cell')).toHaveCount(2);
  await second.locator('.treemap .cell[data-segment="1"]').click();
  await expect(second.locator('.content .payload')).toContainText(SYNTHETIC_MARKER);
});

test('paste anywhere on the page, outside the text box', async ({ page }) => {
  await page.goto('./');
  await page.evaluate((body) => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', body);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, syntheticRequest(5));
  await expect(page.locator('.treemap .cell')).toHaveCount(6);
});

test('keyboard: focus the treemap, move with arrows, open with Enter', async ({ page }) => {
  await page.goto('./');
  await page.locator('#paste-input').fill(syntheticRequest(5));
  await page.locator('#paste-analyze').click();
  await expect(page.locator('.treemap .cell')).toHaveCount(6);
  const focusable = page.locator('.treemap .cell[tabindex="0"]');
  await expect(focusable).toHaveCount(1);
  await focusable.focus();
  const start = await page.evaluate(() => (document.activeElement as HTMLElement).dataset['segment']);
  await page.keyboard.press('End');
  const end = await page.evaluate(() => (document.activeElement as HTMLElement).dataset['segment']);
  expect(end).toBe('5');
  expect(start).not.toBe(end);
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await expect(page.locator('.content')).toHaveAttribute('data-segment', '0');
  await expect(page.locator('.content .payload')).toContainText('synthetic test assistant');
  // An arrow key moves focus to another rectangle.
  await page.keyboard.press('ArrowRight');
  const moved = await page.evaluate(() => (document.activeElement as HTMLElement).dataset['segment']);
  const down = moved === '0' ? (await page.keyboard.press('ArrowDown'), await page.evaluate(() => (document.activeElement as HTMLElement).dataset['segment'])) : moved;
  expect(down).not.toBe('0');

  // The segment table is keyboard-driven too: Down moves to the next row, Enter opens it.
  await page.locator('.segments tbody tr[tabindex="0"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.locator('.content')).toHaveAttribute('data-segment', '1');
  await expect(page.locator('.segments tbody tr.selected')).toHaveAttribute('data-segment', '1');
});

test('a malformed file shows a located error, and the next file still works', async ({ page }) => {
  await page.goto('./');
  // Not JSON at all: nothing can be read.
  await dropFiles(page, [{ name: 'broken.json', bytes: Buffer.from('{"model": "claude-sonnet-4-5", "messages": [') }]);
  await expect(page.locator('#notice')).toContainText('broken.json: no request could be read');
  await expect(page.locator('#notice .notice-details')).toContainText('broken.json');
  await expect(page.locator('#drop-target')).toBeVisible();

  // One bad line among good ones: the line is named, the rest analyzed.
  const mixed = `${syntheticRequest(1)}\n{"model": oops}\n${syntheticRequest(3)}\n`;
  await dropFiles(page, [{ name: 'mixed.jsonl', bytes: Buffer.from(mixed) }]);
  await expect(page.locator('#notice')).toContainText('1 record could not be read');
  await expect(page.locator('#notice .notice-details')).toContainText('mixed.jsonl, line 2');
  await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(2));

  // And a good file afterwards opens normally, without the old notice.
  await dropFiles(page, [{ name: 'good.jsonl', bytes: Buffer.from(syntheticRequest(3)) }]);
  await expect(page.locator('.source-name')).toHaveText('good.jsonl');
  await expect(page.locator('#notice')).toHaveCount(0);
  await expect(page.locator('.treemap .cell')).toHaveCount(4);
});

test('the model picker re-analyzes the current input as that model, like the CLI --model', async ({ page }) => {
  const file = path.join(ROOT, 'examples/synthetic-openai-chat-tools-reordered.jsonl');
  const expected = cliRequests(file, ['--model', 'gpt-5']);
  await page.goto('./#example=openai-chat-tools-reordered');
  await expect(page.locator('#request-total')).toBeVisible();
  await page.locator('#model-picker').selectOption('gpt-5');
  await expect(page).toHaveURL(/model=gpt-5(&|$)/);
  await expect(page.locator('.request-stats')).toContainText('gpt-5');
  await expect(page.locator('#model-picker')).toHaveValue('gpt-5');
  const shown = await page.locator('#request-table').getAttribute('data-open');
  expect(await shownTotal(page)).toBe(expected[Number(shown)]?.total);

  // The override belongs to that input: the next input opens with detection again.
  await dropFiles(page, [{ name: 'next.jsonl', bytes: Buffer.from(syntheticRequest(1)) }]);
  await expect(page.locator('.source-name')).toHaveText('next.jsonl');
  await expect(page.locator('#model-picker')).toHaveValue('');
  await expect(page).not.toHaveURL(/model=/);
  await expect(page.locator('.request-stats')).toContainText('claude-sonnet-4-5');
});

test('the format picker overrides detection for the current input, like the CLI --format', async ({ page }) => {
  const file = path.join(ROOT, 'examples/synthetic-openai-chat-tools-reordered.jsonl');
  const forced = cliRequests(file, ['--format', 'anthropic']);
  await page.goto('./#example=openai-chat-tools-reordered');
  await expect(page.locator('#request-total')).toBeVisible();
  await page.locator('#format-picker').selectOption('anthropic-messages');
  await expect(page).toHaveURL(/format=anthropic-messages/);
  await expect(page.locator('#format-picker')).toHaveValue('anthropic-messages');
  await expect(page.locator('.topbar .source')).toContainText('Anthropic Messages');
  const shown = Number(await page.locator('#request-table').getAttribute('data-open'));
  expect(await shownTotal(page)).toBe(forced[shown]?.total);
  // Back to detection restores the original reading.
  await page.locator('#format-picker').selectOption('auto');
  await expect(page.locator('.request-stats')).toBeVisible();
  await expect(page).not.toHaveURL(/format=/);
});

test('a pasted input too large for a link is refused a link, with the reason, and a reload says the paste is gone', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-write']);
  await page.goto('./');
  // Incompressible synthetic content: ~40,000 pseudo-random hex digits deflate to far more than 16,384 characters.
  const noise = await page.evaluate(() => {
    let seed = 0x2545f491;
    let out = '';
    for (let i = 0; i < 40_000; i++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      out += ((seed >>> 0) % 16).toString(16);
    }
    return out;
  });
  const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: `synthetic noise ${noise}` }] });
  await page.locator('#paste-input').fill(body);
  await page.locator('#paste-analyze').click();
  await expect(page.locator('.treemap .cell')).toHaveCount(1);
  await page.locator('#copy-link').click();
  await expect(page.locator('#notice')).toContainText('a link carries at most 16,384');
  // Refused: a link without its input would open an empty app claiming nothing useful.
  await expect(page.locator('#notice')).toContainText('no link was copied');
  await expect(page.locator('#notice')).toHaveAttribute('role', 'alert');
  // A reload keeps nothing of the paste, and says so instead of claiming local files.
  await expect(page).toHaveURL(/src=paste/);
  await page.reload();
  await expect(page.locator('#notice')).toContainText('was of pasted text');
  await expect(page.locator('#notice')).not.toContainText('opened locally');
});
