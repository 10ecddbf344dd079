// The capture proxy of `ctxray record`: listens on 127.0.0.1 only, forwards each request unchanged (method,
// path, headers, body bytes) to the one provider origin it was meant for, streams the response back unchanged
// chunk by chunk as it arrives, and hands a capture record of every request-body exchange to `onRecord`.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { captureRecord, keptHeaders, KEPT_REQUEST_HEADERS, KEPT_RESPONSE_HEADERS, type CaptureRecord } from './capture.ts';
import { routeRequest, type Provider, type Upstreams } from './route.ts';

/** Bodies above this are forwarded but not written: the input reader skips JSONL lines over 256 MiB anyway. */
export const MAX_RECORDED_BODY = 256 * 1024 * 1024;

/** Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are not forwarded; Host is the upstream's. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** Host names under which the proxy is reached; any other Host is a DNS-rebinding page, refused. */
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?$/i;

export interface ProxyStats {
  /** Exchanges handed to onRecord. */
  recorded: number;
  /** Requests forwarded to a provider without being recorded (model lists, token counts, files, ...). */
  forwardedOnly: number;
  /** Requests answered by the proxy itself and sent nowhere. */
  refused: number;
}

export interface ProxyOptions {
  upstreams: Upstreams;
  onRecord: (record: CaptureRecord) => void;
  /** Clock for record timestamps (tests pin it). */
  now?: () => Date;
}

export interface RecordingProxy {
  readonly server: http.Server;
  readonly port: number;
  readonly stats: ProxyStats;
  /** Stops listening, cuts exchanges still in flight (they are recorded as cut) and waits for every record. */
  close(): Promise<void>;
}

