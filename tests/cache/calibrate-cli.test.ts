// `--calibrate`'s network call and the CLI flag, against a local HTTP server on 127.0.0.1 only (synthetic requests).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANTHROPIC_VERSION,
  CalibrationError,
  calibrateWithCountTokens,
  countTokens,
  countTokensTarget,
} from '../../src/node/calibrate.ts';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { buildRequests } from './anthropic-builders.ts';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: unknown;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
/** What the server answers next: status and raw body. */
let reply: { status: number; body: string } = { status: 200, body: '{"input_tokens":1300}' };

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const env = () => ({ ANTHROPIC_API_KEY: 'test-key-not-real', ANTHROPIC_BASE_URL: `${baseUrl}/` });

describe('calibrate with count_tokens (local server)', () => {
  const built = buildRequests([
    { blocks: [{ id: '{"type":"text","text":"short"}', tokens: 100 }] },
    { blocks: [{ id: '{"type":"text","text":"long"}', tokens: 900 }], overhead: 100 },
    { blocks: [{ id: '{"type":"text","text":"openai"}', tokens: 5000 }], format: 'openai-chat', model: 'gpt-4o' },
  ]);

  it('posts the largest Claude request with the documented headers and returns exact ÷ estimate', async () => {
    reply = { status: 200, body: '{"input_tokens":1300}' };
    seen.length = 0;
    const result = await calibrateWithCountTokens(built.requests, built.segmentTokens, built.overheadTokens, env());
    expect(result).toEqual({
      calibration: { factor: 1.3, source: 'count-tokens', requests: 1 },
      requestIndex: 1,
      exact: 1300,
      estimated: 1000,
    });
    expect(seen).toHaveLength(1);
    const request = seen[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/messages/count_tokens');
    expect(request.headers['x-api-key']).toBe('test-key-not-real');
    expect(request.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(request.body).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'long' }] }],
    });
  });

  it('reports an HTTP error with its status and error type, not the message', async () => {
    reply = { status: 401, body: '{"type":"error","error":{"type":"authentication_error","message":"secret detail"}}' };
    const failure = countTokens({ model: 'm', messages: [] }, countTokensTarget(env()));
    await expect(failure).rejects.toThrow(CalibrationError);
    await expect(countTokens({ model: 'm', messages: [] }, countTokensTarget(env()))).rejects.toThrow(
      /^count_tokens answered HTTP 401 \(authentication_error\)$/,
    );
  });

  it('rejects answers that are not JSON or carry no positive count', async () => {
    reply = { status: 200, body: 'not json' };
    await expect(countTokens({}, countTokensTarget(env()))).rejects.toThrow(/not JSON/);
    reply = { status: 200, body: '{"input_tokens":0}' };
    await expect(countTokens({}, countTokensTarget(env()))).rejects.toThrow(/no positive integer input_tokens/);
  });

  it('needs a key, and a Claude request with a model', async () => {
    expect(() => countTokensTarget({})).toThrow(/ANTHROPIC_API_KEY/);
    expect(countTokensTarget({ ANTHROPIC_API_KEY: 'k' }).baseUrl).toBe('https://api.anthropic.com');
    const openaiOnly = buildRequests([{ blocks: [{ id: '"x"', tokens: 5 }], format: 'openai-chat', model: 'gpt-4o' }]);
    await expect(
      calibrateWithCountTokens(openaiOnly.requests, openaiOnly.segmentTokens, openaiOnly.overheadTokens, env()),
    ).rejects.toThrow(/no Claude request/);
  });

  it('reports a server that cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const target = countTokensTarget({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` });
    await expect(countTokens({}, target)).rejects.toThrow(/count_tokens request to http:\/\/127\.0\.0\.1:\d+\/v1\/messages\/count_tokens failed/);
  });
});

describe('ctxray analyze --calibrate', () => {
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 16,
    system: 'Synthetic calibration test system prompt.',
    messages: [{ role: 'user', content: 'Synthetic user turn for the --calibrate CLI test.' }],
  };
  let dir: string;
  let file: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ctxray-calibrate-'));
    file = path.join(dir, 'synthetic.jsonl');
    writeFileSync(file, JSON.stringify(body) + '\n');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function capture(envOverrides: Record<string, string | undefined>) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIO = {
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      readStdin: () => Promise.resolve(new Uint8Array()),
      env: envOverrides,
      cwd: dir,
    };
    return { io, out, err };
  }

  it('rescales the estimates by the exact count and says so', async () => {
    const plain = capture({});
    expect(await analyzeCommand([file, '--json', '-'], plain.io)).toBe(0);
    const estimate = (JSON.parse(plain.out.join('')) as { requests: { tokens: { total: number } }[] }).requests[0]!.tokens.total;
    reply = { status: 200, body: JSON.stringify({ input_tokens: estimate * 2 }) };
    seen.length = 0;
    const run = capture(env());
    expect(await analyzeCommand([file, '--calibrate', '--json', '-'], run.io)).toBe(0);
    expect(seen).toHaveLength(1);
    const record = JSON.parse(run.out.join('')) as { requests: { tokens: { total: number } }[] };
    expect(Math.abs(record.requests[0]!.tokens.total - estimate * 2)).toBeLessThanOrEqual(3); // per-segment rounding
    expect(run.err.join('')).toMatch(/calibrated Claude estimates with count_tokens: \d+ tokens for the request at line 1 .* factor 2\.0000/);
    expect(run.err.join('')).not.toContain('test-key-not-real');
  });

  it('exits 1 with a message when the key is missing (spawned CLI)', () => {
    const result = spawnSync(process.execPath, [path.resolve(__dirname, '../../bin/ctxray.mjs'), 'analyze', '--calibrate', file], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('--calibrate needs ANTHROPIC_API_KEY');
  });

  it('exits 1 when the endpoint refuses (in-process)', async () => {
    reply = { status: 429, body: '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}' };
    const run = capture(env());
    expect(await analyzeCommand([file, '--calibrate'], run.io)).toBe(1);
    expect(run.err.join('')).toBe('ctxray analyze: count_tokens answered HTTP 429 (rate_limit_error)\n');
  });
});
