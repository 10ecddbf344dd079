// One exchange through `ctxray record`: the request forwarded unchanged to its provider, the response streamed
// back chunk by chunk, and its capture record built once it is over. Whatever the upstream does — a status no
// HTTP client may send on, a reason phrase with control bytes, a 101 to a plain request, a reset, silence past
// the timeout, a recorded stream past the size cap — the agent gets a 502 or 504 (or, mid-stream, a cut
// connection) and the record names the anomaly; nothing here throws out of the proxy.
import http from 'node:http';
import https from 'node:https';
import { BodyTap, decodedBody } from './body.ts';
import { captureRecord, keptHeaders, KEPT_REQUEST_HEADERS, KEPT_RESPONSE_HEADERS, type CaptureRecord } from './capture.ts';
import type { Provider } from './route.ts';

/** Why an exchange did not complete, as written in the record's `response.anomaly` (docs/recording.md). */
export type Anomaly =
  | 'unreachable'
  | 'reset'
  | 'bad_status'
  | 'bad_reason_phrase'
  | 'bad_headers'
  | 'switching_protocols'
  | 'timeout'
  | 'size_cap'
  | 'client_closed'
  | 'stopped';

export interface Failure {
  anomaly: Anomaly;
  message: string;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are not forwarded; Host is the upstream's. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);
/** Never forwarded: a cookie of any other app on 127.0.0.1 (cookies ignore ports) must not reach a provider. */
const NEVER_FORWARDED = new Set(['cookie', 'cookie2']);
/** A reason phrase as RFC 9112 §4 allows it: tab, space, visible ASCII and obs-text. */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The default silence after which an upstream is given up: Claude Code's own request timeout is 10 minutes. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 600_000;

export interface ExchangeContext {
  now: () => Date;
  /** Cuts of the exchanges still in flight, for close(). */
  inFlight: Set<() => void>;
  agents: { http: http.Agent; https: https.Agent };
  /** The next place in the capture's order, taken by a recorded exchange when it completes. */
  ticket: () => number;
  /** Silence from the upstream (before the headers or between chunks) after which the exchange fails. */
  timeoutMs: number;
  /** Largest body written; a recorded response past it is cut. */
  maxBody: number;
}

export interface ExchangeRoute {
  provider: Provider;
  recorded: boolean;
  upstream: URL;
}

/** The headers to pass on: all but hop-by-hop ones, cookies and those the Connection header names. */
export function forwardedHeaders(headers: http.IncomingHttpHeaders | http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  const connection = String(headers['connection'] ?? '').toLowerCase().split(',').map((name) => name.trim());
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || NEVER_FORWARDED.has(name) || connection.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/** A JSON error the proxy answers itself; never throws (the client may already be gone). */
export function answer(res: http.ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ type: 'error', error: { type: 'ctxray_record', message } });
  try {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  } catch {
    res.destroy();
  }
}

/** What is wrong with an upstream's status line, if anything: a final status must be 200–599 (1xx are interim). */
function statusLineFailure(response: http.IncomingMessage): Failure | null {
  const status = response.statusCode ?? 0;
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    return { anomaly: 'bad_status', message: `the upstream answered with status ${Number.isInteger(status) ? status : '(none)'}, which is not a final HTTP status` };
  }
  if (!REASON_PHRASE.test(response.statusMessage ?? '')) return { anomaly: 'bad_reason_phrase', message: 'the upstream status line holds control characters' };
  return null;
}

/** The request to the upstream, not yet sent (the client's body is piped into it). */
function openUpstream(req: http.IncomingMessage, upstream: URL, agents: ExchangeContext['agents']): http.ClientRequest {
  const secure = upstream.protocol === 'https:';
  return (secure ? https : http).request({
    protocol: upstream.protocol,
    hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
    port: upstream.port === '' ? undefined : Number(upstream.port),
    method: req.method,
    path: req.url,
    headers: forwardedHeaders(req.headers),
    agent: secure ? agents.https : agents.http,
  });
}

interface ExchangeSeen {
  provider: Provider;
  req: http.IncomingMessage;
  requestTime: string;
  upstreamResponse: http.IncomingMessage | null;
  /** When the response's headers came; null when none came (then the time the record is built). */
  responseTime: string | null;
  now: () => Date;
  maxBody: number;
}

