// Cassettes: the real vcrpy cassette (read in place from ../shared/fixtures/real; ground truth is each response's
// usage, decoded here with Node's zlib), and hand-made minimal cassettes (synthetic) in the shapes other projects'
// suites write: pydantic-ai's parsed_body, PyYAML 1.x python tags, Ruby VCR / betamax, nock JSON, cut-off files.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRequests } from '../../src/core/input/index.ts';

const dir = path.resolve(__dirname, '../../../shared/fixtures/real/cassettes');
const present = fs.existsSync(dir);
const enc = (text: string) => new TextEncoder().encode(text);
const read = (text: string, name = 'synthetic.yaml') => readRequests([{ name, bytes: enc(text) }]);
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe.skipIf(!present)('vcrpy cassette (real, ../shared/fixtures/real)', () => {
  for (const name of present ? fs.readdirSync(dir) : []) {
    it(`${name}: one request per interaction, usage equal to each gzip response's`, async () => {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      const interactions = (parse(text, { version: '1.1' }) as Any).interactions as Any[];
      const result = await read(text, name);
      expect(result.errors).toEqual([]);
      expect(result.files[0]).toMatchObject({ format: 'vcr-cassette', layout: 'yaml-document' });
      expect(result.requests).toHaveLength(interactions.length);
      // Each request is located at its interaction's `- request:` line.
      expect(result.requests.map((r) => r.line)).toEqual(text.split('\n').flatMap((line, i) => (line === '- request:' ? [i + 1] : [])));
      result.requests.forEach((request, i) => {
        const usage = JSON.parse(zlib.gunzipSync(interactions[i].response.body.string).toString('utf8')).usage;
        expect(request.recorded).toMatchObject({ input: usage.input_tokens, cacheRead: usage.cache_read_input_tokens, cacheWrite5m: usage.cache_creation_input_tokens, output: usage.output_tokens });
        const headers = interactions[i].response.headers;
        const date = Object.keys(headers).find((k) => k.toLowerCase() === 'date')!;
        expect(request.timestamp).toBe(Date.parse(headers[date][0]));
      });
    });
  }
});

const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'synthetic' }] });
const chatUsage = (prompt: number, cached: number, out: number) => JSON.stringify({ usage: { prompt_tokens: prompt, completion_tokens: out, prompt_tokens_details: { cached_tokens: cached } } });
const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

// AWS event-stream messages framed by hand (prelude CRC and message CRC by Node's zlib.crc32): a Bedrock
// InvokeModel `chunk` wraps the model's event as base64 `bytes`; a ConverseStream event is the payload itself.
const frame = (event: object, wrap = true, eventType = 'chunk'): Buffer => {
  const header = (name: string, value: string) => Buffer.concat([Buffer.from([name.length]), Buffer.from(name), Buffer.from([7]), Buffer.from([value.length >> 8, value.length & 0xff]), Buffer.from(value)]);
  const headers = Buffer.concat([header(':event-type', eventType), header(':content-type', 'application/json'), header(':message-type', 'event')]);
  const payload = Buffer.from(JSON.stringify(wrap ? { bytes: Buffer.from(JSON.stringify(event)).toString('base64') } : event));
  const prelude = Buffer.alloc(8);
  prelude.writeUInt32BE(12 + headers.length + payload.length + 4, 0);
  prelude.writeUInt32BE(headers.length, 4);
  const preludeCrc = Buffer.alloc(4);
  preludeCrc.writeUInt32BE(zlib.crc32(prelude), 0);
  const body = Buffer.concat([prelude, preludeCrc, headers, payload]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body), 0);
  return Buffer.concat([body, crc]);
};

