// The proxy in-process: where it listens, what it refuses, what it records when the upstream fails, and the
// pure pieces (routing, upstream origins, header allowlist, query redaction, arguments). SYNTHETIC data only.
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RecordingProxy } from '../../src/cli/record/proxy.ts';
import { keptHeaders, KEPT_REQUEST_HEADERS, redactedPath } from '../../src/cli/record/capture.ts';
import { parseUpstream, routeRequest } from '../../src/cli/record/route.ts';
import type { CaptureRecord } from '../../src/cli/record/capture.ts';
import { childEnvironment, defaultCaptureName, overriddenBaseUrls, parseRecordArgs, RecordUsageError } from '../../src/cli/commands/record.ts';
import { ANTHROPIC_JSON, startFakeUpstream, type FakeUpstream } from './fake-upstream.ts';

describe('routing', () => {
  it.each([
    ['POST', '/v1/messages', {}, { provider: 'anthropic', recorded: true }],
    ['POST', '/v1/messages?beta=true', { 'anthropic-version': '2023-06-01' }, { provider: 'anthropic', recorded: true }],
    ['POST', '/v1/messages/count_tokens', {}, { provider: 'anthropic', recorded: false }],
    ['GET', '/v1/models', { 'anthropic-version': '2023-06-01' }, { provider: 'anthropic', recorded: false }],
    ['GET', '/v1/models', { 'x-api-key': 'k' }, { provider: 'anthropic', recorded: false }],
    ['GET', '/v1/models', { authorization: 'Bearer k' }, { provider: 'openai', recorded: false }],
    ['POST', '/v1/chat/completions', {}, { provider: 'openai', recorded: true }],
    ['POST', '/v1/responses', {}, { provider: 'openai', recorded: true }],
    ['GET', '/v1/responses', {}, { provider: 'openai', recorded: false }],
    ['POST', '/v1/responses/resp_1/cancel', {}, { provider: 'openai', recorded: false }],
    // An Anthropic key is never sent to OpenAI, whatever the path.
    ['POST', '/v1/chat/completions', { 'x-api-key': 'k' }, { provider: 'anthropic', recorded: false }],
  ] as const)('%s %s %j → %j', (method, target, headers, expected) => {
    expect(routeRequest(method, target, headers)).toEqual(expected);
  });

  it('sends a request with Anthropic headers to Anthropic whatever its path, and records only Messages', () => {
    expect(routeRequest('POST', '/api/event_logging/batch', { 'anthropic-version': '2023-06-01' })).toEqual({ provider: 'anthropic', recorded: false });
  });

  it.each(['/', '/messages', '/v2/messages', '/api/v1/messages', 'http://example.com/v1/messages', '//example.com/v1/messages', 'example.com:443', '/v1'])(
    '%s with no provider header names no provider',
    (target) => {
      expect(routeRequest('POST', target, { authorization: 'Bearer k' })).toBeNull();
    },
  );

  it('takes no absolute-form target even with Anthropic headers', () => {
    expect(routeRequest('POST', 'http://example.com/v1/messages', { 'anthropic-version': '2023-06-01' })).toBeNull();
  });

  it('takes an upstream only as an http(s) origin', () => {
    expect(String(parseUpstream('--upstream-anthropic', 'https://gateway.example:8443'))).toBe('https://gateway.example:8443/');
    expect(String(parseUpstream('--upstream-openai', 'http://127.0.0.1:9/'))).toBe('http://127.0.0.1:9/');
    expect(parseUpstream('--upstream-openai', 'https://api.openai.com/v1')).toContain('without a path');
    expect(parseUpstream('--upstream-openai', 'https://api.openai.com?x=1')).toContain('without a path');
    expect(parseUpstream('--upstream-openai', 'ftp://api.openai.com')).toContain('http:// or https://');
    expect(parseUpstream('--upstream-openai', 'https://user:pw@api.openai.com')).toContain('user name or password');
    expect(parseUpstream('--upstream-openai', 'api.openai.com')).toContain('must be an http:// or https:// origin');
  });
});

