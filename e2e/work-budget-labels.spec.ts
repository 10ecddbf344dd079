// The app labels what its work budgets cut, as the CLI and the HTML report do: a diff past the Myers work budget is
// labelled coarse in the Diff panel, and a near-duplicate search stopped at its pair budget says where in the
// Duplicates panel. Inputs are synthetic (the shapes of the bomb bench, scripts/bench/bombs.ts, at smaller sizes).
import { dropFiles, expect, expectRequest, selectRequest, test } from './fixtures.ts';

const body = (content: unknown[]) => JSON.stringify({ model: 'claude-sonnet-4-5', system: 'synthetic system prompt', messages: [{ role: 'user', content }] });

test('a diff past its work budget is labelled coarse; one within it is not', async ({ page }) => {
  const blocks = Array.from({ length: 4000 }, (_, i) => ({ type: 'text', text: `synthetic block ${i}` }));
  // Request 2 rotates request 1's blocks by half (thousands of edits); request 3 appends one block to request 2.
  const rotated = [...blocks.slice(2000), ...blocks.slice(0, 2000)];
  const log = [body(blocks), body(rotated), body([...rotated, { type: 'text', text: 'synthetic tail' }])].join('\n') + '\n';
  await page.goto('/');
  await dropFiles(page, [{ name: 'synthetic-reordered.jsonl', bytes: Buffer.from(log) }]);
  await expectRequest(page, 3);
  await page.getByRole('tab', { name: 'Diff' }).click();
  await expect(page.locator('.diff-lines')).toBeVisible();
  await expect(page.locator('.coarse-diff')).toHaveCount(0);
  await selectRequest(page, 1);
  await expect(page.locator('.coarse-diff')).toContainText('Coarse diff: the requests differ by too many edits');
});

test('a near-duplicate search stopped at its pair budget says where, in the Duplicates panel', async ({ page }) => {
  // 16,000 blocks sharing 60 words and differing in 8: every pair just under the 0.85 threshold.
  const common = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
  const content = Array.from({ length: 16_000 }, (_, k) => ({ type: 'text', text: `${common} ${Array.from({ length: 8 }, (_, j) => `x${k}_${j}`).join(' ')}` }));
  await page.goto('/');
  await dropFiles(page, [{ name: 'synthetic-near-duplicates.jsonl', bytes: Buffer.from(body(content) + '\n') }]);
  await expectRequest(page, 1);
  await page.getByRole('tab', { name: 'Duplicates' }).click();
  await expect(page.locator('.near-cut')).toHaveText('The search stopped at its work budget in request 1: groups from there on may be missing (0 later request(s) not compared).');
});