describe('cassettes (synthetic, shaped as other suites write them)', () => {
  it('vcrpy with a plain string body and a gzip !!binary response; the Date header is the time', async () => {
    const gz = b64(gzipSync(enc(chatUsage(1200, 1024, 9))));
    const yaml = `interactions:\n- request:\n    body: ${q(chatBody)}\n    headers:\n      host:\n      - api.openai.com\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n  response:\n    body:\n      string: !!binary |\n        ${gz}\n    headers:\n      Content-Encoding:\n      - gzip\n      Date:\n      - Thu, 18 Dec 2025 10:00:00 GMT\n    status:\n      code: 200\n      message: OK\nversion: 1\n`;
    const result = await read(yaml);
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.recorded).toEqual({ input: 176, cacheRead: 1024, cacheWrite5m: 0, cacheWrite1h: 0, output: 9 });
    expect(result.requests[0]!.timestamp).toBe(Date.UTC(2025, 11, 18, 10));
  });

  it("pydantic-ai's parsed_body on both sides, and PyYAML 1.x !!python/unicode strings", async () => {
    const parsed = `interactions:\n- request:\n    headers: {}\n    method: POST\n    parsed_body:\n      max_tokens: 100\n      messages:\n      - content: synthetic\n        role: user\n      model: claude-sonnet-4-5\n    uri: https://api.anthropic.com/v1/messages\n  response:\n    headers: {}\n    parsed_body:\n      usage:\n        cache_creation_input_tokens: 5\n        cache_read_input_tokens: 7\n        input_tokens: 11\n        output_tokens: 3\n    status:\n      code: 200\n      message: OK\nversion: 1\n`;
    const a = await read(parsed);
    expect(a.errors).toEqual([]);
    expect(a.requests[0]!.recorded).toEqual({ input: 11, cacheRead: 7, cacheWrite5m: 5, cacheWrite1h: 0, output: 3 });
    const old = `interactions:\n- request:\n    body: !!python/unicode ${q(chatBody)}\n    headers: {}\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n  response:\n    body: {string: !!python/unicode ${q(chatUsage(50, 0, 2))}}\n    headers: {}\n    status: {code: 200, message: OK}\nversion: 1\n`;
    const b = await read(old);
    expect(b.errors).toEqual([]);
    expect(b.requests[0]!.recorded).toEqual({ input: 50, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 2 });
  });

  it("cassetter (pydantic-ai's suite from March 2026): typed bodies json / text / binary (hex) / none, status a number", async () => {
    // Synthetic, in the shape of Kludex/cassetter's SPECIFICATION.md §1.2 and docs/tutorial/formats.md.
    const sse = 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3,"cache_creation_input_tokens":1111,"cache_read_input_tokens":0,"output_tokens":1}}}\n\nevent: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":391}}\n\n';
    const hex = [...enc(chatUsage(40, 32, 6))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const yaml = `version: 1\ninteractions:\n- request:\n    method: POST\n    uri: https://api.anthropic.com/v1/messages?beta=true\n    headers:\n      content-type:\n      - application/json\n    body:\n      type: json\n      content:\n        max_tokens: 100\n        messages:\n        - content: synthetic\n          role: user\n        model: claude-sonnet-4-5\n        stream: true\n  response:\n    status: 200\n    headers: {}\n    body:\n      type: text\n      content: ${JSON.stringify(sse)}\n  recorded_at: '2026-03-06T19:26:02.821070+00:00'\n- request:\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n    headers: {}\n    body:\n      type: json\n      content:\n        model: gpt-4o-mini\n        messages:\n        - role: user\n          content: synthetic\n  response:\n    status: 200\n    headers: {}\n    body:\n      type: binary\n      content: '${hex}'\n- request:\n    method: GET\n    uri: https://example.com/health\n    headers: {}\n    body:\n      type: none\n  response:\n    status: 204\n    headers: {}\n    body:\n      type: none\n`;
    const result = await read(yaml);
    expect(result.files[0]).toMatchObject({ format: 'vcr-cassette' });
    expect(result.requests.map((r) => r.recorded)).toEqual([
      { input: 3, cacheRead: 0, cacheWrite5m: 1111, cacheWrite1h: 0, output: 391 },
      { input: 8, cacheRead: 32, cacheWrite5m: 0, cacheWrite1h: 0, output: 6 },
    ]);
    expect(result.requests.map((r) => r.line)).toEqual([3, 25]);
    expect(result.requests[0]!.timestamp).toBe(Date.UTC(2026, 2, 6, 19, 26, 2, 821));
    expect(result.errors.map((e) => e.message)).toEqual(['skipped 1 cassette entry that is no LLM call (by host: example.com 1)']);
  });

  it('a body object of no known shape, or a cassetter type not in the spec, is a located error naming what it holds', async () => {
    const call = (body: string) => `version: 1\ninteractions:\n- request:\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n    headers: {}\n    body:\n${body}\n  response:\n    status: 200\n    body:\n      type: json\n      content: ${chatUsage(1, 0, 1)}\n`;
    expect((await read(call('      type: protobuf\n      content: 0a05'))).errors).toEqual([
      { file: 0, line: 3, message: 'interaction 1 of 1: the request body is of type "protobuf", not one of cassetter\'s body types (json, text, binary, none)' },
    ]);
    expect((await read(call("      type: binary\n      content: 'zz'"))).errors.map((e) => e.message)).toEqual(['interaction 1 of 1: the request body is of type binary but its content is not hex']);
    expect((await read(call('      data: x\n      kind: y'))).errors.map((e) => e.message)).toEqual(['interaction 1 of 1: the request body is an object with no `string`, `base64_string` or `type` (cassetter) field (it has `data`, `kind`)']);
  });

  it("langchain's gzipped YAML cassettes: vcrpy's {requests, responses} lists paired by position", async () => {
    // Synthetic, in the shape langchain_tests' CustomSerializer writes (yaml.safe_dump of vcrpy's cassette dict, gzip).
    const anthropic = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'synthetic' }] });
    const usage = JSON.stringify({ usage: { input_tokens: 9, cache_read_input_tokens: 2000, cache_creation_input_tokens: 30, output_tokens: 41 } });
    const yaml = `requests:\n- body: ${q(anthropic)}\n  headers:\n    host:\n    - api.anthropic.com\n  method: POST\n  uri: https://api.anthropic.com/v1/messages\n- body: !!binary |\n    ${b64(enc(chatBody))}\n  headers: {}\n  method: POST\n  uri: https://api.openai.com/v1/chat/completions\nresponses:\n- body:\n    string: ${q(usage)}\n  headers:\n    Date:\n    - Tue, 20 Jan 2026 08:00:00 GMT\n  status:\n    code: 200\n    message: OK\n- body:\n    string: ${q(chatUsage(120, 100, 7))}\n  headers: {}\n  status:\n    code: 200\n    message: OK\n- body:\n    string: ${q(chatUsage(1, 0, 1))}\n  headers: {}\n  status:\n    code: 200\n    message: OK\n`;
    const result = await readRequests([{ name: 'test_agent_loop.yaml.gz', bytes: gzipSync(enc(yaml)) }]);
    expect(result.files[0]).toMatchObject({ format: 'vcr-cassette' });
    expect(result.requests.map((r) => [r.format, r.line, r.recorded])).toEqual([
      ['anthropic-messages', 2, { input: 9, cacheRead: 2000, cacheWrite5m: 30, cacheWrite1h: 0, output: 41 }],
      ['openai-chat', 8, { input: 20, cacheRead: 100, cacheWrite5m: 0, cacheWrite1h: 0, output: 7 }],
    ]);
    expect(result.requests[0]!.timestamp).toBe(Date.UTC(2026, 0, 20, 8));
    expect(result.errors).toEqual([{ file: 0, line: 28, message: 'the cassette has 3 responses for 2 requests: the last response has no request and is not read' }]);
  });

  it('Ruby VCR / betamax: http_interactions, base64_string bodies, recorded_at', async () => {
    const yaml = `---\nhttp_interactions:\n- request:\n    method: post\n    uri: https://api.openai.com/v1/chat/completions\n    body:\n      encoding: UTF-8\n      string: ${q(chatBody)}\n  response:\n    status:\n      code: 200\n    body:\n      encoding: ASCII-8BIT\n      base64_string: ${b64(enc(chatUsage(30, 0, 4)))}\n  recorded_at: Wed, 01 Jan 2025 00:00:00 GMT\nrecorded_with: VCR 6.2.0\n`;
    const result = await read(yaml);
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.recorded).toEqual({ input: 30, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 4 });
    expect(result.requests[0]!.timestamp).toBe(Date.UTC(2025, 0, 1));
  });

  it("Ruby VCR's !binary bodies (Psych's local tag for base64 bytes) are read as bytes: an event stream's usage", async () => {
    const sse = `data: {"id":"synthetic","choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"id":"synthetic","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":11,"prompt_tokens_details":{"cached_tokens":0}}}\n\ndata: [DONE]\n\n`;
    const yaml = `---\nhttp_interactions:\n- request:\n    method: post\n    uri: https://api.openai.com/v1/chat/completions\n    body:\n      encoding: UTF-8\n      string: ${q(chatBody)}\n  response:\n    status:\n      code: 200\n    body:\n      encoding: ASCII-8BIT\n      string: !binary |-\n        ${b64(enc(sse))}\n  recorded_at: Fri, 14 Mar 2025 14:01:56 GMT\nrecorded_with: VCR 6.1.0\n`;
    const result = await read(yaml);
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.recorded).toEqual({ input: 5, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 11 });
  });

  it('a cassette of no LLM call says so by host; one with no closing version: is cut off', async () => {
    const none = `interactions:\n- request:\n    body: null\n    headers: {}\n    method: GET\n    uri: https://example.com/x\n  response:\n    body: {string: ok}\n    headers: {}\n    status: {code: 200, message: OK}\nversion: 1\n`;
    expect((await read(none)).errors.map((e) => e.message)).toEqual(['this cassette holds no Anthropic, OpenAI or Gemini call: 1 entry, none an LLM call (by host: example.com 1)']);
    // Endpoints that take no cacheable prompt are named beside their host: Anthropic's legacy Text Completions,
    // Gemini's embeddings (synthetic interactions).
    const skipped = (uri: string) => `- request:\n    body: '{}'\n    headers: {}\n    method: POST\n    uri: ${uri}\n  response:\n    body: {string: '{}'}\n    headers: {}\n    status: {code: 200, message: OK}\n`;
    const legacy = `interactions:\n${skipped('https://api.anthropic.com/v1/complete')}${skipped('https://generativelanguage.googleapis.com/v1beta/models/text-embedding-004:embedContent')}version: 1\n`;
    expect((await read(legacy)).errors.map((e) => e.message)).toEqual([
      'this cassette holds no Anthropic, OpenAI or Gemini call: 2 entries, none an LLM call (by host: api.anthropic.com complete 1, generativelanguage.googleapis.com embedContent 1)',
    ]);
    const interaction = `- request:\n    body: ${q(chatBody)}\n    headers: {}\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n  response:\n    body: {string: ${q(chatUsage(10, 0, 1))}}\n    headers: {}\n    status: {code: 200, message: OK}\n`;
    const cut = await read(`interactions:\n${interaction}${interaction}- request:\n    body: ${q(chatBody)}\n`);
    expect(cut.requests).toHaveLength(2);
    expect(cut.errors.map((e) => e.message)).toEqual(['the cassette is cut off (it has no closing `version:`): read the 2 interactions before the break; interaction 3 is incomplete and not read']);
    const broken = await read(`interactions:\n${interaction}- request:\n    body: '{"model": "gpt-4o-mini", "mess`);
    expect(broken.requests).toHaveLength(1);
    expect(broken.errors.map((e) => e.message)).toEqual([
      'the cassette is cut off: read the 1 interaction before the break; interaction 2 is incomplete and not read',
      'invalid YAML: Missing closing \'quote (MISSING_CHAR) at line 12, column 42',
    ]);
  });

  it('an alias bomb is refused with a located error, not expanded', async () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const result = await read(levels.join('\n'));
    expect(result.requests).toHaveLength(0);
    expect(result.errors[0]!.message).toMatch(/^YAML not read: Excessive alias count/);
  });

  it("Bedrock's streamed answer (AWS event-stream bytes) in nock hex and a vcrpy !!binary body: the Claude events' usage", async () => {
    const stream = Buffer.concat([
      frame({ type: 'message_start', message: { usage: { input_tokens: 702, cache_read_input_tokens: 40, output_tokens: 1 } } }),
      frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'synthetic' } }),
      frame({ type: 'message_delta', usage: { output_tokens: 130 } }),
      frame({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 742, outputTokenCount: 130 } }),
    ]);
    const request = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'synthetic' }] };
    const path = '/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke-with-response-stream';
    const nock = [{ scope: 'https://bedrock-runtime.us-east-1.amazonaws.com:443', method: 'POST', path, body: request, status: 200, response: stream.toString('hex'), rawHeaders: ['Content-Type', 'application/vnd.amazon.eventstream'], responseIsBinary: true }];
    const a = await readRequests([{ name: 'fixture.json', bytes: enc(JSON.stringify(nock)) }]);
    expect(a.errors).toEqual([]);
    const expected = { input: 702, cacheRead: 40, cacheWrite5m: 0, cacheWrite1h: 0, output: 130 };
    expect(a.requests.map((r) => [r.model, r.recorded])).toEqual([['anthropic.claude-3-5-sonnet-20240620-v1:0', expected]]);
    const yaml = `interactions:\n- request:\n    body: ${q(JSON.stringify(request))}\n    headers: {}\n    method: POST\n    uri: https://bedrock-runtime.us-east-1.amazonaws.com${path}\n  response:\n    body:\n      string: !!binary |\n        ${stream.toString('base64')}\n    headers:\n      Content-Type:\n      - application/vnd.amazon.eventstream\n    status:\n      code: 200\n      message: OK\nversion: 1\n`;
    const b = await read(yaml);
    expect(b.errors).toEqual([]);
    expect(b.requests.map((r) => r.recorded)).toEqual([expected]);
    // A frame whose prelude CRC does not match is no event stream: the bytes stay unread, as before.
    const broken = Buffer.from(stream);
    broken[8] = broken[8]! ^ 0xff;
    nock[0]!.response = broken.toString('hex');
    const c = await readRequests([{ name: 'fixture.json', bytes: enc(JSON.stringify(nock)) }]);
    expect(c.errors.map((e) => e.message)).toEqual(['definition 1: the response is not UTF-8 text']);
  });

  it('Bedrock Converse (and ConverseStream) read as Anthropic Messages: blocks, cache points, the usage it records', async () => {
    // Synthetic, in the shape of the Bedrock runtime API reference (Converse, ConverseStream).
    const converse = {
      system: [{ text: 'You are synthetic.' }, { cachePoint: { type: 'default' } }],
      messages: [
        { role: 'user', content: [{ text: 'Weather?' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'get_weather', input: { city: 'Oslo' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ json: { sky: 'clear' } }], status: 'success' } }] },
      ],
      toolConfig: { tools: [{ toolSpec: { name: 'get_weather', description: 'synthetic', inputSchema: { json: { type: 'object' } } } }, { cachePoint: { type: 'default' } }] },
      inferenceConfig: { maxTokens: 100 },
    };
    const usage = { inputTokens: 4, outputTokens: 9, totalTokens: 1114, cacheReadInputTokens: 0, cacheWriteInputTokens: 1101 };
    const model = '/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0';
    const stream = Buffer.concat([frame({ role: 'assistant' }, false, 'messageStart'), frame({ contentBlockIndex: 0, delta: { text: 'Clear.' } }, false, 'contentBlockDelta'), frame({ usage: { inputTokens: 20, outputTokens: 3, cacheReadInputTokens: 1101 }, metrics: { latencyMs: 1 } }, false, 'metadata')]);
    const defs = [
      { scope: 'https://bedrock-runtime.us-west-2.amazonaws.com:443', method: 'POST', path: `${model}/converse`, body: converse, status: 200, response: { output: { message: { role: 'assistant', content: [{ text: 'Clear.' }] } }, usage } },
      { scope: 'https://bedrock-runtime.us-west-2.amazonaws.com:443', method: 'POST', path: `${model}/converse-stream`, body: converse, status: 200, response: stream.toString('hex'), responseIsBinary: true },
      { scope: 'https://bedrock-runtime.us-east-1.amazonaws.com:443', method: 'POST', path: '/model/amazon.nova-micro-v1%3A0/converse', body: { messages: [{ role: 'user', content: [{ text: 'synthetic' }] }] }, status: 200, response: { usage: { inputTokens: 5, outputTokens: 2 } } },
    ];
    const result = await readRequests([{ name: 'fixture.json', bytes: enc(JSON.stringify(defs)) }]);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.format, r.model, r.recorded])).toEqual([
      ['anthropic-messages', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', { input: 4, cacheRead: 0, cacheWrite5m: 1101, cacheWrite1h: 0, output: 9 }],
      ['anthropic-messages', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', { input: 20, cacheRead: 1101, cacheWrite5m: 0, cacheWrite1h: 0, output: 3 }],
      ['anthropic-messages', 'amazon.nova-micro-v1:0', { input: 5, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 2 }],
    ]);
    const first = result.requests[0]!;
    expect(first.segments.map((segment) => [segment.category, segment.path, segment.cacheMarker !== null])).toEqual([
      ['tools', 'tools[0]', true],
      ['system', 'system[0]', true],
      ['user', 'messages[0].content[0]', false],
      ['tool_call', 'messages[1].content[0]', false],
      ['tool_result', 'messages[2].content[0]', false],
    ]);
    expect(first.notes.map((n) => n.code)).not.toContain('unknown_shapes');
    // A model that is no Claude is read, and said to be outside what is modelled.
    expect(result.requests[2]!.notes.map((n) => n.code)).toContain('provider_not_modelled');
  });

  it('nock JSON: parsed bodies, gzip hex chunks, a non-LLM definition counted', async () => {
    const hex = [...gzipSync(enc(chatUsage(300, 256, 5)))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const defs = [
      { scope: 'https://api.openai.com:443', method: 'POST', path: '/v1/chat/completions', body: JSON.parse(chatBody), status: 200, response: [hex.slice(0, 20), hex.slice(20)], rawHeaders: ['Content-Encoding', 'gzip', 'Date', 'Thu, 18 Dec 2025 10:00:00 GMT'], responseIsBinary: false },
      { scope: 'https://api.anthropic.com:443', method: 'POST', path: '/v1/messages', body: { model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'synthetic' }] }, status: 200, response: { usage: { input_tokens: 8, output_tokens: 2 } }, rawHeaders: {} },
      { scope: 'https://example.com:443', method: 'GET', path: '/health', status: 200, response: 'ok' },
    ];
    const result = await readRequests([{ name: 'fixture.json', bytes: enc(JSON.stringify(defs, null, 2)) }]);
    expect(result.files[0]!.format).toBe('nock');
    expect(result.requests.map((r) => r.recorded)).toEqual([
      { input: 44, cacheRead: 256, cacheWrite5m: 0, cacheWrite1h: 0, output: 5 },
      { input: 8, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 2 },
    ]);
    expect(result.requests[0]!.timestamp).toBe(Date.UTC(2025, 11, 18, 10));
    expect(result.errors.map((e) => e.message)).toEqual(['skipped 1 nock recording entry that is no LLM call (by host: example.com 1)']);
  });
});