describe('what the capture keeps of a request', () => {
  it('keeps only allowlisted headers, never a credential', () => {
    const headers = { 'x-api-key': 'sk-1', authorization: 'Bearer sk-2', cookie: 'c=3', 'anthropic-version': '2023-06-01', 'anthropic-beta': ['a', 'b'], 'content-type': 'application/json', 'user-agent': 'agent/1.0' };
    expect(keptHeaders(headers, KEPT_REQUEST_HEADERS)).toEqual({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'a, b', 'content-type': 'application/json' });
    // Even an allowlist edited to name a secret-looking header keeps it out.
    expect(keptHeaders(headers, ['x-api-key', 'authorization', 'cookie'])).toEqual({});
  });

  it('redacts every query parameter value but the harmless ones (beta, api-version, limit, order, stream)', () => {
    expect(redactedPath('/v1/messages?beta=true')).toBe('/v1/messages?beta=true');
    expect(redactedPath('/v1/chat/completions?api-version=2024-10-21&api_key=sk-1&Token=t&sig=s&x=1')).toBe(
      '/v1/chat/completions?api-version=2024-10-21&api_key=[redacted]&Token=[redacted]&sig=[redacted]&x=[redacted]',
    );
    // Names no list of secret words would catch, and `;` as a separator.
    expect(redactedPath('/v1/models?pass=p1&pwd=p2&jwt=e.y.J&bearer=b&code=c0de;key=k3y')).toBe('/v1/models?pass=[redacted]&pwd=[redacted]&jwt=[redacted]&bearer=[redacted]&code=[redacted];key=[redacted]');
    // A harmless name with a value it never takes is redacted too; a bare name has no value to leak.
    expect(redactedPath('/v1/messages?beta=sk-ant-1&limit=ten&verbose')).toBe('/v1/messages?beta=[redacted]&limit=[redacted]&verbose');
    expect(redactedPath('/v1/responses?%61uth=s3cret')).toBe('/v1/responses?%61uth=[redacted]');
    expect(redactedPath('/v1/models')).toBe('/v1/models');
  });
});

describe('arguments', () => {
  it('reads options in both spellings and the command after --', () => {
    const args = parseRecordArgs(['--out=c.jsonl', '--port', '8123', '--upstream-anthropic', 'http://127.0.0.1:1', '--', 'claude', '--print', 'hi']);
    expect(args).toMatchObject({ out: 'c.jsonl', port: 8123, command: ['claude', '--print', 'hi'] });
    expect(args !== 'help' && String(args.upstreams.anthropic)).toBe('http://127.0.0.1:1/');
    expect(args !== 'help' && String(args.upstreams.openai)).toBe('https://api.openai.com/');
    expect(parseRecordArgs(['--help'])).toBe('help');
    expect(parseRecordArgs([])).toMatchObject({ out: null, port: 0, command: [] });
  });

  it.each([
    [['--port', '70000'], '--port must be a whole number'],
    [['--port', '-1'], '--port must be a whole number'],
    [['--port', '1.5'], '--port must be a whole number'],
    [['--out'], '--out needs a value'],
    [['--out', 'a', '--out', 'b'], '--out given twice'],
    [['--bogus'], 'unknown option --bogus'],
    [['claude'], 'goes after --'],
    [['--'], '-- needs a command'],
    [['--out', '-'], 'standard output belongs to the command'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseRecordArgs(argv)).toThrow(RecordUsageError);
    expect(() => parseRecordArgs(argv)).toThrow(message);
  });

  it('notes a base URL the shell had set, without printing it, unless that upstream was given', () => {
    const args = parseRecordArgs(['--upstream-openai', 'http://127.0.0.1:9']);
    if (args === 'help') throw new Error('unexpected help');
    const notes = overriddenBaseUrls({ ANTHROPIC_BASE_URL: 'https://user:tok3n@gateway.example', OPENAI_BASE_URL: 'https://other.example/v1' }, args);
    expect(notes).toEqual(['ANTHROPIC_BASE_URL was set in this shell; Anthropic requests now go to https://api.anthropic.com (give --upstream-anthropic <origin> to keep a gateway)']);
    expect(overriddenBaseUrls({ ANTHROPIC_BASE_URL: '' }, args)).toEqual([]);
  });

  it('names the default capture by the UTC second, and points the child at the proxy', () => {
    expect(defaultCaptureName(new Date('2026-12-01T09:45:12.345Z'))).toBe('ctxray-record-20261201-094512.jsonl.gz');
    const env = childEnvironment({ PATH: '/bin', ANTHROPIC_BASE_URL: 'https://elsewhere', NO_PROXY: 'corp.example', UNSET: undefined }, 4318);
    expect(env).toEqual({
      PATH: '/bin',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4318',
      OPENAI_BASE_URL: 'http://127.0.0.1:4318/v1',
      NO_PROXY: 'corp.example,127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
    });
  });
});