export function startProxy(port: number, options: ProxyOptions): Promise<RecordingProxy> {
  const now = options.now ?? (() => new Date());
  const stats: ProxyStats = { recorded: 0, forwardedOnly: 0, refused: 0 };
  const pending = new Set<Promise<void>>();
  const inFlight = new Set<() => void>();
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  // Records are written in the order their exchanges completed, although building one (undoing a compression)
  // can take longer than the next: each takes a ticket when it completes and waits for the tickets before it.
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
      stats.recorded++;
      options.onRecord(next);
    }
  }

  const server = http.createServer((req, res) => {
    const refusal = refusalOf(req);
    const route = refusal === null ? routeRequest(req.method ?? 'GET', req.url ?? '', req.headers) : null;
    if (route === null) {
      stats.refused++;
      answer(res, 404, refusal ?? 'ctxray record forwards Anthropic requests and OpenAI /v1/ requests; this one names neither provider and was sent nowhere');
      req.resume();
      return;
    }
    if (!route.recorded) stats.forwardedOnly++;
    const exchange = forwardExchange(req, res, route.provider, route.recorded, options.upstreams[route.provider], { now, inFlight, agents, ticket: () => nextTicket++ });
    const written = exchange.then((done) => {
      if (done !== null) deliver(done.ticket, done.record);
    });
    pending.add(written);
    void written.finally(() => pending.delete(written));
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

/** Why a request is refused before routing: a foreign Host (DNS rebinding) or a web page's cross-origin request. */
function refusalOf(req: http.IncomingMessage): string | null {
  const host = req.headers.host ?? '';
  if (!LOOPBACK_HOST.test(host)) return 'ctxray record answers only requests addressed to 127.0.0.1 or localhost';
  const origin = req.headers.origin;
  if (origin !== undefined && !/^https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?$/i.test(origin)) {
    return 'ctxray record does not forward requests from web pages';
  }
  return null;
}

function answer(res: http.ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ type: 'error', error: { type: 'ctxray_record', message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The headers to pass on: all but hop-by-hop ones and those the Connection header names. */
function forwardedHeaders(headers: http.IncomingHttpHeaders | http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  const connection = String(headers['connection'] ?? '').toLowerCase().split(',').map((name) => name.trim());
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || connection.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/** Collects up to MAX_RECORDED_BODY bytes of a body as it streams past. */
class BodyTap {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  overflow = false;

  add(chunk: Buffer): void {
    if (this.overflow) return;
    this.size += chunk.length;
    if (this.size > MAX_RECORDED_BODY) {
      this.overflow = true;
      this.chunks.length = 0;
    } else this.chunks.push(chunk);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const DECODERS: Record<string, (bytes: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify<Buffer, zlib.ZlibOptions, Buffer>(zlib.gunzip),
  'x-gzip': promisify<Buffer, zlib.ZlibOptions, Buffer>(zlib.gunzip),
  deflate: promisify<Buffer, zlib.ZlibOptions, Buffer>(zlib.inflate),
  br: promisify<Buffer, zlib.BrotliOptions, Buffer>(zlib.brotliDecompress),
};

/**
 * The body as the application sent it: each content-encoding undone in reverse order, inflating no further than
 * the record limit. An encoding Node cannot undo (zstd on Node 20) or a broken stream leaves the body unwritten.
 */
async function decodedBody(tap: BodyTap, contentEncoding: string | string[] | undefined): Promise<{ body: Uint8Array | null; error: string | null }> {
  if (tap.overflow) return { body: null, error: `body larger than ${MAX_RECORDED_BODY / 1024 / 1024} MiB; forwarded, not written` };
  let bytes = tap.bytes();
  const encodings = String(contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && name !== 'identity');
  for (const encoding of encodings.reverse()) {
    const decode = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
    if (decode === undefined) return { body: null, error: `content-encoding ${/^[a-z0-9-]{1,20}$/.test(encoding) ? encoding : '(unknown)'} is not decoded; body not written` };
    try {
      bytes = await decode(bytes, { maxOutputLength: MAX_RECORDED_BODY });
    } catch {
      return { body: null, error: `the ${encoding} body could not be decoded (or inflates past ${MAX_RECORDED_BODY / 1024 / 1024} MiB); not written` };
    }
  }
  return { body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), error: null };
}

interface ExchangeContext {
  now: () => Date;
  /** Cuts of the exchanges still in flight, for close(). */
  inFlight: Set<() => void>;
  agents: { http: http.Agent; https: https.Agent };
  /** The next place in the capture's order, taken by a recorded exchange when it completes. */
  ticket: () => number;
}

/**
 * Forwards one request and streams its response back; resolves with its record and its place in the capture
 * (null when it is not recorded).
 */
function forwardExchange(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  provider: Provider,
  recorded: boolean,
  upstream: URL,
  { now, inFlight, agents, ticket }: ExchangeContext,
): Promise<{ ticket: number; record: CaptureRecord | null } | null> {
  const requestTime = now().toISOString();
  const requestTap = new BodyTap();
  const responseTap = new BodyTap();
  const secure = upstream.protocol === 'https:';
  const upstreamRequest = (secure ? https : http).request({
    protocol: upstream.protocol,
    hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
    port: upstream.port === '' ? undefined : Number(upstream.port),
    method: req.method,
    path: req.url,
    headers: forwardedHeaders(req.headers),
    agent: secure ? agents.https : agents.http,
  });
  if (recorded) req.on('data', (chunk: Buffer) => requestTap.add(chunk));
  req.pipe(upstreamRequest);

  return new Promise((resolve) => {
    let upstreamResponse: http.IncomingMessage | null = null;
    let responseTime: string | null = null;
    let settled = false;
    const cut = () => finish('recording stopped before the response ended');
    inFlight.add(cut);

    function finish(error: string | null): void {
      if (settled) return;
      settled = true;
      inFlight.delete(cut);
      if (error !== null) {
        upstreamRequest.destroy();
        if (!res.headersSent) answer(res, 502, `ctxray record: ${error}`);
        else res.destroy();
      }
      if (!recorded) {
        resolve(null);
        return;
      }
      const place = ticket();
      // Building guards every field it reads; should it still fail, the place is given up, not held forever.
      build(error).then(
        (record) => resolve({ ticket: place, record }),
        () => resolve({ ticket: place, record: null }),
      );
    }

    async function build(error: string | null): Promise<CaptureRecord> {
      const request = await decodedBody(requestTap, req.headers['content-encoding']);
      const responseHeaders = upstreamResponse?.headers ?? {};
      const response = upstreamResponse === null ? { body: null, error: null } : await decodedBody(responseTap, responseHeaders['content-encoding']);
      return captureRecord(
        provider,
        { timestamp: requestTime, method: req.method ?? 'POST', path: req.url ?? '', headers: keptHeaders(req.headers, KEPT_REQUEST_HEADERS), body: request.body, bodyError: request.error },
        {
          timestamp: responseTime ?? now().toISOString(),
          status: upstreamResponse?.statusCode ?? null,
          headers: keptHeaders(responseHeaders, KEPT_RESPONSE_HEADERS),
          body: upstreamResponse === null ? null : response.body,
          bodyError: response.error,
          error,
        },
      );
    }

    upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
      finish(upstreamResponse === null ? `the upstream could not be reached (${error.code ?? 'error'})` : `the upstream connection failed mid-response (${error.code ?? 'error'})`);
    });
    upstreamRequest.on('response', (response) => {
      upstreamResponse = response;
      responseTime = now().toISOString();
      res.writeHead(response.statusCode ?? 502, response.statusMessage, forwardedHeaders(response.headers));
      // Headers go out at once: an event stream's first byte may be seconds away.
      res.flushHeaders();
      if (recorded) response.on('data', (chunk: Buffer) => responseTap.add(chunk));
      response.pipe(res);
      response.on('end', () => finish(null));
      response.on('close', () => {
        if (!response.complete) finish('the upstream closed the connection mid-response');
      });
    });
    res.on('close', () => {
      if (!res.writableFinished) finish('the client closed the connection before the response ended');
    });
  });
}