/** The record of an exchange once it ended (`taps.response` is null when no response was forwarded). */
async function buildRecord(seen: ExchangeSeen, taps: { request: BodyTap; response: BodyTap | null }, failure: Failure | null): Promise<CaptureRecord> {
  const { req, upstreamResponse, maxBody } = seen;
  const request = await decodedBody(taps.request, req.headers['content-encoding'], maxBody);
  const responseHeaders = upstreamResponse?.headers ?? {};
  const response = taps.response !== null ? await decodedBody(taps.response, responseHeaders['content-encoding'], maxBody) : { body: null, error: null };
  return captureRecord(
    seen.provider,
    { timestamp: seen.requestTime, method: req.method ?? 'POST', path: req.url ?? '', headers: keptHeaders(req.headers, KEPT_REQUEST_HEADERS), body: request.body, bodyError: request.error },
    {
      timestamp: seen.responseTime ?? seen.now().toISOString(),
      status: upstreamResponse?.statusCode ?? null,
      headers: keptHeaders(responseHeaders, KEPT_RESPONSE_HEADERS),
      body: taps.response !== null ? response.body : null,
      bodyError: response.error,
      error: failure?.message ?? null,
      anomaly: failure?.anomaly ?? null,
    },
  );
}

/**
 * Forwards one request and streams its response back; resolves with its record and its place in the capture
 * (null when it is not recorded).
 */
export function forwardExchange(req: http.IncomingMessage, res: http.ServerResponse, route: ExchangeRoute, context: ExchangeContext): Promise<{ ticket: number; record: CaptureRecord | null } | null> {
  const { now, inFlight, agents, ticket, timeoutMs, maxBody } = context;
  const { provider, recorded, upstream } = route;
  const requestTime = now().toISOString();
  const requestTap = new BodyTap(maxBody);
  const responseTap = new BodyTap(maxBody);
  const upstreamRequest = openUpstream(req, upstream, agents);
  if (recorded) req.on('data', (chunk: Buffer) => requestTap.add(chunk));
  req.pipe(upstreamRequest);

  return new Promise((resolve) => {
    let upstreamResponse: http.IncomingMessage | null = null;
    let responseTime: string | null = null;
    let forwarding = false;
    let settled = false;
    const cut = () => finish({ anomaly: 'stopped', message: 'recording stopped before the response ended' });
    inFlight.add(cut);

    function finish(failure: Failure | null): void {
      if (settled) return;
      settled = true;
      inFlight.delete(cut);
      upstreamRequest.setTimeout(0);
      if (failure !== null) {
        upstreamRequest.destroy();
        upstreamResponse?.destroy();
        if (!res.headersSent) answer(res, failure.anomaly === 'timeout' ? 504 : 502, `ctxray record: ${failure.message}`);
        else res.destroy();
      }
      if (!recorded) {
        resolve(null);
        return;
      }
      const place = ticket();
      // Building guards every field it reads; should it still fail, the place is given up, not held forever.
      const taps = { request: requestTap, response: forwarding ? responseTap : null };
      buildRecord({ provider, req, requestTime, upstreamResponse, responseTime, now, maxBody }, taps, failure).then(
        (record) => resolve({ ticket: place, record }),
        () => resolve({ ticket: place, record: null }),
      );
    }

    upstreamRequest.setTimeout(timeoutMs, () => finish({ anomaly: 'timeout', message: `the upstream sent nothing for ${Math.round(timeoutMs / 1000)} s` }));
    upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? 'error';
      finish(upstreamResponse === null ? { anomaly: 'unreachable', message: `the upstream could not be reached (${code})` } : { anomaly: 'reset', message: `the upstream connection failed mid-response (${code})` });
    });
    // A 101 to a request that asked for no upgrade: nothing can be forwarded on that socket.
    upstreamRequest.on('upgrade', (_response, socket) => {
      socket.destroy();
      finish({ anomaly: 'switching_protocols', message: 'the upstream answered 101 Switching Protocols to a plain request' });
    });
    upstreamRequest.on('response', (response) => {
      upstreamResponse = response;
      responseTime = now().toISOString();
      const failure = statusLineFailure(response);
      if (failure !== null) return finish(failure);
      try {
        res.writeHead(response.statusCode as number, response.statusMessage, forwardedHeaders(response.headers));
        // Headers go out at once: an event stream's first byte may be seconds away.
        res.flushHeaders();
      } catch {
        return finish({ anomaly: 'bad_headers', message: 'the upstream sent response headers that cannot be passed on' });
      }
      forwarding = true;
      if (recorded) {
        response.on('data', (chunk: Buffer) => {
          if (!responseTap.add(chunk)) finish({ anomaly: 'size_cap', message: `the response passed the ${maxBody / 1024 / 1024} MiB record limit and was cut` });
        });
      }
      response.pipe(res);
      response.on('end', () => finish(null));
      response.on('close', () => {
        if (!response.complete) finish({ anomaly: 'reset', message: 'the upstream closed the connection mid-response' });
      });
    });
    res.on('close', () => {
      if (!res.writableFinished) finish({ anomaly: 'client_closed', message: 'the client closed the connection before the response ended' });
    });
  });
}

