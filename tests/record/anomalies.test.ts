// An upstream that misbehaves in every way an HTTP server can (SYNTHETIC responses written byte by byte on a raw
// socket): the recorder answers the agent 502 or 504, marks the record with the anomaly, and keeps forwarding.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/cli/record/capture.ts';
import { startProxy, type RecordingProxy } from '../../src/cli/record/proxy.ts';

const OK_JSON = '{"id":"msg_1","type":"message","usage":{"input_tokens":4,"output_tokens":1}}';

/** What the raw upstream answers, by the request's `case` query parameter. */
const ANSWERS: Record<string, (socket: net.Socket) => void> = {
  ok: (s) => s.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${OK_JSON.length}\r\n\r\n${OK_JSON}`),
  status099: (s) => s.end('HTTP/1.1 099 Odd\r\ncontent-length: 0\r\n\r\n'),
  status000: (s) => s.end('HTTP/1.1 000 Zero\r\ncontent-length: 0\r\n\r\n'),
  reason: (s) => s.end('HTTP/1.1 200 O\x01K\r\ncontent-length: 2\r\n\r\n{}'),
  switching: (s) => s.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n'),
  silent: () => undefined,
  reset: (s) => {
    s.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n5\r\ndata:\r\n');
    setTimeout(() => s.resetAndDestroy(), 20);
  },
  endless: (s) => {
    s.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n');
    const event = 'data: {"type":"ping"}\n\n';
    const chunk = `${event.length.toString(16)}\r\n${event}\r\n`;
    const timer = setInterval(() => {
      if (s.destroyed) return clearInterval(timer);
      for (let i = 0; i < 64; i++) s.write(chunk);
    }, 1);
    s.on('close', () => clearInterval(timer));
  },
};

let upstream: net.Server;
let proxy: RecordingProxy;
const records: CaptureRecord[] = [];

beforeAll(async () => {
  upstream = net.createServer((socket) => {
    let head = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0 || head === '') return;
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (head.length < end + 4 + length) return;
      const target = head.split(' ')[1] ?? '';
      head = '';
      (ANSWERS[new URL(target, 'http://x').searchParams.get('case') ?? 'ok'] ?? ANSWERS['ok']!)(socket);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const origin = new URL(`http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}`);
  proxy = await startProxy(0, { upstreams: { anthropic: origin, openai: origin }, onRecord: (r) => records.push(r), upstreamTimeoutMs: 300, maxBody: 64 * 1024 });
});
afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => upstream.close(resolve));
});

/**
 * A Messages request through the proxy that the upstream answers as `answerName` says: to /v1/messages (recorded)
 * or to /v1/messages/count_tokens (forwarded only).
 */
function send(answerName: string, options: { recorded: boolean } = { recorded: false }): Promise<{ status: number; text: string; error?: string }> {
  return new Promise((resolve) => {
    const path = `/v1/messages${options.recorded ? '' : '/count_tokens'}?case=${answerName}`;
    const req = http.request({ host: '127.0.0.1', port: proxy.port, path, method: 'POST', headers: { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', (error) => resolve({ status: res.statusCode ?? 0, text, error: error.message }));
      res.on('aborted', () => resolve({ status: res.statusCode ?? 0, text, error: 'aborted' }));
    });
    req.on('error', (error) => resolve({ status: 0, text: '', error: error.message }));
    req.end('{"model":"claude-haiku-4-5","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}');
  });
}

describe('an upstream anomaly costs one exchange, never the recording', () => {
  it.each([
    ['status099', 502, 'not a final HTTP status'],
    ['status000', 502, 'not a final HTTP status'],
    ['reason', 502, 'control characters'],
    ['switching', 502, '101 Switching Protocols'],
    ['silent', 504, 'sent nothing for'],
  ])('%s: the agent gets %i and the next request still goes through', async (name, status, message) => {
    const answered = await send(name);
    expect(answered.status).toBe(status);
    expect(answered.text).toContain(message);
    expect((await send('ok')).status).toBe(200);
  });

  it('marks each recorded exchange with its anomaly code beside the sentence', async () => {
    const before = records.length;
    const cases = ['status099', 'reason', 'switching', 'silent'];
    for (const name of cases) {
      const answered = await sendRecorded(name);
      expect(answered.status).toBeGreaterThanOrEqual(502);
    }
    for (let tries = 0; tries < 200 && records.length < before + cases.length; tries++) await new Promise((r) => setTimeout(r, 10));
    expect(records.slice(before).map((r) => r.response['anomaly'])).toEqual(['bad_status', 'bad_reason_phrase', 'switching_protocols', 'timeout']);
    for (const record of records.slice(before)) {
      expect(typeof record.response['error']).toBe('string');
      expect(record.usage).toBeNull();
      expect(record.request['body']).toMatchObject({ model: 'claude-haiku-4-5' });
    }
  });

  it('cuts a recorded stream at the size cap and a reset mid-stream, and records both as such', async () => {
    const before = records.length;
    const endless = await sendRecorded('endless');
    expect(endless.status).toBe(200);
    expect(endless.error).toBeDefined();
    const reset = await sendRecorded('reset');
    expect(reset.error).toBeDefined();
    for (let tries = 0; tries < 200 && records.length < before + 2; tries++) await new Promise((r) => setTimeout(r, 10));
    const [cut, broken] = records.slice(before);
    expect(cut!.response['anomaly']).toBe('size_cap');
    expect(cut!.response['body_error']).toBe('body larger than 0.0625 MiB; forwarded, not written');
    expect(broken!.response['anomaly']).toBe('reset');
    expect((await send('ok')).status).toBe(200);
  });
});

const sendRecorded = (name: string) => send(name, { recorded: true });
