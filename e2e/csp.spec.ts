// CSP proof. The fixture in fixtures.ts already fails any test whose page contacts another origin; here the page
// (and its analysis worker) actively try to, and the browser must block it and report the violation.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DIST, expect, test } from './fixtures.ts';

// A listener on another origin (another port) counts every request that reaches it: the strongest proof that
// nothing got out is that it hears nothing.
let probe: Server;
let probeHits = 0;
let FOREIGN = '';

test.beforeAll(async () => {
  probe = createServer((req, res) => {
    probeHits++;
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*' });
    res.end('leaked');
  });
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  FOREIGN = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/ctxray-csp-probe`;
});

test.afterAll(async () => {
  await new Promise((resolve) => probe.close(resolve));
  expect(probeHits, 'requests that reached the other origin').toBe(0);
});

test('the built page carries the CSP in a meta tag and the server sends it as a header', async ({ page }) => {
  const response = await page.goto('./');
  const header = response?.headers()['content-security-policy'] ?? '';
  expect(header).toContain("connect-src 'self'");
  expect(header).toContain("frame-ancestors 'none'");
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toContain("connect-src 'self'");
  expect(meta).toContain("script-src 'self' 'wasm-unsafe-eval'");
});

test('a cross-origin fetch from the page is blocked and reported as a securitypolicyviolation', async ({ page }) => {
  await page.goto('./');
  const outcome = await page.evaluate(async (url) => {
    const violation = new Promise<{ directive: string; blocked: string }>((resolve) => {
      document.addEventListener('securitypolicyviolation', (event) => resolve({ directive: event.effectiveDirective, blocked: event.blockedURI }), { once: true });
    });
    let fetchError = '';
    try {
      await fetch(url, { mode: 'no-cors' });
    } catch (error) {
      fetchError = (error as Error).name;
    }
    return { fetchError, violation: await violation };
  }, FOREIGN);
  expect(outcome.fetchError).toBe('TypeError');
  expect(outcome.violation.directive).toBe('connect-src');
  expect(outcome.violation.blocked).toContain(new URL(FOREIGN).host);
});

test('other ways out are blocked too: images, scripts, forms, beacons', async ({ page }) => {
  await page.goto('./');
  const directives = await page.evaluate(async (url) => {
    const seen: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) => seen.push(event.effectiveDirective));
    const img = document.createElement('img');
    img.src = `${url}.png`;
    document.body.append(img);
    const script = document.createElement('script');
    script.src = `${url}.js`;
    document.body.append(script);
    navigator.sendBeacon(`${url}/beacon`, 'x');
    const form = document.createElement('form');
    form.action = `${url}/form`;
    form.method = 'post';
    document.body.append(form);
    form.submit();
    await new Promise((resolve) => setTimeout(resolve, 500));
    return seen.sort();
  }, FOREIGN);
  expect(directives).toEqual(expect.arrayContaining(['connect-src', 'form-action', 'img-src', 'script-src-elem']));
});

test('the analysis worker cannot reach another origin either', async ({ page }) => {
  await page.goto('./#example=openai-responses-session');
  await expect(page.locator('#request-total')).toBeVisible();
  const [worker] = page.workers();
  expect(worker, 'the analysis worker is running').toBeDefined();
  const outcome = await worker?.evaluate(async (url) => {
    const scope = self as unknown as EventTarget;
    const violation = new Promise<string>((resolve) => {
      scope.addEventListener('securitypolicyviolation', (event) => resolve((event as SecurityPolicyViolationEvent).effectiveDirective), { once: true });
      setTimeout(() => resolve('no event'), 2000);
    });
    let fetchError = '';
    try {
      await fetch(url, { mode: 'no-cors' });
    } catch (error) {
      fetchError = (error as Error).name;
    }
    return { fetchError, directive: await violation };
  }, FOREIGN);
  expect(outcome?.fetchError).toBe('TypeError');
  expect(outcome?.directive).toBe('connect-src');
});

test.describe('on a static host that sends no CSP header (only the <meta> tag applies)', () => {
  let plain: Server;
  let plainBase = '';

  test.beforeAll(async () => {
    // A bare static server: no security headers at all, like many simple hosts.
    const dist = DIST;
    plain = createServer((req, res) => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      let file = path.join(dist, path.normalize(pathname));
      if (!file.startsWith(dist)) return void res.writeHead(403).end();
      if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
      if (!existsSync(file)) return void res.writeHead(404).end();
      const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : file.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
      res.writeHead(200, { 'Content-Type': type });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    plainBase = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
  });

  test.afterAll(async () => {
    await new Promise((resolve) => plain.close(resolve));
  });

  test('the page and its analysis worker are still confined to their origin', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${plainBase}#example=openai-responses-session`);
    expect(response?.headers()['content-security-policy']).toBeUndefined();
    await expect(page.locator('#request-total')).toBeVisible();
    const worker = page.workers()[0];
    // Started from a blob: bootstrap, the worker inherits the page's policy (src/ui/worker-factory.ts).
    expect(worker?.url()).toMatch(/^blob:/);
    const fromWorker = await worker?.evaluate(async (url) => {
      try {
        await fetch(url, { mode: 'no-cors' });
        return 'sent';
      } catch (error) {
        return (error as Error).name;
      }
    }, `${FOREIGN}/worker-meta-only`);
    const fromPage = await page.evaluate(async (url) => {
      try {
        await fetch(url, { mode: 'no-cors' });
        return 'sent';
      } catch (error) {
        return (error as Error).name;
      }
    }, `${FOREIGN}/page-meta-only`);
    expect(fromWorker).toBe('TypeError');
    expect(fromPage).toBe('TypeError');
    expect(probeHits).toBe(0);
    await context.close();
  });
});
