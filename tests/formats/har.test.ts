// HAR captures: the two real Polly.JS HARs (read in place from ../shared/fixtures/real), with the recorded usage of
// each response worked out here from the file itself, and synthetic HARs (labelled so) for base64, gzip, server-sent
// events with a server tool, Gemini, Responses and bad input.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readRequests } from '../../src/core/input/index.ts';

const dir = path.resolve(__dirname, '../../../shared/fixtures/real/gateway/har');
const present = fs.existsSync(dir);
const enc = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe.skipIf(!present)('HAR (real Polly.JS captures, ../shared/fixtures/real)', () => {
  for (const name of present ? fs.readdirSync(dir) : []) {
    it(`${name}: one request per LLM entry, each with its response's recorded usage and send time`, async () => {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      const entries = (JSON.parse(text) as Any).log.entries as Any[];
      const result = await readRequests([{ name, bytes: enc(text) }]);
      expect(result.errors).toEqual([]);
      expect(result.files[0]!.format).toBe('har');
      expect(result.requests).toHaveLength(entries.length);
      // Each request is located at its entry: Polly.JS pretty-prints, an entry opens on a line of six spaces and `{`.
      const entryLines = text.split('\n').flatMap((line, i) => (line === '      {' ? [i + 1] : []));
      expect(result.requests.map((r) => r.line)).toEqual(entryLines);
      result.requests.forEach((request, i) => {
        const usage = JSON.parse(entries[i].response.content.text).usage;
        const expected =
          'prompt_tokens' in usage
            ? { input: usage.prompt_tokens - (usage.prompt_tokens_details?.cached_tokens ?? 0), cacheRead: usage.prompt_tokens_details?.cached_tokens ?? 0, output: usage.completion_tokens }
            : { input: usage.input_tokens, cacheRead: usage.cache_read_input_tokens ?? 0, output: usage.output_tokens };
        expect(request.recorded).toMatchObject(expected);
        expect(request.timestamp).toBe(Date.parse(entries[i].startedDateTime));
        expect(request.model).toBe(JSON.parse(entries[i].request.postData.text).model);
      });
    });
  }
});

const entry = (url: string, body: unknown, response: Record<string, unknown>, started = '2026-01-02T03:04:05.000Z') => ({
  startedDateTime: started,
  request: { method: 'POST', url, headers: [], postData: { mimeType: 'application/json', text: typeof body === 'string' ? body : JSON.stringify(body) } },
  response: { status: 200, headers: [], content: { mimeType: 'application/json', ...response } },
});
const har = (entries: unknown[]) => ({ log: { version: '1.2', creator: { name: 'synthetic', version: '0' }, entries } });
const claudeBody = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'synthetic question' }] };

// Modelled on Anthropic's documented stream of a web_search server tool call: message_delta repeats the input and
// cache totals of the whole turn (larger than message_start's) and adds server_tool_use.
const serverToolSse = [
  'event: message_start',
  'data: {"type":"message_start","message":{"id":"msg_synthetic","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"usage":{"input_tokens":2679,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":3}}}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_synthetic","name":"web_search","input":{}}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"query\\": \\"synthetic\\"}"}}',
  '',
  'event: content_block_stop',
  'data: {"type":"content_block_stop","index":0}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_synthetic","content":[{"type":"web_search_result","title":"t","url":"https://example.com","encrypted_content":"x"}]}}',
  '',
  'event: message_delta',
  'data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":10682,"cache_creation_input_tokens":120,"cache_read_input_tokens":2000,"output_tokens":510,"server_tool_use":{"web_search_requests":1}}}',
  '',
  'event: message_stop',
  'data: {"type":"message_stop"}',
  '',
].join('\n');

