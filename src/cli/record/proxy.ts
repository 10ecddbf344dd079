// The capture proxy of `ctxray record`: listens on 127.0.0.1 only, refuses anything a browser sends, forwards
// each other request unchanged to the one provider origin it was meant for (exchange.ts), and hands a capture
// record of every request-body exchange to `onRecord`, in the order the exchanges completed.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { MAX_RECORDED_BODY } from './body.ts';
import type { CaptureRecord } from './capture.ts';
import { answer, DEFAULT_UPSTREAM_TIMEOUT_MS, forwardExchange } from './exchange.ts';
import { routeRequest, type Upstreams } from './route.ts';

export interface ProxyStats {
  /** Exchanges handed to onRecord. */
  recorded: number;
  /** Requests forwarded to a provider without being recorded (model lists, token counts, files, ...). */
  forwardedOnly: number;
  /** Requests answered by the proxy itself and sent nowhere because they name no provider (404). */
  refused: number;
  /** Requests refused as coming from a web browser or addressed to another host (403), sent nowhere. */
  refusedBrowser: number;
  /** Exchanges whose record could not be written (onRecord threw); the agent still got its response. */
  unwritten: number;
}

export interface ProxyOptions {
  upstreams: Upstreams;
  onRecord: (record: CaptureRecord) => void;
  /** Clock for record timestamps (tests pin it). */
  now?: () => Date;
  /** Upstream silence after which an exchange fails with 504 (default 10 minutes). */
  upstreamTimeoutMs?: number;
  /** Largest body written (default 256 MiB); tests lower it. */
  maxBody?: number;
}

export interface RecordingProxy {
  readonly server: http.Server;
  readonly port: number;
  readonly stats: ProxyStats;
  /** Stops listening, cuts exchanges still in flight (they are recorded as cut) and waits for every record. */
  close(): Promise<void>;
}

/**
 * Whether a request comes from a web page or a browser, or is addressed to a name other than the proxy's own.
 * Browsers label every request to 127.0.0.1 with Sec-Fetch-Site, -Mode and -Dest; Node's fetch (the SDKs'
 * transport) sends only `Sec-Fetch-Mode: cors`, so that one header alone is let through.
 */
export function browserRefusal(headers: http.IncomingHttpHeaders, port: number): string | null {
  const host = String(headers.host ?? '').toLowerCase();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return `ctxray record answers only requests addressed to 127.0.0.1:${port}`;
  if (headers.origin !== undefined) return 'ctxray record does not forward requests that carry an Origin (web pages)';
  for (const [name, value] of Object.entries(headers)) {
    if (!name.startsWith('sec-fetch-')) continue;
    const fromNodeFetch = name === 'sec-fetch-mode' && value === 'cors';
    if (!fromNodeFetch && !(name === 'sec-fetch-site' && value === 'none')) return 'ctxray record does not forward requests made by a web browser';
  }
  return null;
}

/**
 * Records are written in the order their exchanges completed, although building one (undoing a compression)
 * can take longer than the next: each takes a ticket when it completes and waits for the tickets before it.
 */
function orderedWriter(onRecord: ProxyOptions['onRecord'], stats: ProxyStats): { ticket: () => number; deliver: (ticket: number, record: CaptureRecord | null) => void } {
  let nextTicket = 0;
  let nextToWrite = 0;
  const built = new Map<number, CaptureRecord | null>();
  /** Takes a built record (null: it could not be built) and writes every record whose turn has come. */
  function deliver(ticket: number, record: CaptureRecord | null): void {
    built.set(ticket, record);
    while (built.has(nextToWrite)) {
      const next = built.get(nextToWrite);
      built.delete(nextToWrite++);
      if (next === null || next === undefined) continue;
      try {
        onRecord(next);
        stats.recorded++;
      } catch {
        stats.unwritten++;
      }
    }
  }
  return { ticket: () => nextTicket++, deliver };
}

export function startProxy(port: number, options: ProxyOptions): Promise<RecordingProxy> {
  const now = options.now ?? (() => new Date());
  const stats: ProxyStats = { recorded: 0, forwardedOnly: 0, refused: 0, refusedBrowser: 0, unwritten: 0 };
  const pending = new Set<Promise<void>>();
  const inFlight = new Set<() => void>();
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  let listeningPort = port;

  const writer = orderedWriter(options.onRecord, stats);

  const context = {
    now,
    inFlight,
    agents,
    ticket: writer.ticket,
    timeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    maxBody: options.maxBody ?? MAX_RECORDED_BODY,
  };

  function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const browser = browserRefusal(req.headers, listeningPort);
    if (browser !== null) {
      stats.refusedBrowser++;
      answer(res, 403, browser);
      req.resume();
      return;
    }
    const route = routeRequest(req.method ?? 'GET', req.url ?? '', req.headers);
    if (route === null) {
      stats.refused++;
      answer(res, 404, 'ctxray record forwards Anthropic requests and OpenAI /v1/ requests; this one names neither provider and was sent nowhere');
      req.resume();
      return;
    }
    if (!route.recorded) stats.forwardedOnly++;
    const exchange = forwardExchange(req, res, { ...route, upstream: options.upstreams[route.provider] }, context);
    const written = exchange.then((done) => {
      if (done !== null) writer.deliver(done.ticket, done.record);
    });
    pending.add(written);
    void written.finally(() => pending.delete(written));
  }

  const server = http.createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      // A request the proxy cannot take (it should not happen) costs that request, never the recording.
      answer(res, 502, 'ctxray record could not forward this request');
    }
  });

  // Agent SDKs keep connections open between turns; a 5 s idle limit would only cost reconnects.
  server.keepAliveTimeout = 60_000;
  // Codex can open WebSocket upgrades; they are not proxied (it falls back to HTTP).
  server.on('upgrade', (_req, socket) => socket.destroy());

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      listeningPort = address.port;
      resolve({
        server,
        port: address.port,
        stats,
        close: async () => {
          const closed = new Promise<void>((done) => server.close(() => done()));
          for (const cut of [...inFlight]) cut();
          server.closeAllConnections();
          await Promise.allSettled([...pending]);
          await closed;
          agents.http.destroy();
          agents.https.destroy();
        },
      });
    });
  });
}
