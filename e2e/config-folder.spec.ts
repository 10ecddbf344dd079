// A dropped ~/.claude (Claude Code's config folder, as ccusage's CLAUDE_CONFIG_DIR names it) in real Chromium: the
// app reads its projects/ alone, as `ctxray analyze ~/.claude` does — the rows are the sessions of projects/, each
// in its own project (not all in one called "projects"), and the prompt history, credentials and todo lists beside
// them are not opened. The sessions are real (../shared/fixtures/real, copied into a temp folder); the files beside
// them are SYNTHETIC, in the shapes Claude Code writes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dropFolder, expect, folderFiles, hasRealFixtures, REAL_FIXTURES, ROOT, test } from './fixtures.ts';
import { buildRealSessionFolder } from '../tests/conformance/real-session-folder.ts';

test.describe('a dropped Claude Code config folder', () => {
  test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);
  let dir = '';

  test.beforeAll(() => {
    dir = buildRealSessionFolder(path.join(REAL_FIXTURES, 'transcripts'), { nested: false, agents: [] });
    fs.writeFileSync(path.join(dir, 'history.jsonl'), '{"display":"fix the tests","pastedContents":{},"timestamp":1759000000000,"project":"/home/u/demo"}\n');
    fs.writeFileSync(path.join(dir, '.credentials.json'), '{"claudeAiOauth":{"accessToken":"sk-ant-oat01-SYNTHETIC"}}\n');
    fs.mkdirSync(path.join(dir, 'todos'));
    fs.writeFileSync(path.join(dir, 'todos', 'x-agent-x.json'), '[{"content":"Fix bug","status":"completed","activeForm":"Fixing bug"}]\n');
  });
  test.afterAll(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test('reads its projects/ alone, each session in its own project, as the CLI does', async ({ page }) => {
    // The CLI on the same config folder: its sessions[] are the rows, their first folder the projects.
    const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', dir, '--json', '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const rows = (JSON.parse(out) as { sessions: { file: string }[] }).sessions;
    const projects = new Set(rows.map((row) => row.file.split('/')[0]));
    expect([...projects].sort()).toEqual(['-real-a', '-real-b', 'cline']);
    const sessions = rows.length;
    await page.goto('./');
    await dropFolder(page, '.claude', folderFiles(dir));
    const grid = page.locator('#folder-table');
    await expect(grid).toHaveAttribute('data-rows', String(sessions));
    await expect(page.locator('body')).toContainText('.claude/projects');
    await expect(page.locator('body')).not.toContainText(/history\.jsonl|credentials|could not be read/);
    await page.locator('.folder-tab[data-tab="projects"]').click();
    // The project folders of projects/, not one called "projects".
    await expect(grid).toHaveAttribute('data-rows', String(projects.size));
    await expect(grid).toContainText('-real-a');
    await expect(grid).not.toContainText(/^projects$/m);
  });
});
