// The HTML report (`ctxray analyze --html`) in real Chromium, from real fixtures, at 1440×900 and 390×844 in light
// and dark: axe-core finds no serious or critical violation, one h1, nothing wider than the screen, and every
// treemap cell of the layout on screen has an accessible name (the ones large enough a visible label), with the
// same numbers as a table. The report is served from the app's origin (a routed response with the report's own
// CSP in the file), so the suite's same-origin proof holds for it too.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, hasRealFixtures, REAL_FIXTURES, ROOT, test } from './fixtures.ts';
import { seriousViolations } from './axe.ts';

const FIXTURES = ['gateway/claude-trace/claude-trace_cc-1.0.6_test-traffic.jsonl', 'transcripts/codex/rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl'];

/** The report the CLI writes for `fixture`. */
export function cliReport(fixture: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-report-'));
  try {
    const out = path.join(dir, 'report.html');
    execFileSync(process.execPath, [path.join(ROOT, 'bin/ctxray.mjs'), 'analyze', path.join(REAL_FIXTURES, fixture), '--html', out], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return fs.readFileSync(out, 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function openReport(page: Page, html: string): Promise<void> {
  await page.route('**/report.html', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto('./report.html');
}

interface Cells {
  cells: number;
  named: number;
  labelled: number;
}

/** The cells of the treemap on screen (the wide or the narrow layout): how many, how many named, how many labelled. */
function visibleCells(page: Page): Promise<Cells> {
  return page.evaluate(() => {
    const svg = [...document.querySelectorAll('svg.tm')].find((s) => getComputedStyle(s).display !== 'none');
    const cells = [...(svg?.querySelectorAll('g[role="img"]') ?? [])];
    return {
      cells: cells.length,
      named: cells.filter((g) => (g.getAttribute('aria-label') ?? '').length > 0 && g.querySelector('title')?.textContent === g.getAttribute('aria-label')).length,
      labelled: cells.filter((g) => g.querySelector('text') !== null).length,
    };
  });
}

test.describe('the HTML report', () => {
  test.skip(!hasRealFixtures, `${REAL_FIXTURES} is absent`);
  for (const fixture of FIXTURES) {
    test(`${path.basename(fixture)}: clean, fits and labels its treemap at 1440 and 390, light and dark`, async ({ page }) => {
      const html = cliReport(fixture);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
          const where = `${scheme} ${viewport.width}`;
          await page.setViewportSize(viewport);
          await openReport(page, html);
          expect.soft(await page.locator('h1').count(), `${where}: h1`).toBe(1);
          // Nothing wider than the screen: the page does not scroll sideways (wide tables scroll inside themselves).
          expect.soft(await page.evaluate(() => document.documentElement.scrollWidth), `${where}: page width`).toBeLessThanOrEqual(viewport.width);
          const cells = await visibleCells(page);
          expect.soft(cells.cells, `${where}: cells`).toBeGreaterThan(0);
          expect.soft(cells.named, `${where}: named cells`).toBe(cells.cells);
          expect.soft(cells.labelled, `${where}: labelled cells`).toBeGreaterThan(0);
          // The same numbers as tables: one row per category of the legend.
          const legend = await page.locator('.sw').count();
          expect.soft(await page.locator('details:has(summary:text("numbers as tables")) table').first().locator('tbody tr').count(), `${where}: category table`).toBe(legend);
          expect.soft(await seriousViolations(page), where).toEqual([]);
        }
      }
    });
  }
});