describe('HAR (synthetic)', () => {
  const read = (doc: unknown, name = 'synthetic.har') => readRequests([{ name, bytes: enc(doc) }]);

  it('a streamed Anthropic call with a server tool: the usage is the merged stream (message_delta totals), also base64', async () => {
    const plain = entry('https://api.anthropic.com/v1/messages', { ...claudeBody, stream: true }, { mimeType: 'text/event-stream', text: serverToolSse });
    const base64 = entry('https://api.anthropic.com/v1/messages', { ...claudeBody, stream: true }, { mimeType: 'text/event-stream', text: b64(enc(serverToolSse)), encoding: 'base64' });
    const result = await read(har([plain, base64]));
    expect(result.errors).toEqual([]);
    for (const request of result.requests) expect(request.recorded).toEqual({ input: 10682, cacheRead: 2000, cacheWrite5m: 120, cacheWrite1h: 0, output: 510 });
  });

  it('gzip kept in a base64 body (an exporter that saved the wire bytes) and a base64 request body', async () => {
    const usage = { prompt_tokens: 1200, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 1024 } };
    const gz = entry('https://api.openai.com/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'synthetic' }] }, { text: b64(gzipSync(enc({ usage }))), encoding: 'base64' });
    (gz.request.postData as Any) = { mimeType: 'application/json', text: b64(enc({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'synthetic' }] })), _encoding: 'base64' };
    const result = await read(har([gz]));
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.recorded).toEqual({ input: 176, cacheRead: 1024, cacheWrite5m: 0, cacheWrite1h: 0, output: 7 });
  });

  it("Polly.JS's chunked body: a JSON array of base64 chunks that together are one gzip stream", async () => {
    const usage = { prompt_tokens: 15, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 0 } };
    const zipped = gzipSync(enc({ id: 'chatcmpl-synthetic', usage }));
    // Cut where a chunk boundary falls mid-stream, each chunk padded on its own, as Polly writes them.
    const chunks = [zipped.subarray(0, 10), zipped.subarray(10, 11), zipped.subarray(11)].map((part) => b64(part));
    const polly = entry('https://api.openai.com/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'synthetic' }] }, { text: JSON.stringify(chunks), encoding: 'base64' });
    const result = await read(har([polly]));
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.recorded).toEqual({ input: 15, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 20 });
    const notChunks = entry('https://api.openai.com/v1/chat/completions', { model: 'gpt-4o-mini', messages: [] }, { text: JSON.stringify(['***']), encoding: 'base64' });
    expect((await read(har([notChunks]))).errors.map((e) => e.message)).toEqual(['entry 1 of 1: the response body is marked base64 but is not base64']);
  });

  it('bodies of entries that are no LLM call are not decoded: an image, an embeddings call (named by endpoint)', async () => {
    const png = { startedDateTime: '2026-01-02T03:04:05.000Z', request: { method: 'GET', url: 'https://example.com/logo.png', headers: [] }, response: { status: 200, headers: [], content: { mimeType: 'image/png', text: b64(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe])), encoding: 'base64' } } };
    // An embeddings body's `input` list reads like a Responses request: the endpoint says it is none.
    const embeddings = entry('https://api.openai.com/v1/embeddings', { model: 'text-embedding-3-small', input: ['synthetic'] }, { text: '***', encoding: 'base64' });
    const call = entry('https://api.anthropic.com/v1/messages', claudeBody, { text: '{"usage":{"input_tokens":9,"output_tokens":1}}' });
    const result = await read(har([png, embeddings, call]));
    expect(result.requests.map((r) => r.model)).toEqual(['claude-sonnet-4-5']);
    expect(result.errors.map((e) => e.message)).toEqual(['skipped 2 HAR entries that are no LLM call (by host: api.openai.com embeddings 1, example.com 1)']);
  });

  it('a Bedrock InvokeModel call: the body names no model, the URL does (its colon percent-encoded or not)', async () => {
    const { model: _omit, ...bedrockBody } = claudeBody;
    const usage = { text: '{"usage":{"input_tokens":21,"output_tokens":67}}' };
    const plain = entry('https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-3-7-sonnet-20250219-v1:0/invoke', { anthropic_version: 'bedrock-2023-05-31', ...bedrockBody }, usage);
    const encoded = entry('https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream', { anthropic_version: 'bedrock-2023-05-31', ...bedrockBody }, usage);
    const result = await read(har([plain, encoded]));
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => r.model)).toEqual(['us.anthropic.claude-3-7-sonnet-20250219-v1:0', 'anthropic.claude-sonnet-4-5-20250929-v1:0']);
  });

  it('an OpenAI Responses stream: usage from response.completed', async () => {
    const sse = 'event: response.created\ndata: {"type":"response.created","response":{"usage":null}}\n\nevent: response.completed\ndata: {"type":"response.completed","response":{"usage":{"input_tokens":500,"input_tokens_details":{"cached_tokens":300},"output_tokens":20}}}\n\n';
    const result = await read(har([entry('https://api.openai.com/v1/responses', { model: 'gpt-5', input: 'synthetic' }, { text: sse })]));
    expect(result.requests[0]!.format).toBe('openai-responses');
    expect(result.requests[0]!.recorded).toEqual({ input: 200, cacheRead: 300, cacheWrite5m: 0, cacheWrite1h: 0, output: 20 });
  });

  it('a Gemini streamGenerateContent call: model from the URL, the last chunk\'s usageMetadata, thoughts as output', async () => {
    const body = { systemInstruction: { parts: [{ text: 'be brief' }] }, contents: [{ role: 'user', parts: [{ text: 'synthetic' }] }, { role: 'model', parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] }, { role: 'user', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] }] };
    const sse = 'data: {"candidates":[],"usageMetadata":{"promptTokenCount":40}}\r\n\r\ndata: {"candidates":[],"usageMetadata":{"promptTokenCount":40,"cachedContentTokenCount":10,"candidatesTokenCount":5,"thoughtsTokenCount":3}}\r\n\r\n';
    const result = await read(har([entry('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', body, { text: sse })]));
    expect(result.errors).toEqual([]);
    const request = result.requests[0]!;
    expect(request.model).toBe('gemini-2.5-flash');
    expect(request.recorded).toEqual({ input: 30, cacheRead: 10, cacheWrite5m: 0, cacheWrite1h: 0, output: 8 });
    expect(request.segments.map((s) => s.category)).toEqual(expect.arrayContaining(['system', 'user', 'tool_call', 'tool_result']));
    expect(request.notes.map((n) => n.code)).toContain('provider_not_modelled');
  });

  it('non-LLM entries are skipped and counted by host; a HAR of none says what it held', async () => {
    const page = (url: string) => ({ startedDateTime: '2026-01-02T03:04:05.000Z', request: { method: 'GET', url, headers: [] }, response: { status: 200, headers: [], content: { mimeType: 'text/html', text: '<html>' } } });
    const mixed = await read(har([page('https://example.com/a'), entry('https://api.anthropic.com/v1/messages', claudeBody, { text: '{"usage":{"input_tokens":9,"output_tokens":1}}' }), page('https://example.com/b'), page('https://cdn.example.org/x.js')]));
    expect(mixed.requests).toHaveLength(1);
    expect(mixed.errors.map((e) => e.message)).toEqual(['skipped 3 HAR entries that are no LLM call (by host: example.com 2, cdn.example.org 1)']);
    const none = await read(har([page('https://example.com/a'), page('https://example.com/b')]));
    expect(none.requests).toHaveLength(0);
    expect(none.errors.map((e) => e.message)).toEqual(['this HAR holds no Anthropic, OpenAI or Gemini call: 2 entries, none an LLM call (by host: example.com 2)']);
    const empty = await read(har([]));
    expect(empty.errors.map((e) => e.message)).toEqual(['this HAR holds no Anthropic, OpenAI or Gemini call: no entries at all']);
  });

  it('bad bodies are located by entry; a HAR-named file that is no HAR is refused', async () => {
    const broken = entry('https://api.anthropic.com/v1/messages', '{"model": "claude', { text: '{}' });
    const badBase64 = entry('https://api.anthropic.com/v1/messages', claudeBody, { text: '***', encoding: 'base64' });
    const result = await read(har([broken, badBase64]));
    expect(result.errors.map((e) => e.message)).toEqual([
      'entry 1 of 2: the request body of this anthropic-messages call is not JSON',
      'entry 2 of 2: the response body is marked base64 but is not base64',
    ]);
    // Pretty-printed, each error is at the line its entry opens on (six spaces and `{`), not at the document's first.
    const pretty = JSON.stringify(har([broken, badBase64]), null, 2);
    const opening = pretty.split('\n').flatMap((line, i) => (line === '      {' ? [i + 1] : []));
    expect(opening).toHaveLength(2);
    expect((await read(pretty)).errors.map((e) => e.line)).toEqual(opening);
    const notHar = await read({ hello: 'world' }, 'x.har');
    expect(notHar.errors.map((e) => e.message)).toEqual(['not a HAR file: no log.entries array']);
  });

  it('a HAR cut off mid-write is read up to the break: the entries before it, the break located', async () => {
    const ok = (n: number) => entry('https://api.anthropic.com/v1/messages', claudeBody, { text: `{"usage":{"input_tokens":${n},"output_tokens":1}}` });
    const text = JSON.stringify(har([ok(5), ok(6), ok(7)]), null, 2);
    const cut = text.slice(0, text.lastIndexOf('input_tokens'));
    const result = await read(cut);
    expect(result.requests.map((r) => r.recorded!.input)).toEqual([5, 6]);
    const lines = cut.split('\n').length;
    expect(result.errors.map((e) => e.message)).toEqual([
      'the HAR is cut off: read the 2 entries before the break; entry 3 is incomplete and not read',
      `invalid JSON: the text ends before the JSON does (unterminated string) at line ${lines}, column ${cut.split('\n').at(-1)!.length + 1}`,
    ]);
    // Cut through nothing but noise: the error alone, not a second one about an empty HAR.
    const none = await read('{"log": {"entries": [', 'x.har');
    expect(none.requests).toHaveLength(0);
    expect(none.errors.map((e) => e.message)).toEqual(['invalid JSON: the text ends before the JSON does at line 1, column 22', 'the HAR is cut off before its first entry']);
  });

  it('found by structure under any name', async () => {
    const result = await read(har([entry('https://api.anthropic.com/v1/messages', claudeBody, { text: '{"usage":{"input_tokens":9,"output_tokens":1}}' })]), 'capture.json');
    expect(result.files[0]!.format).toBe('har');
    expect(result.requests[0]!.recorded).toEqual({ input: 9, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 1 });
  });
});
