// A body under the 256 MiB limit is written whatever its bytes (SYNTHETIC: 100 MiB of byte 0x01, whose JSON
// string would be 600 M characters, past V8's longest string): through the proxy into a gzip capture, as base64.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startProxy } from '../../src/cli/record/proxy.ts';
import { linePieces, openCapture } from '../../src/cli/record/writer.ts';

let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-large-'))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('writes a 100 MiB body of control bytes as base64 and keeps the gzip capture whole', async () => {
  const body = Buffer.alloc(100 * 1024 * 1024, 0x01);
  const upstream = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{"usage":{"input_tokens":1,"output_tokens":1}}'));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const origin = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  const opened = openCapture('big.jsonl.gz', dir);
  if (!opened.ok) throw new Error(opened.message);
  const proxy = await startProxy(0, { upstreams: { anthropic: origin, openai: origin }, onRecord: (record) => opened.writer.append(record) });
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, path: '/v1/messages', method: 'POST', headers: { 'content-type': 'application/octet-stream' }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
  expect(status).toBe(200);
  await proxy.close();
  await opened.writer.close();
  await new Promise((resolve) => upstream.close(resolve));
  expect(proxy.stats).toMatchObject({ recorded: 1, unwritten: 0 });
  const line = gunzipSync(fs.readFileSync(opened.writer.path)).toString('utf8');
  expect(line.endsWith('}\n')).toBe(true);
  const record = JSON.parse(line) as { request: { body_base64: string }; usage: unknown };
  expect(Buffer.from(record.request.body_base64, 'base64').equals(body)).toBe(true);
  expect(record.usage).toEqual({ input_tokens: 1, output_tokens: 1 });
}, 120_000);

it('writes a line in pieces that join to the record, each field of request and response on its own', () => {
  const record = { provider: 'anthropic', request: { path: '/v1/messages', body: { model: 'm', messages: [] } }, response: { status: 200, sse: 'data: {}\n\n' }, usage: null };
  const pieces = linePieces(record);
  expect(pieces.join('')).toBe(`${JSON.stringify(record)}\n`);
  expect(pieces).toContain(JSON.stringify(record.request.body));
  expect(pieces).toContain(JSON.stringify(record.response.sse));
});