/** One request straight to the proxy; resolves with status and body text. */
function request(port: number, target: string, headers: http.OutgoingHttpHeaders, body?: string, host?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, method: body === undefined ? 'GET' : 'POST', headers: host === undefined ? headers : { ...headers, host }, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Waits (bounded) until `count` records have been handed over: a record is built after its response ends. */
async function recordsReach(records: readonly unknown[], count: number): Promise<void> {
  for (let tries = 0; tries < 500 && records.length < count; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(records.length).toBe(count);
}

const MESSAGES_BODY = JSON.stringify({ model: 'claude-sonnet-4-5-20250929', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });

describe('the proxy', () => {
  let upstream: FakeUpstream;
  let proxy: RecordingProxy;
  const records: CaptureRecord[] = [];
  let closedPort: number;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // A port nothing listens on: bound, read, released.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    proxy = await startProxy(0, {
      upstreams: { anthropic: new URL(upstream.origin), openai: new URL(`http://127.0.0.1:${closedPort}`) },
      onRecord: (record) => records.push(record),
      now: () => new Date('2026-12-01T10:00:00.000Z'),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('listens on 127.0.0.1 only', async () => {
    expect(proxy.server.address()).toEqual({ address: '127.0.0.1', family: 'IPv4', port: proxy.port });
    const tryConnect = (host: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect({ host, port: proxy.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
    expect(await tryConnect('127.0.0.1')).toBe('connected');
    // Another loopback address and every non-loopback address of this machine are refused.
    const others = ['127.0.0.2', ...Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).filter((i) => !i.internal && i.family === 'IPv4').map((i) => i.address))];
    for (const host of others) expect(await tryConnect(host), host).toBe('ECONNREFUSED');
    // IPv6 loopback: refused, or not there at all.
    expect(await tryConnect('::1')).not.toBe('connected');
  });

  it('answers a request that names no provider itself, contacting nothing', async () => {
    const before = upstream.received.length;
    const refused = await request(proxy.port, '/health', {});
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.text)).toMatchObject({ type: 'error', error: { type: 'ctxray_record' } });
    expect(upstream.received.length).toBe(before);
  });

  it('refuses with 403, before routing, a foreign Host, any Origin and anything a browser labels', async () => {
    const before = upstream.received.length;
    const refusedBefore = proxy.stats.refusedBrowser;
    const json = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
    const cases: [Record<string, string>, string | undefined][] = [
      [json, 'attacker.example'],
      [json, `127.0.0.1:${proxy.port + 1}`],
      [json, '127.0.0.1'],
      [{ ...json, origin: 'https://attacker.example' }, undefined],
      // A page on localhost at another port is a web page too.
      [{ ...json, origin: 'http://localhost:3000' }, undefined],
      // <img> and no-cors fetch: no Origin, only the fetch metadata.
      [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }, undefined],
      // A navigation typed or followed: Sec-Fetch-Site none, but a document destination.
      [{ 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-user': '?1' }, undefined],
      [{ ...json, 'sec-fetch-mode': 'navigate' }, undefined],
    ];
    for (const [headers, host] of cases) {
      const refused = await request(proxy.port, '/v1/messages', headers, MESSAGES_BODY, host);
      expect(refused.status, JSON.stringify({ headers, host })).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({ type: 'error', error: { type: 'ctxray_record' } });
    }
    expect(upstream.received.length).toBe(before);
    expect(proxy.stats.refusedBrowser - refusedBefore).toBe(cases.length);
    // What Node's fetch sends (the SDKs' transport): Sec-Fetch-Mode cors alone, and `localhost` with the port.
    expect((await request(proxy.port, '/v1/messages', { ...json, 'sec-fetch-mode': 'cors' }, MESSAGES_BODY)).status).toBe(200);
    expect((await request(proxy.port, '/v1/messages', json, MESSAGES_BODY, `localhost:${proxy.port}`)).status).toBe(200);
  });

  it('answers 502 when the upstream cannot be reached, and records the exchange with no status', async () => {
    const before = records.length;
    const failed = await request(proxy.port, '/v1/chat/completions', { 'content-type': 'application/json', authorization: 'Bearer sk-x' }, '{"model":"gpt-4o","messages":[]}');
    expect(failed.status).toBe(502);
    expect(failed.text).toContain('ECONNREFUSED');
    await recordsReach(records, before + 1);
    const record = records[before]!;
    expect(record.response).toEqual({ timestamp: '2026-12-01T10:00:00.000Z', status: null, headers: {}, error: 'the upstream could not be reached (ECONNREFUSED)', anomaly: 'unreachable' });
    expect(record.request['body']).toEqual({ model: 'gpt-4o', messages: [] });
    expect(record.usage).toBeNull();
  });

  it('forwards concurrent exchanges independently and records each one', async () => {
    const before = records.length;
    const bodies = Array.from({ length: 8 }, (_, i) => JSON.stringify({ model: 'claude-sonnet-4-5-20250929', max_tokens: 8, stream: i % 2 === 0, messages: [{ role: 'user', content: `request ${i}` }] }));
    const answers = await Promise.all(bodies.map((body) => request(proxy.port, '/v1/messages', { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    await recordsReach(records, before + 8);
    const written = records.slice(before);
    expect(written.map((r) => (r.request['body'] as { messages: { content: string }[] }).messages[0]!.content).sort()).toEqual(bodies.map((_, i) => `request ${i}`).sort());
    for (const record of written) expect(record.usage).not.toBeNull();
  });

  it('records a body that is not JSON as text, and bytes that are not UTF-8 as base64', async () => {
    const before = records.length;
    await request(proxy.port, '/v1/messages', { 'content-type': 'text/plain' }, 'not json {');
    await new Promise<void>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: proxy.port, path: '/v1/messages', method: 'POST', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end(Buffer.from([0xff, 0xfe, 0x00]));
    });
    await recordsReach(records, before + 2);
    expect(records[before]!.request['body']).toBe('not json {');
    expect(records[before + 1]!.request['body_base64']).toBe('//4A');
    // The fake upstream answered JSON with usage both times.
    expect(records[before]!.usage).toEqual(ANTHROPIC_JSON.usage);
  });
});

describe('compressed responses', () => {
  it('writes a brotli or deflate body decoded, forwards bytes it cannot decode (zstd) without writing them', async () => {
    const json = Buffer.from(JSON.stringify({ id: 'resp_c', usage: { input_tokens: 40, output_tokens: 2 } }));
    const encoded: Record<string, Buffer> = { br: zlib.brotliCompressSync(json), deflate: zlib.deflateSync(json), zstd: Buffer.from('not really zstd') };
    const server = http.createServer((req, res) => {
      req.resume();
      const encoding = (req.url ?? '').split('=')[1] ?? '';
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(encoded[encoding]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    const written: CaptureRecord[] = [];
    const proxy = await startProxy(0, { upstreams: { anthropic: origin, openai: origin }, onRecord: (record) => written.push(record) });
    try {
      for (const encoding of ['br', 'deflate', 'zstd']) {
        const got = await new Promise<Buffer>((resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port: proxy.port, path: `/v1/responses?enc=${encoding}`, method: 'POST', headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve(Buffer.concat(chunks)));
          });
          req.on('error', reject);
          req.end('{"model":"gpt-5","input":"hi"}');
        });
        // The client gets the compressed bytes as sent.
        expect(got.equals(encoded[encoding]!)).toBe(true);
      }
      await recordsReach(written, 3);
      expect(written.map((r) => r.usage)).toEqual([{ input_tokens: 40, output_tokens: 2 }, { input_tokens: 40, output_tokens: 2 }, null]);
      expect(written[0]!.response['body']).toEqual(JSON.parse(json.toString('utf8')));
      expect(written[2]!.response['body_error']).toBe('content-encoding zstd is not decoded; body not written');
      expect(written[2]!.response).not.toHaveProperty('body');
    } finally {
      await proxy.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
