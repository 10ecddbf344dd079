#!/usr/bin/env node
// Serves the built app (dist/) on 127.0.0.1 with the same security headers as public/_headers, and prints the URL.
// Usage: node scripts/serve.mjs [--port N] [--dir PATH] [--prefix /sub/path/]
//   PORT env also works; 0 picks a free port. --prefix serves the app below a sub-path, as a static host would
//   (the build uses relative URLs, so it works from any base path).
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const root = path.resolve(option('--dir', path.join(here, '..', 'dist')));
const portText = option('--port', process.env.PORT ?? '4173');
const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
if (!(port >= 0 && port <= 65535)) {
  process.stderr.write(`serve: --port must be a number from 0 to 65535 (0 picks a free port), got "${portText}"\n`);
  process.exit(1);
}
const prefix = `/${option('--prefix', '/').replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');

if (!existsSync(path.join(root, 'index.html'))) {
  process.stderr.write(`serve: ${root}/index.html not found; run \`npm run build\` first\n`);
  process.exit(1);
}

/** Headers from dist/_headers (the `/*` block), so local serving matches a static host. */
function headersFile() {
  const file = path.join(root, '_headers');
  const headers = {};
  if (!existsSync(file)) return headers;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s+([A-Za-z-]+):\s*(.+)$/.exec(line);
    if (match) headers[match[1]] = match[2].trim();
  }
  return headers;
}

const SECURITY_HEADERS = headersFile();
if (!SECURITY_HEADERS['Content-Security-Policy']) {
  process.stderr.write('serve: dist/_headers has no Content-Security-Policy; refusing to serve without it\n');
  process.exit(1);
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

const server = createServer((req, res) => {
  const send = (status, body) => {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
    res.end(body);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
  } catch {
    return send(400, 'bad request\n');
  }
  if (!pathname.startsWith(prefix)) {
    if (`${pathname}/` === prefix) {
      res.writeHead(301, { Location: prefix, ...SECURITY_HEADERS });
      return res.end();
    }
    return send(404, 'not found\n');
  }
  const file = path.join(root, path.normalize(pathname.slice(prefix.length)).replace(/^([/\\])+/, ''));
  if (!file.startsWith(root + path.sep) && file !== root) return send(403, 'forbidden\n');
  let target = file;
  if (existsSync(target) && statSync(target).isDirectory()) target = path.join(target, 'index.html');
  if (!existsSync(target) || !statSync(target).isFile() || path.basename(target) === '_headers') return send(404, 'not found\n');
  // .gz examples are served as opaque bytes (no Content-Encoding): the app decompresses them itself.
  const type = TYPES[path.extname(target)] ?? 'application/octet-stream';
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': statSync(target).size,
    'Cache-Control': 'no-cache',
    ...SECURITY_HEADERS,
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(target).pipe(res);
});

server.on('error', (error) => {
  const reason = error.code === 'EADDRINUSE' ? `port ${port} is already in use; pass --port N (0 picks a free one)` : error.message;
  process.stderr.write(`serve: ${reason}\n`);
  process.exit(1);
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  process.stdout.write(`ctxray is being served at http://127.0.0.1:${actual}${prefix} (Ctrl+C to stop)\n`);
});
