// The Clearing workspace in the built app: the synthetic examples' files chosen on the panel give their verdicts,
// sql.js runs in the worker under the production CSP, and a WAL-mode sidecar is refused.
import fs from 'node:fs';
import path from 'node:path';
import { dropFolder, expect, folderFiles, ROOT, test } from './fixtures.ts';

const EXAMPLES = path.join(ROOT, 'examples/clearing');

function files(dir: string) {
  return fs.readdirSync(path.join(dir, 'journals')).map((name) => path.join(dir, 'journals', name));
}

test('the Clearing panel gives the BUILD example its verdict and explains the STOP one', async ({ page }) => {
  await page.goto('./#example=anthropic-file-reread');
  await page.locator('#tab-clearing').click();
  for (const [name, verdict] of [['build', 'BUILD'], ['stop-redaction-dominated', 'STOP']] as const) {
    const dir = path.join(EXAMPLES, name);
    await page.locator('#clearing-journals').setInputFiles(files(dir));
    await page.locator('#clearing-sidecar').setInputFiles(path.join(dir, 'sidecar.sqlite'));
    await page.locator('#clearing-routes').setInputFiles(path.join(dir, 'routes.json'));
    await page.locator('#clearing-qualification').setInputFiles(path.join(dir, 'qualification.json'));
    await page.locator('#clearing-agent').setInputFiles(path.join(dir, 'agent-config.json'));
    if (fs.existsSync(path.join(dir, 'app-allowlist.json'))) {
      await page.locator('#clearing-allowlist').setInputFiles(path.join(dir, 'app-allowlist.json'));
    }
    await page.getByRole('button', { name: 'Analyze clearing opportunity' }).click();
    const card = page.locator('.clearing-card[data-api="anthropic-messages"]');
    await expect(card.locator('.clearing-verdict')).toHaveText(verdict);
    await expect(card.locator('tbody tr')).toHaveCount(6);
  }
  await expect(page.locator('.clearing-card')).toContainText('ADMISSION_LOW');
  await expect(page.locator('.clearing-card')).toContainText('Fewer than 25% of cold pressured boundaries');
});

test('a sidecar chosen with its -wal companion is refused as not offline', async ({ page }) => {
  await page.goto('./#example=anthropic-file-reread');
  await page.locator('#tab-clearing').click();
  const dir = path.join(EXAMPLES, 'build');
  await page.locator('#clearing-journals').setInputFiles(files(dir));
  await page.locator('#clearing-sidecar').setInputFiles([
    { name: 'sidecar.sqlite', mimeType: 'application/octet-stream', buffer: fs.readFileSync(path.join(dir, 'sidecar.sqlite')) },
    { name: 'sidecar.sqlite-wal', mimeType: 'application/octet-stream', buffer: Buffer.from('synthetic') },
  ]);
  await page.locator('#clearing-routes').setInputFiles(path.join(dir, 'routes.json'));
  await page.locator('#clearing-qualification').setInputFiles(path.join(dir, 'qualification.json'));
  await page.getByRole('button', { name: 'Analyze clearing opportunity' }).click();
  await expect(page.locator('.clearing-result')).toContainText('SIDECAR_NOT_OFFLINE');
  await expect(page.locator('.clearing-result')).toContainText('incomplete snapshot');
});

test('the start screen opens the clearing workspace with no request log, and keeps its form across re-renders', async ({ page }) => {
  await page.goto('./');
  await page.locator('#open-clearing').click();
  await expect(page.locator('#panel[data-panel="clearing"]')).toBeVisible();
  await expect(page.locator('#request-table')).toHaveCount(0);
  const dir = path.join(EXAMPLES, 'build');
  await page.locator('#clearing-journals').setInputFiles(files(dir));
  await page.locator('#clearing-sidecar').setInputFiles(path.join(dir, 'sidecar.sqlite'));
  await page.locator('#clearing-routes').setInputFiles(path.join(dir, 'routes.json'));
  await page.locator('#clearing-qualification').setInputFiles(path.join(dir, 'qualification.json'));
  await page.locator('#clearing-agent').setInputFiles(path.join(dir, 'agent-config.json'));
  await page.locator('#clearing-allowlist').setInputFiles(path.join(dir, 'app-allowlist.json'));
  await page.getByRole('button', { name: 'Analyze clearing opportunity' }).click();
  await expect(page.locator('.clearing-card[data-api="anthropic-messages"] .clearing-verdict')).toHaveText('BUILD');
  // The result re-rendered the form: every input still holds its files, as the summary line says.
  await expect(page.locator('.clearing-form')).toContainText('4 journal files, sidecar chosen, routes chosen, qualification chosen');
  expect(await page.locator('#clearing-journals').evaluate((input: HTMLInputElement) => input.files?.length)).toBe(4);
  expect(await page.locator('#clearing-sidecar').evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe('sidecar.sqlite');
  expect(await page.locator('#clearing-qualification').evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe('qualification.json');
});

test('a dropped case folder is recognised by role and shows its verdict with no request log loaded', async ({ page }) => {
  await page.goto('./');
  await dropFolder(page, 'case', folderFiles(path.join(EXAMPLES, 'build')));
  await expect(page.locator('.clearing-card[data-api="anthropic-messages"] .clearing-verdict')).toHaveText('BUILD');
  await expect(page.locator('#request-table')).toHaveCount(0);
  await expect(page.locator('#notice')).toHaveCount(0);
  await expect(page.locator('.clearing-form')).toContainText('4 journal files, sidecar chosen, routes chosen, qualification chosen');
});
