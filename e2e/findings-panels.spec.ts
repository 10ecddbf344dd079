// The Findings, Diff and Conversations panels in real Chromium on the synthetic examples: the same findings the
// CLI reports, links that open the requests they name, a block diff with an on-demand line diff, and the
// conversations of an interleaved gateway log.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, expectRequest, ROOT, selectRequest, test } from './fixtures.ts';

function cliFindings(file: string): { code: string; requests: number[] }[] {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', '--json', '-', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return (JSON.parse(out) as { findings: { code: string; requests: number[] }[] }).findings;
}

test('Findings lists what the CLI finds, and a request link opens that request', async ({ page }) => {
  const cli = cliFindings(path.join(ROOT, 'examples', 'synthetic-anthropic-agent-cache-bust.jsonl.gz'));
  await page.goto('./#example=anthropic-agent-cache-bust');
  await expectRequest(page, 24);
  await page.getByRole('tab', { name: 'Findings' }).click();
  const cards = page.locator('.finding');
  await expect(cards).toHaveCount(cli.length);
  for (const [i, finding] of cli.entries()) await expect(cards.nth(i)).toContainText(finding.code);
  // A request link opens that request in the Tokens view with the finding's block (system[0]) selected.
  await cards.first().getByRole('button', { name: 'Open request 5' }).click();
  await expectRequest(page, 5);
  await expect(page.locator('#panel')).toHaveAttribute('data-panel', 'tokens');
  await expect(page.locator('.treemap .cell[aria-current="true"]')).toBeFocused();
  await expect(page.locator('.content')).toContainText('system[0]');
  await page.getByRole('tab', { name: 'Findings' }).click();
  await expect(page.locator('.finding.involves-selected')).toHaveCount(cli.filter((f) => f.requests.includes(4)).length);
});

test('the fixed twin says "No findings"', async ({ page }) => {
  await page.goto('./#example=anthropic-agent-cache-fixed&panel=findings');
  await expect(page.locator('#panel')).toContainText('No findings');
});

test('Diff shows a reordered tool as a local change and opens the compared request', async ({ page }) => {
  await page.goto('./#example=openai-chat-tools-reordered');
  await expectRequest(page, 8);
  await selectRequest(page, 3);
  await page.getByRole('tab', { name: 'Diff' }).click();
  const panel = page.locator('#panel');
  await expect(panel).toContainText('Compared with request 3');
  await expect(panel).toContainText('the prefix breaks at tools[1]');
  // A move is one block removed at its old place and added at its new one, not a replacement.
  await expect(panel.locator('.diff-lines li.delete')).toHaveCount(1);
  await panel.getByRole('button', { name: 'request 3' }).first().click();
  await expectRequest(page, 3);
});

test('Diff loads the line-level diff of a replaced system block on request', async ({ page }) => {
  await page.goto('./#example=anthropic-agent-cache-bust&request=5&panel=diff');
  const panel = page.locator('#panel');
  await expect(panel).toContainText('the prefix breaks at system[0]');
  await expect(panel.locator('.text-diff')).toHaveCount(0);
  await panel.getByRole('button', { name: 'line diff' }).click();
  // Only the timestamp line changed (synthetic example text).
  await expect(panel.locator('.text-diff .delete')).toHaveCount(1);
  await expect(panel.locator('.text-diff .insert')).toHaveCount(1);
  await expect(panel.locator('.text-diff .delete')).toContainText('Current time:');
});

test('Conversations separates an interleaved gateway log and opens a request from the table', async ({ page }) => {
  await page.goto('./#example=gateway-interleaved&panel=conversations');
  const rows = page.locator('table.conversations tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(page.locator('#panel')).toContainText('Conversations (3)');
  await rows.nth(1).getByRole('button', { name: '5', exact: true }).click();
  await expectRequest(page, 5);
  await expect(page.locator('table.conversations tbody tr.selected')).toContainText('same setup as 1');
});
