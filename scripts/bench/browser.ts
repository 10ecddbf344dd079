// The browser case of `npm run bench` (`-- --case browser`): the built app in headless Chromium on synthetic
// gateway logs of short conversations. For a log of 200 requests and one of 28,000 (~190 MB) it times
//   - switching: 7 request steps (the `j`/`k` shortcut) and one visit to every panel (a click on its tab), each
//     from the input event to the first frame after the view stops changing (no DOM change for 400 ms and no
//     worker call outstanding); medians under 50 ms count as 50 ms. Target: the 28k median within 2× of the 200.
//   - first render: from the file input's change event to that settled first frame, against
//     `ctxray analyze --json` on the same file. Target: within 3× of the CLI.
//   - the page's JS heap (CDP Runtime.getHeapUsage after a forced GC) once the first view settled, and again after
//     every panel was visited: what the page holds of the analysis (the worker's heap is not in it).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import type { BenchInput } from './inputs.ts';
import { median } from './median.ts';

const QUIET_MS = 400;
const FLOOR_MS = 50;

export interface SwitchTimes {
  requestStepsMs: number[];
  panelVisitsMs: Record<string, number>;
  medianStepMs: number;
  medianPanelMs: number;
}

export interface BrowserCase {
  name: string;
  bytes: number;
  requests: number;
  firstRenderMs: number;
  switching: SwitchTimes;
  /** Page JS heap in use after a forced GC: after the first render, and after every panel was visited. */
  pageHeapBytes: { firstRender: number; afterPanels: number };
}

export interface BrowserBench {
  small: BrowserCase;
  large: BrowserCase;
  cliMs: number;
  /** Large over small, each median floored at 50 ms. */
  stepRatio: number;
  panelRatio: number;
  /** The large log's first render over the CLI on the same file. */
  firstRenderRatio: number;
}

const floored = (ms: number): number => Math.max(FLOOR_MS, ms);
const round = (ms: number): number => Math.round(ms);

/** Page-side probes: `__arm()` starts watching before an input; `__settled()` resolves with ms since that input. */
const PROBES = `
window.__t0 = 0;
for (const type of ['keydown', 'pointerdown', 'change']) addEventListener(type, () => { window.__t0 = performance.now(); }, true);
window.__arm = () => {
  const state = { last: performance.now(), dirty: true, frameAfter: 0 };
  state.observer = new MutationObserver(() => { state.last = performance.now(); state.dirty = true; });
  state.observer.observe(document.getElementById('main'), { subtree: true, childList: true, attributes: true, characterData: true });
  window.__watch = state;
};
window.__settled = () => new Promise((resolve) => {
  const state = window.__watch;
  const tick = () => {
    if (state.dirty) { state.dirty = false; state.frameAfter = performance.now(); }
    const idle = (document.body.getAttribute('data-worker-pending') ?? '0') === '0';
    if (idle && document.getElementById('request-total') && performance.now() - state.last > ${QUIET_MS}) {
      state.observer.disconnect();
      resolve(state.frameAfter - window.__t0);
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});`;

async function timed(page: Page, act: () => Promise<void>): Promise<number> {
  await page.evaluate('window.__arm()');
  await act();
  return (await page.evaluate('window.__settled()')) as number;
}

/** The page's (main thread's) JS heap in use after a full GC, in bytes. */
async function pageHeap(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

async function measureCase(page: Page, url: string, input: BenchInput): Promise<BrowserCase> {
  await page.goto(url);
  await page.evaluate(PROBES);
  const cdp = await page.context().newCDPSession(page);
  const firstRenderMs = await timed(page, () => page.setInputFiles('#file-input', input.path));
  const heapAtFirstRender = await pageHeap(cdp);
  const requests = Number(await page.locator('#request-table').getAttribute('data-requests'));
  const requestStepsMs: number[] = [];
  for (let i = 0; i < 7; i++) {
    // Shortcuts act when the focus is on the page, not in the table (where j/k move its cursor).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const at = Number(await page.locator('#request-table').getAttribute('data-open'));
    const key = at + 1 < requests ? 'j' : 'k';
    requestStepsMs.push(await timed(page, () => page.keyboard.press(key)));
  }
  const tabs = await page.locator('[role=tab]').evaluateAll((nodes) => nodes.map((n) => n.id));
  const panelVisitsMs: Record<string, number> = {};
  // Every panel once, the one open at first last (clicking the open tab changes nothing).
  for (const id of [...tabs.slice(1), tabs[0]!]) panelVisitsMs[id.replace(/^tab-/, '')] = await timed(page, () => page.click(`#${id}`));
  const heapAfterPanels = await pageHeap(cdp);
  await cdp.detach();
  return {
    name: input.name,
    bytes: input.bytes,
    requests,
    firstRenderMs: round(firstRenderMs),
    pageHeapBytes: { firstRender: heapAtFirstRender, afterPanels: heapAfterPanels },
    switching: {
      requestStepsMs: requestStepsMs.map(round),
      panelVisitsMs: Object.fromEntries(Object.entries(panelVisitsMs).map(([k, v]) => [k, round(v)])),
      medianStepMs: round(median(requestStepsMs)),
      medianPanelMs: round(median(Object.values(panelVisitsMs))),
    },
  };
}

function cliMs(root: string, file: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    execFileSync(process.execPath, [join(root, 'bin/ctxray.mjs'), 'analyze', file, '--json', '-'], { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
    times.push(performance.now() - started);
  }
  return median(times);
}

async function serve(root: string, dist: string): Promise<{ url: string; server: ChildProcess }> {
  const server = spawn(process.execPath, [join(root, 'scripts/serve.mjs'), '--port', '0', '--dir', dist], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  server.stdout!.setEncoding('utf8');
  while (!/http:\/\/\S+/.test(out)) {
    const [chunk] = (await once(server.stdout!, 'data')) as [string];
    out += chunk;
  }
  return { url: out.match(/http:\/\/\S+/)![0]!.replace(/\/?$/, '/'), server };
}

export async function browserBench(root: string, small: BenchInput, large: BenchInput, cliRuns: number): Promise<BrowserBench> {
  const dist = join(root, '.bench', 'dist');
  execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', dist], { cwd: root, stdio: 'inherit' });
  const { url, server } = await serve(root, dist);
  const browser = await chromium.launch({ executablePath: process.env['CTXRAY_CHROMIUM'] ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(600_000);
    const smallCase = await measureCase(page, url, small);
    const largeCase = await measureCase(page, url, large);
    const cli = cliMs(root, large.path, cliRuns);
    return {
      small: smallCase,
      large: largeCase,
      cliMs: round(cli),
      stepRatio: Math.round((floored(largeCase.switching.medianStepMs) / floored(smallCase.switching.medianStepMs)) * 100) / 100,
      panelRatio: Math.round((floored(largeCase.switching.medianPanelMs) / floored(smallCase.switching.medianPanelMs)) * 100) / 100,
      firstRenderRatio: Math.round((largeCase.firstRenderMs / cli) * 100) / 100,
    };
  } finally {
    await browser.close();
    server.kill();
  }
}
