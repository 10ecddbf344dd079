// A fake provider on 127.0.0.1 for the recorder tests (SYNTHETIC: every body, event and usage number here is
// made up in the shapes the Anthropic and OpenAI APIs document). It answers Messages, Chat Completions and
// Responses requests, JSON or streamed as the body's `stream` asks, and remembers what it received and the
// exact chunks it sent. A streamed response to a request with `x-test-ack: 1` sends each event only after the
// client acknowledged the previous one on /__ack (directly, not through the proxy): a proxy that buffered the
// stream would stall it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Sent {
  path: string;
  status: number;
  chunks: Buffer[];
}

export interface FakeUpstream {
  origin: string;
  received: Received[];
  sent: Sent[];
  close(): Promise<void>;
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const chatChunk = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

/** Anthropic usage as sent: message_start holds input and cache tokens, message_delta the final output. */
export const ANTHROPIC_STREAM = [
  sse('message_start', { type: 'message_start', message: { id: 'msg_s', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], usage: { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 1200, output_tokens: 1 } } }),
  sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi there.' } }),
  sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
  sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }),
  sse('message_stop', { type: 'message_stop' }),
];
export const ANTHROPIC_JSON = {
  id: 'msg_j',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [{ type: 'text', text: 'Hello.' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 21, cache_creation_input_tokens: 1200, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 1200, ephemeral_1h_input_tokens: 0 }, output_tokens: 5 },
};
export const CHAT_JSON = {
  id: 'chatcmpl-j',
  object: 'chat.completion',
  model: 'gpt-4o-2024-08-06',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1500, completion_tokens: 7, total_tokens: 1507, prompt_tokens_details: { cached_tokens: 1280 } },
};
export const CHAT_STREAM = [
  chatChunk({ id: 'chatcmpl-s', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }], usage: null }),
  chatChunk({ id: 'chatcmpl-s', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hi.' } }], usage: null }),
  chatChunk({ id: 'chatcmpl-s', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null }),
  chatChunk({ id: 'chatcmpl-s', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 1520, completion_tokens: 4, total_tokens: 1524, prompt_tokens_details: { cached_tokens: 1408 } } }),
  'data: [DONE]\n\n',
];
export const RESPONSES_STREAM = [
  sse('response.created', { type: 'response.created', response: { id: 'resp_s', status: 'in_progress', usage: null } }),
  sse('response.output_text.delta', { type: 'response.output_text.delta', delta: 'Hi.' }),
  sse('response.completed', { type: 'response.completed', response: { id: 'resp_s', status: 'completed', usage: { input_tokens: 900, input_tokens_details: { cached_tokens: 768 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 912 } } }),
];
export const MODELS_JSON = { object: 'list', data: [{ id: 'gpt-4o', object: 'model' }] };

/** How long a stream waits for an acknowledgement before it gives up (a buffering proxy never sends one). */
const ACK_TIMEOUT_MS = 10_000;

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const received: Received[] = [];
  const sent: Sent[] = [];
  let acked = -1;
  let onAck: (() => void) | null = null;

  const waitForAck = (n: number) =>
    new Promise<boolean>((resolve) => {
      if (acked >= n) return resolve(true);
      const timer = setTimeout(() => resolve(false), ACK_TIMEOUT_MS);
      onAck = () => {
        if (acked < n) return;
        clearTimeout(timer);
        onAck = null;
        resolve(true);
      };
    });

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? '';
    if (url.startsWith('/__ack?n=')) {
      acked = Number(url.slice('/__ack?n='.length));
      res.end();
      onAck?.();
      return;
    }
    const body = Buffer.concat(chunks);
    received.push({ method: req.method ?? '', path: url, headers: req.headers, body });
    let stream = false;
    try {
      stream = (JSON.parse(body.toString('utf8')) as { stream?: boolean }).stream === true;
    } catch {
      // GET requests have no body.
    }
    const record: Sent = { path: url, status: 200, chunks: [] };
    sent.push(record);
    const path = url.split('?')[0];
    if (stream) {
      const events = path === '/v1/messages' ? ANTHROPIC_STREAM : path === '/v1/chat/completions' ? CHAT_STREAM : RESPONSES_STREAM;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      acked = -1;
      const gated = req.headers['x-test-ack'] === '1';
      for (let i = 0; i < events.length; i++) {
        const chunk = Buffer.from(events[i]!);
        record.chunks.push(chunk);
        res.write(chunk);
        if (gated && i < events.length - 1 && !(await waitForAck(i))) {
          res.destroy();
          return;
        }
      }
      res.end();
      return;
    }
    const json = path === '/v1/messages' ? ANTHROPIC_JSON : path === '/v1/models' ? MODELS_JSON : CHAT_JSON;
    let bytes = Buffer.from(JSON.stringify(json));
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json', 'x-request-id': 'req_fake' };
    // Compressed when the client allows it, as the real APIs do: the client must get these very bytes.
    if (String(req.headers['accept-encoding'] ?? '').includes('gzip')) {
      bytes = gzipSync(bytes);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = bytes.length;
    record.chunks.push(bytes);
    res.writeHead(200, headers);
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
