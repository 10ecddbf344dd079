// Export (issue #26.6): a CSV download from the request table and from a dropped folder's session table, read back.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dropFolder, expect, folderFiles, realSessionFolder, ROOT, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

async function downloaded(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${button}"]`).click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

test('the request table exports the rows it shows as CSV, raw numbers and the miss of each', async ({ page }) => {
  await page.goto('./#example=openai-chat-tools-reordered');
  await expect(page.locator('#request-filter-miss')).toBeEnabled();
  const { name, text } = await downloaded(page, 'ctxray-requests-csv');
  expect(name).toBe('ctxray-requests.csv');
  const lines = text.trimEnd().split('\r\n');
  expect(lines[0]).toBe('Request,Model,Conversation,Tokens,Exact,Recorded cache read,Simulated cache read,Cost (USD),Miss,Miss block,Findings');
  // 8 requests of one conversation; request 1 is a cold start, request 4 misses at tools[1] (tests/ui/request-table.test.ts).
  expect(lines).toHaveLength(9);
  expect(lines[1]).toMatch(/^1,gpt-4o[^,]*,1,\d+,(true|false),[^,]*,0,[\d.]+,cold_start,,/);
  expect(lines[4]).toMatch(/^4,gpt-4o[^,]*,1,\d+,(true|false),[^,]*,0,[\d.]+,setup_changed,tools\[1\],/);
  // Filtered: only the misses.
  await page.locator('#request-filter-miss').selectOption('misses');
  await expect(page.locator('.rt-count')).toHaveText('2 of 8 requests');
  const misses = await downloaded(page, 'ctxray-requests-csv');
  expect(misses.text.trimEnd().split('\r\n').map((line) => line.split(',')[0])).toEqual(['Request', '1', '4']);
});

test.describe('a dropped folder', () => {
  const folder = realSessionFolder();

  test('the session table exports one CSV line per session with the CLI’s requests and cost', async ({ page }) => {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', 'projects', '--json', '-'], { cwd: folder(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const sessions = (JSON.parse(out) as { sessions: { file: string; requests: number; cost: number }[] }).sessions;
    await page.goto('./');
    await dropFolder(page, 'projects', folderFiles(path.join(folder(), 'projects')));
    await expect(page.locator('#folder-table')).toHaveAttribute('data-rows', String(sessions.length));
    const { name, text } = await downloaded(page, 'ctxray-sessions-csv');
    expect(name).toBe('ctxray-sessions.csv');
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Session,Agent,Start (UTC),Requests,Input,Output,Cache read,Cache write,Cost,Hit rate,Lost to misses');
    expect(lines).toHaveLength(sessions.length + 1);
    for (const session of sessions) {
      const line = lines.find((l) => l.split(',')[0]!.endsWith(session.file));
      expect(line, session.file).toBeDefined();
      const fields = line!.split(',');
      expect(Number(fields[3]), session.file).toBe(session.requests);
      expect(Number(fields[8]), session.file).toBeCloseTo(session.cost, 9);
    }
  });
});
