// axe-core (a devDependency) run in the page. The app's CSP (script-src 'self') and the HTML report's (no script at
// all) block an injected <script>, so axe's source is evaluated through the DevTools protocol (page.evaluate),
// which a page's CSP does not govern.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Found {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** Serious and critical axe violations on the page as it is, each with up to 5 of its nodes and why. */
export async function seriousViolations(page: Page): Promise<Found[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`) }));
  });
}
