// The installed `ctxray` command (package.json "bin" → lib/bin/ctxray.js) and its session worker, bundled by
// esbuild into a few modules beside each other in lib/bin/: loading the CLI from ~150 compiled modules took
// ~100 ms of every run's start (and of every worker's), a bundle a fraction of that (docs/performance.md). The
// commands stay split into chunks loaded when named; dependencies stay imports of the installed packages. The
// library (lib/index.js) is tsc's output beside it.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
await build({
  absWorkingDir: root,
  entryPoints: { ctxray: 'src/cli/bin.ts', 'session-worker': 'src/cli/jobs/session-worker.ts' },
  outdir: 'lib/bin',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
