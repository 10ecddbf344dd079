// Static build that works from any base path: relative asset URLs, the CSP as a <meta> in the built index.html,
// and the synthetic examples (examples/index.json and the files it lists) copied to dist/examples/.
import { readFileSync, existsSync, createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { CSP_META } from './src/ui/csp.ts';

const EXAMPLES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'examples');

interface ExampleEntry {
  id: string;
  file: string;
}

function exampleFiles(): string[] {
  const indexPath = path.join(EXAMPLES_DIR, 'index.json');
  if (!existsSync(indexPath)) return [];
  const entries = JSON.parse(readFileSync(indexPath, 'utf8')) as ExampleEntry[];
  return ['index.json', ...entries.map((entry) => entry.file)].filter((file) => !file.includes('..') && !path.isAbsolute(file));
}

/** Serves examples/ in dev and emits the listed example files into the build. */
function examples(): Plugin {
  return {
    name: 'ctxray-examples',
    configureServer(server) {
      server.middlewares.use('/examples', (req, res, next) => {
        const name = decodeURIComponent((req.url ?? '').split('?')[0] ?? '').replace(/^\/+/, '');
        if (!exampleFiles().includes(name)) return next();
        const file = path.join(EXAMPLES_DIR, name);
        res.setHeader('Content-Type', name.endsWith('.json') ? 'application/json' : 'application/octet-stream');
        res.setHeader('Content-Length', String(statSync(file).size));
        createReadStream(file).pipe(res);
      });
    },
    generateBundle() {
      for (const name of exampleFiles()) {
        this.emitFile({ type: 'asset', fileName: `examples/${name}`, source: readFileSync(path.join(EXAMPLES_DIR, name)) });
      }
    },
  };
}

/** The CSP goes into the built page only: the dev server injects inline scripts and styles for hot reload. */
function cspMeta(): Plugin {
  return {
    name: 'ctxray-csp-meta',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_META }, injectTo: 'head-prepend' }],
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [examples(), cspMeta()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // The tokenizer vocabularies are large by nature; they load lazily, only for inputs that need them.
    chunkSizeWarningLimit: 4096,
  },
});
