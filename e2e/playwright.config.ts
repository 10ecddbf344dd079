// End-to-end tests in real Chromium (Debian's /usr/bin/chromium, or CTXRAY_CHROMIUM) against the built app,
// served by scripts/serve.mjs with the production CSP headers.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.CTXRAY_E2E_PORT ?? 4317);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// A build of its own per port (same formula as e2e/fixtures.ts), so a concurrent `npm run build` cannot swap
// files under a running suite.
const dist = path.join(root, 'test-results', `dist-${PORT}`);

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  outputDir: path.join(root, 'test-results', `e2e-${PORT}`),
  timeout: 90_000,
  expect: { timeout: 30_000 },
  // One worker: the machine is shared, and the CSP proof wants every request of the suite seen in order.
  workers: 1,
  fullyParallel: false,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CTXRAY_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    // Build first so the suite always runs the current code, then serve dist/ as a user would.
    command: `npx vite build --logLevel warn --outDir "${dist}" && node scripts/serve.mjs --port ${PORT} --dir "${dist}"`,
    cwd: root,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
