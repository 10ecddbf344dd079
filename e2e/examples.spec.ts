// Every built-in example opens from the start screen; each of its requests shows one rectangle per segment and
// the same total as the CLI computes for the same file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cliRequests, expect, expectRequest, ROOT, selectRequest, shownTotal, test } from './fixtures.ts';

interface Entry {
  id: string;
  title: string;
  file: string;
}

const examples = JSON.parse(readFileSync(path.join(ROOT, 'examples/index.json'), 'utf8')) as Entry[];

test.describe('built-in examples', () => {
  for (const example of examples) {
    test(`opens ${example.id}`, async ({ page }) => {
      const expected = cliRequests(path.join(ROOT, 'examples', example.file));
      await page.goto('./');
      await page.locator(`[data-example="${example.id}"]`).click();
      await expect(page.locator('#request-total')).toBeVisible();
      await expect(page.locator('.topbar .badge')).toHaveText('synthetic');
      await expect(page).toHaveURL(new RegExp(`#example=${example.id}&request=\\d+&panel=tokens`));
      await expect(page.locator('#request-table')).toHaveAttribute('data-requests', String(expected.length));

      for (let i = 0; i < expected.length; i++) {
        const cli = expected[i];
        if (!cli) continue;
        await selectRequest(page, i);
        await expect(page.locator('.treemap .cell')).toHaveCount(cli.cells);
        await expect(page.locator('#segment-count')).toHaveText(cli.segments.toLocaleString('en-US'));
        expect(await shownTotal(page), `request ${i + 1} total`).toBe(cli.total);
      }
    });
  }

  test('opens one growing session on its last request and a gateway log on its largest', async ({ page }) => {
    await page.goto('./#example=anthropic-agent-cache-bust');
    await expectRequest(page, 24);

    const gateway = cliRequests(path.join(ROOT, 'examples/synthetic-gateway-interleaved.jsonl'));
    const largest = gateway.reduce((best, r, i) => (r.total >= (gateway[best]?.total ?? 0) ? i : best), 0);
    await page.goto('./#example=gateway-interleaved');
    await expectRequest(page, largest + 1);
  });
});
