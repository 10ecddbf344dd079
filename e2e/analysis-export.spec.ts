// Export of the analysis from the app (issue #26.6): the header's Export menu saves the ctxray.analysis record and
// the HTML report of the session on screen, and a dropped folder's record. Each download is read back and checked
// against what the CLI writes for the same real fixture: the same record (valid against docs/analysis.schema.json)
// and the same report, byte for byte.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { dropFile, dropFolder, expect, folderFiles, hasRealFixtures, realSessionFolder, REAL_FIXTURES, ROOT, selectRequest, test } from './fixtures.ts';

const FIXTURE = 'gateway/claude-trace/claude-trace_cc-1.0.6_test-traffic.jsonl';

function cli(args: string[], cwd = ROOT): string {
  return execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function validate(record: unknown): unknown {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/analysis.schema.json'), 'utf8')) as object;
  const check = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
  return check(record) ? [] : check.errors;
}

async function exported(page: Page, item: string): Promise<{ name: string; text: string }> {
  await page.locator('#export-menu > summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${item}"]`).click()]);
  return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
}

async function downloaded(page: Page, button: string): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${button}"]`).click()]);
  return fs.readFileSync(await download.path(), 'utf8').trimEnd().split('\r\n');
}

test('the segment table and the findings export their rows as CSV, the numbers of the CLI’s record', async ({ page }) => {
  const record = JSON.parse(cli([path.join(ROOT, 'examples/synthetic-anthropic-agent-cache-bust.jsonl.gz'), '--json', '-'])) as {
    requests: { segments: { path: string; tokens: number; bytes: number }[] }[];
    findings: { code: string; requests: number[] }[];
  };
  await page.goto('./#example=anthropic-agent-cache-bust');
  await selectRequest(page, 0);
  const segments = await downloaded(page, 'ctxray-segments-csv');
  expect(segments[0]).toBe('Segment,Category,Path,Tool,Tokens,Exact,Bytes');
  // Request 1's 14 blocks, in the table's order (by index), with the record's tokens and bytes.
  const expected = record.requests[0]!.segments;
  expect(segments).toHaveLength(expected.length + 1);
  segments.slice(1).forEach((line, i) => {
    const [n, , where, , tokens, , bytes] = line.split(',');
    expect([Number(n), where, Number(tokens), Number(bytes)]).toEqual([i + 1, expected[i]!.path, expected[i]!.tokens, expected[i]!.bytes]);
  });

  await page.getByRole('tab', { name: 'Findings', exact: true }).click();
  const findings = await downloaded(page, 'ctxray-findings-csv');
  expect(findings[0]).toBe('Severity,Code,Block,Message,Fix,Requests');
  expect(findings.slice(1).map((line) => line.split(',')[1])).toEqual(record.findings.map((f) => f.code));
});

test.describe('export of the analysis', () => {
  test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);

  test('a session’s record and HTML report are the CLI’s --json and --html for the same file', async ({ page }) => {
    const file = path.join(REAL_FIXTURES, FIXTURE);
    await page.goto('./');
    await dropFile(page, file);
    await expect(page.locator('#request-table')).toHaveAttribute('data-open', /\d+/);

    const record = await exported(page, 'ctxray-analysis-json');
    expect(record.name).toBe('ctxray-analysis.json');
    const parsed = JSON.parse(record.text) as { schema: string; requests: unknown[] };
    expect(parsed.schema).toBe('ctxray.analysis/2');
    expect(validate(parsed)).toEqual([]);
    // The CLI's record of the same file, written to stdout: the same bytes.
    expect(record.text).toBe(cli([file, '--json', '-']));
    // 64 request bodies in this claude-trace capture (the CLI calibrates over all 64).
    expect(parsed.requests).toHaveLength(64);

    const report = await exported(page, 'ctxray-report-html');
    expect(report.name).toBe('ctxray-report.html');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-export-'));
    try {
      cli([file, '--html', path.join(dir, 'report.html')]);
      expect(report.text).toBe(fs.readFileSync(path.join(dir, 'report.html'), 'utf8'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test.describe('a dropped folder', () => {
    const folder = realSessionFolder();

    test('its record is the CLI’s `analyze <folder> --json`', async ({ page }) => {
      const out = cli(['projects', '--json', '-'], folder());
      await page.goto('./');
      await dropFolder(page, 'projects', folderFiles(path.join(folder(), 'projects')));
      await expect(page.locator('#folder-table')).toHaveAttribute('data-rows', /\d+/);
      const record = await exported(page, 'ctxray-folder-json');
      expect(record.name).toBe('ctxray-folder.json');
      expect(validate(JSON.parse(record.text))).toEqual([]);
      expect(JSON.parse(record.text)).toEqual(JSON.parse(out));
    });
  });
});
