// The recorder's readers of untrusted bytes as fuzz targets: whatever status line an upstream sends, the proxy
// answers and goes on; whatever a query string holds, only harmless values are written; whatever bytes a body
// has, its capture line is one valid JSON line that gives the bytes back. (SYNTHETIC inputs throughout.)
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { captureRecord, redactedPath } from '../../src/cli/record/capture.ts';
import { startProxy, type RecordingProxy } from '../../src/cli/record/proxy.ts';
import { linePieces } from '../../src/cli/record/writer.ts';
import type { FuzzTarget } from './targets.ts';

/** The next status line the raw upstream sends (one fuzz input at a time). */
let statusLine = 'HTTP/1.1 200 OK';
let proxy: Promise<RecordingProxy> | null = null;

/** A raw upstream that answers every request with `statusLine`, and a proxy in front of it; made once. */
function proxyOnce(): Promise<RecordingProxy> {
  proxy ??= (async () => {
    const upstream = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end(`${statusLine}\r\ncontent-length: 2\r\n\r\n{}`, 'latin1'));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstream.unref();
    const origin = new URL(`http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}`);
    const started = await startProxy(0, { upstreams: { anthropic: origin, openai: origin }, onRecord: () => undefined, upstreamTimeoutMs: 2_000 });
    started.server.unref();
    return started;
  })();
  return proxy;
}

function statusThrough(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/v1/messages', method: 'POST', headers: { 'anthropic-version': '2023-06-01' }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(-1));
    });
    req.on('error', () => resolve(-1));
    req.end('{}');
  });
}

const latin1Text = (max: number) => fc.uint8Array({ maxLength: max }).map((bytes) => Buffer.from(bytes).toString('latin1'));
const HARMLESS = /^(?:beta=(?:true|false)|stream=(?:true|false)|api-version=\d{4}-\d{2}-\d{2}(?:-preview)?|limit=\d{1,6}|order=(?:asc|desc))$/;

export function recordTargets(): FuzzTarget[] {
  return [
    {
      name: 'record:status-line',
      weight: 1,
      arbitrary: fc.tuple(fc.oneof(fc.integer({ min: 0, max: 999 }).map((n) => String(n).padStart(3, '0')), latin1Text(4)), latin1Text(24)),
      async run(input) {
        const [code, reason] = input as [string, string];
        const { port } = await proxyOnce();
        statusLine = `HTTP/1.1 ${code} ${reason.replace(/[\r\n]/g, '')}`;
        const status = await statusThrough(port);
        if (status === -1) return null; // the client saw the connection cut: allowed, as long as the proxy lives on
        if (status < 200 || status > 599) return `the agent got status ${status}`;
        statusLine = 'HTTP/1.1 200 OK';
        const after = await statusThrough(port);
        return after === 200 ? null : `a plain request after status line ${JSON.stringify(`${code} ${reason}`)} got ${after}`;
      },
    },
    {
      name: 'record:query',
      weight: 1,
      arbitrary: fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom('=', ''), fc.string({ maxLength: 12 }), fc.constantFrom('&', ';')), { maxLength: 6 }),
      async run(input) {
        const query = (input as [string, string, string, string][]).map(([name, eq, value, sep]) => `${encodeURIComponent(name)}${eq}${eq === '' ? '' : encodeURIComponent(value)}${sep}`).join('');
        const written = redactedPath(`/v1/messages?${query}`);
        for (const part of written.slice(written.indexOf('?') + 1).split(/[&;]/)) {
          const eq = part.indexOf('=');
          if (eq < 0 || part.slice(eq + 1) === '[redacted]' || HARMLESS.test(part)) continue;
          return `a value written in clear: ${JSON.stringify(part)}`;
        }
        return null;
      },
    },
    {
      name: 'record:capture-line',
      weight: 1,
      arbitrary: fc.tuple(fc.uint8Array({ maxLength: 400 }), fc.constantFrom('application/json', 'text/event-stream', 'text/plain')),
      async run(input) {
        const [bytes, type] = input as [Uint8Array, string];
        const record = captureRecord(
          'anthropic',
          { timestamp: 't', method: 'POST', path: '/v1/messages', headers: { 'content-type': type }, body: bytes, bodyError: null },
          { timestamp: 't', status: 200, headers: { 'content-type': type }, body: bytes, bodyError: null, error: null },
        );
        const line = linePieces(record).join('');
        if (!line.endsWith('\n') || line.indexOf('\n') !== line.length - 1) return 'the capture line is not one line';
        const parsed = JSON.parse(line) as { request: Record<string, unknown> };
        const side = parsed.request;
        const back = 'body_base64' in side ? Buffer.from(side['body_base64'] as string, 'base64') : typeof side['body'] === 'string' ? Buffer.from(side['body'], 'utf8') : Buffer.from(JSON.stringify(side['body']), 'utf8');
        if (typeof side['body'] === 'object' ? JSON.stringify(JSON.parse(Buffer.from(bytes).toString('utf8'))) !== back.toString('utf8') : !back.equals(Buffer.from(bytes))) return 'the body does not come back';
        return null;
      },
    },
  ];
}
