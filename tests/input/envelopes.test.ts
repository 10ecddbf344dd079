// Envelopes, layouts, recorded usage, timestamps and batch outputs (all inputs synthetic).
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { describe, expect, it } from 'vitest';
import { classifyRecord } from '../../src/core/input/envelope.ts';
import { recordedUsage } from '../../src/core/input/usage.ts';
import { anthropicBody, chatBody, jsonl, readOne, readText, responsesBody } from './helpers.ts';

describe('layouts', () => {
  it('numbers the bodies of a JSON array 1-based', async () => {
    const result = await readOne('array.json', JSON.stringify([chatBody('a'), chatBody('b'), chatBody('c')], null, 2));
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.line, r.format])).toEqual([
      [1, 'openai-chat'],
      [2, 'openai-chat'],
      [3, 'openai-chat'],
    ]);
    expect(result.files[0]).toMatchObject({ layout: 'json-array', envelope: 'none', records: 3, requests: 3 });
  });

  it('reads one pretty-printed body as line 1', async () => {
    const result = await readOne('body.json', JSON.stringify(responsesBody('x'), null, 2));
    expect(result.errors).toEqual([]);
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]).toMatchObject({ line: 1, format: 'openai-responses' });
    expect(result.files[0]!.layout).toBe('json-document');
  });

  it('locates a syntax error inside a pretty-printed document', async () => {
    const result = await readOne('body.json', '{\n  "model": "gpt-4o",\n  "messages": [,]\n}');
    expect(result.requests).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.line).toBe(3);
    expect(result.errors[0]!.message).toMatch(/^invalid JSON: .* at line 3, column 16$/);
  });

  it('reports a record that is not an object', async () => {
    const result = await readOne('array.json', JSON.stringify([chatBody('a'), 42, 'text']));
    expect(result.errors).toEqual([
      // One-line array: every element starts on line 1; `line` holds the record number.
      { file: 0, line: 2, recordNumber: 2, message: 'record 2 (line 1): record is a JSON number, not an object' },
      { file: 0, line: 3, recordNumber: 3, message: 'record 3 (line 1): record is a JSON string, not an object' },
    ]);
  });
});

describe('batch envelopes', () => {
  it('unwraps Anthropic Message Batches lines and keeps the custom_id', async () => {
    const text = jsonl({ custom_id: 'req-1', params: anthropicBody('a') }, { custom_id: 'req-2', params: anthropicBody('b') });
    const result = await readOne('batch.jsonl', text);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.customId, r.format, r.line])).toEqual([
      ['req-1', 'anthropic-messages', 1],
      ['req-2', 'anthropic-messages', 2],
    ]);
    expect(result.files[0]).toMatchObject({ envelope: 'anthropic-batch', format: 'anthropic-messages' });
  });

  it('unwraps the Message Batches API body {"requests": [...]}', async () => {
    const body = { requests: [{ custom_id: 'a', params: anthropicBody('one') }, { custom_id: 'b', params: anthropicBody('two') }] };
    const result = await readOne('batch-body.json', JSON.stringify(body, null, 2));
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.line, r.customId])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(result.files[0]).toMatchObject({ layout: 'batch-body', envelope: 'anthropic-batch' });
  });

  it('unwraps a batch API body written on one line', async () => {
    const body = { requests: [{ custom_id: 'a', params: anthropicBody('one') }, { custom_id: 'b', params: anthropicBody('two') }] };
    const result = await readOne('batch-body.json', JSON.stringify(body));
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.line, r.customId])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(result.files[0]).toMatchObject({ layout: 'batch-body', envelope: 'anthropic-batch', records: 2 });
  });

  it('unwraps OpenAI Batch input lines, taking the format from the url', async () => {
    // A bare {model, messages} body is ambiguous by structure; the endpoint settles it.
    const bare = { model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
    const text = jsonl(
      { custom_id: 'c1', method: 'POST', url: '/v1/chat/completions', body: bare },
      { custom_id: 'r1', method: 'POST', url: '/v1/responses', body: responsesBody('x') },
      { custom_id: 'e1', method: 'POST', url: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: 'x' } },
    );
    const result = await readOne('openai-batch.jsonl', text);
    expect(result.requests.map((r) => [r.customId, r.format])).toEqual([
      ['c1', 'openai-chat'],
      ['r1', 'openai-responses'],
    ]);
    expect(result.errors).toEqual([
      { file: 0, line: 3, message: 'OpenAI batch line for endpoint "/v1/embeddings", which holds no chat or responses request' },
    ]);
  });

  it('attaches Anthropic batch results to the input request with the same custom_id', async () => {
    const input = jsonl({ custom_id: 'x', params: anthropicBody('a') }, { custom_id: 'y', params: anthropicBody('b') });
    const results = jsonl(
      {
        custom_id: 'y',
        result: {
          type: 'succeeded',
          message: { usage: { input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 30, output_tokens: 7 } },
        },
      },
      { custom_id: 'x', result: { type: 'errored', error: { type: 'invalid_request' } } },
    );
    const result = await readText({ 'input.jsonl': input, 'results.jsonl': results });
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => r.recorded)).toEqual([
      null,
      { input: 12, cacheRead: 100, cacheWrite5m: 30, cacheWrite1h: 0, output: 7 },
    ]);
    expect(result.files[1]).toMatchObject({ envelope: 'anthropic-batch-results', format: null, records: 2, requests: 0, errors: 0 });
  });

  it('attaches OpenAI batch output usage (prompt_tokens minus cached tokens)', async () => {
    const input = jsonl({ custom_id: 'q', method: 'POST', url: '/v1/chat/completions', body: chatBody('a') });
    const output = jsonl({
      id: 'batch_req_1',
      custom_id: 'q',
      response: {
        status_code: 200,
        request_id: 'r',
        body: { usage: { prompt_tokens: 2000, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 1536 } } },
      },
      error: null,
    });
    const result = await readText({ 'in.jsonl': input, 'out.jsonl': output });
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.recorded).toEqual({ input: 464, cacheRead: 1536, cacheWrite5m: 0, cacheWrite1h: 0, output: 9 });
  });

  it('matches batch results listed before their input file', async () => {
    const results = jsonl({ custom_id: 'z', result: { type: 'succeeded', message: { usage: { input_tokens: 4, output_tokens: 2 } } } });
    const input = jsonl({ custom_id: 'z', params: anthropicBody('a') });
    const result = await readText({ 'results.jsonl': results, 'input.jsonl': input });
    expect(result.errors).toEqual([]);
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]).toMatchObject({ file: 1, index: 0, recorded: { input: 4, output: 2 } });
  });

  it('reports batch results whose custom_id matches no request of the input files given', async () => {
    const input = jsonl({ custom_id: 'x', params: anthropicBody('a') });
    const results = jsonl(
      { custom_id: 'nope', result: { type: 'succeeded', message: { usage: { input_tokens: 1, output_tokens: 1 } } } },
      { custom_id: 'nope2', result: { type: 'expired' } },
    );
    const result = await readText({ 'input.jsonl': input, 'results.jsonl': results });
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]!.recorded).toBeNull();
    expect(result.errors).toEqual([
      { file: 1, line: 1, message: '2 batch results with a custom_id that no request in the input files has (give the batch input file too)' },
    ]);
  });

  it('reads batch results alone as usage-only requests: model, recorded usage, Batch API prices; no usage, no request', async () => {
    const anthropic = jsonl(
      { custom_id: 'a', result: { type: 'succeeded', message: { model: 'claude-sonnet-4-5', usage: { input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 30, output_tokens: 7 } } } },
      { custom_id: 'b', result: { type: 'expired' } },
    );
    const openai = jsonl({ id: 'batch_req_1', custom_id: 'c', response: { status_code: 200, body: { object: 'response', model: 'gpt-5', created_at: 1767225600, usage: { input_tokens: 500, input_tokens_details: { cached_tokens: 300 }, output_tokens: 20 } } }, error: null });
    const result = await readText({ 'results.jsonl': anthropic, 'output.jsonl': openai });
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.file, r.line, r.format, r.model, r.customId, r.batch, r.timestamp, r.notes.map((n) => n.code)])).toEqual([
      [0, 1, 'anthropic-messages', 'claude-sonnet-4-5', 'a', true, null, ['usage_only']],
      [1, 1, 'openai-responses', 'gpt-5', 'c', true, Date.UTC(2026, 0, 1), ['usage_only']],
    ]);
    expect(result.requests.map((r) => r.recorded)).toEqual([
      { input: 12, cacheRead: 100, cacheWrite5m: 30, cacheWrite1h: 0, output: 7 },
      { input: 200, cacheRead: 300, cacheWrite5m: 0, cacheWrite1h: 0, output: 20 },
    ]);
    expect(result.files.map((f) => [f.requests, f.format])).toEqual([
      [1, 'anthropic-messages'],
      [1, 'openai-responses'],
    ]);
  });
});

describe('batch results alone with impossible usage (SYNTHETIC)', () => {
  it('reject the value with a located warning, as a matched input request would, instead of clamping it', async () => {
    const output = jsonl({ id: 'batch_req_1', custom_id: 'c', response: { status_code: 200, body: { model: 'gpt-4o', usage: { prompt_tokens: -5, completion_tokens: 2 } } }, error: null });
    const analysis = await analyzeInput([{ name: 'output.jsonl', bytes: new TextEncoder().encode(output) }]);
    expect(analysis.requests).toHaveLength(1);
    expect(analysis.requests[0]!.recorded).toBeNull();
    expect(analysis.requests[0]!.notes.map((n) => n.code)).toEqual(['usage_only', 'recorded_usage_rejected']);
    expect(analysis.usageWarnings).toEqual([{ file: 0, line: 1, request: 0, field: 'usage.prompt_tokens', value: -5, reason: 'negative' }]);
  });
});

describe('gateway envelopes', () => {
  it.each(['request', 'request_body', 'body'])('unwraps bodies under "%s" with the response usage and timestamp', async (key) => {
    const text = jsonl(
      {
        timestamp: '2026-03-01T10:00:00.000Z',
        [key]: anthropicBody('a'),
        response: { usage: { input_tokens: 3, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 400 }, output_tokens: 50 } },
      },
      { created_at: 1772359260, [key]: JSON.stringify(anthropicBody('b')), response: { body: JSON.stringify({ usage: { input_tokens: 9, output_tokens: 1 } }) } },
    );
    const result = await readOne('gateway.jsonl', text);
    expect(result.errors).toEqual([]);
    expect(result.files[0]!.envelope).toBe(`gateway:${key}`);
    expect(result.requests.map((r) => r.timestamp)).toEqual([Date.UTC(2026, 2, 1, 10, 0, 0), 1772359260000]);
    expect(result.requests.map((r) => r.recorded)).toEqual([
      { input: 3, cacheRead: 2000, cacheWrite5m: 100, cacheWrite1h: 400, output: 50 },
      { input: 9, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 1 },
    ]);
  });

  it('reads usage from a streamed Anthropic response (message_start, then message_delta overlays output)', async () => {
    const events = [
      { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 10, cache_read_input_tokens: 1200, cache_creation_input_tokens: 0, output_tokens: 1 } } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'synthetic' } },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 57, input_tokens: null } },
    ];
    const result = await readOne('stream.jsonl', jsonl({ request: anthropicBody('a'), response: events }));
    expect(result.requests[0]!.recorded).toEqual({ input: 10, cacheRead: 1200, cacheWrite5m: 0, cacheWrite1h: 0, output: 57 });
  });

  it('reads usage from server-sent-event text (Chat Completions stream with a final usage chunk)', async () => {
    const sse = [
      'data: {"id":"c1","choices":[{"delta":{"content":"syn"}}],"usage":null}',
      '',
      'data: {"id":"c1","choices":[],"usage":{"prompt_tokens":1300,"completion_tokens":12,"prompt_tokens_details":{"cached_tokens":1152}}}',
      '',
      'data: [DONE]',
      '',
    ].join('\n');
    const result = await readOne('sse.jsonl', jsonl({ request: chatBody('a'), response: sse }));
    expect(result.requests[0]!.recorded).toEqual({ input: 148, cacheRead: 1152, cacheWrite5m: 0, cacheWrite1h: 0, output: 12 });
  });

  it('reads usage from a Responses stream (response.completed event)', async () => {
    const events = [
      { type: 'response.created', response: { id: 'r', usage: null } },
      { type: 'response.completed', response: { id: 'r', usage: { input_tokens: 2048, output_tokens: 5, input_tokens_details: { cached_tokens: 1920 } } } },
    ];
    const result = await readOne('r.jsonl', jsonl({ request: responsesBody('a'), response: events }));
    expect(result.requests[0]!.recorded).toEqual({ input: 128, cacheRead: 1920, cacheWrite5m: 0, cacheWrite1h: 0, output: 5 });
  });

  it('reads a claude-trace pair: body null, the stream as SSE text in body_raw', async () => {
    const bodyRaw =
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":4,"cache_creation_input_tokens":700,"cache_read_input_tokens":15000,"output_tokens":2}}}\n\n' +
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":311}}\n\n';
    const pair = {
      request: { timestamp: 1748000000.5, method: 'POST', url: 'https://api.anthropic.com/v1/messages?beta=true', headers: {}, body: anthropicBody('a') },
      response: { timestamp: 1748000003.1, status_code: 200, headers: {}, body: null, body_raw: bodyRaw },
      logged_at: '2025-05-23T11:33:23.000Z',
    };
    const result = await readOne('log-2025-05-23.jsonl', jsonl(pair));
    expect(result.errors).toEqual([]);
    expect(result.requests[0]).toMatchObject({ timestamp: 1748000000500, recorded: { input: 4, cacheRead: 15000, cacheWrite5m: 700, cacheWrite1h: 0, output: 311 } });
  });

  it("reads the recorder's capture: the usage written beside the exchange wins, else the response's sse text", async () => {
    const sse = 'data: {"choices":[],"usage":{"prompt_tokens":90,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":64}}}\n\ndata: [DONE]\n\n';
    const text = jsonl(
      {
        request: { timestamp: '2026-03-01T10:00:00.000Z', method: 'POST', path: '/v1/chat/completions', body: chatBody('a') },
        response: { timestamp: '2026-03-01T10:00:01.000Z', status: 200, sse },
        usage: { prompt_tokens: 100, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 80 } },
      },
      { request: { timestamp: '2026-03-01T10:00:02.000Z', method: 'POST', path: '/v1/chat/completions', body: chatBody('b') }, response: { status: 200, sse } },
    );
    const result = await readOne('capture.jsonl', text);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => r.recorded)).toEqual([
      { input: 20, cacheRead: 80, cacheWrite5m: 0, cacheWrite1h: 0, output: 4 },
      { input: 26, cacheRead: 64, cacheWrite5m: 0, cacheWrite1h: 0, output: 3 },
    ]);
    expect(result.requests[1]!.timestamp).toBe(Date.UTC(2026, 2, 1, 10, 0, 2));
  });

  it('attaches no usage when the captured response holds none (an error status, text that is not JSON)', async () => {
    const text = jsonl(
      { request: { method: 'POST', url: 'u', body: anthropicBody('a') }, response: { status_code: 529, body: { type: 'error', error: { type: 'overloaded_error' } } } },
      { request: { method: 'POST', url: 'u', body: anthropicBody('b') }, response: { status_code: 502, body_raw: 'Bad gateway' } },
    );
    const result = await readOne('capture.jsonl', text);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => r.recorded)).toEqual([null, null]);
  });

  it('reads a gateway record that also carries a custom_id as a gateway record, not a batch output', async () => {
    const usage = { prompt_tokens: 40, completion_tokens: 2 };
    const result = await readOne('g.jsonl', jsonl({ custom_id: 'x1', request: chatBody('a'), response: { usage } }));
    expect(result.errors).toEqual([]);
    expect(result.files[0]!.envelope).toBe('gateway:request');
    expect(result.requests[0]).toMatchObject({ customId: 'x1', recorded: { input: 40, output: 2 } });
  });

  it('reads the response usage and time logged beside a bare body', async () => {
    const record = { ...chatBody('a'), startTime: '2026-03-01T10:01:00.123Z', response: { usage: { prompt_tokens: 30, completion_tokens: 4 } } };
    const result = await readOne('litellm.jsonl', jsonl(record));
    expect(result.errors).toEqual([]);
    expect(result.files[0]!.envelope).toBe('none');
    expect(result.requests[0]).toMatchObject({ timestamp: 1772359260123, recorded: { input: 30, output: 4 } });
  });

  it('unwraps an HTTP capture {request: {method, url, body}} one level deeper', async () => {
    const text = jsonl({ start_time: 1772359260123, request: { method: 'POST', url: 'https://gateway.invalid/v1/responses', body: responsesBody('x') } });
    const result = await readOne('capture.jsonl', text);
    expect(result.errors).toEqual([]);
    expect(result.requests[0]).toMatchObject({ format: 'openai-responses', timestamp: 1772359260123 });
  });

  it('reads OpenAI Responses usage with cache writes subtracted from the input', async () => {
    const usage = { input_tokens: 5000, output_tokens: 20, input_tokens_details: { cached_tokens: 3000, cache_write_tokens: 1500 } };
    const result = await readOne('g.jsonl', jsonl({ request: responsesBody('x'), response: { usage } }));
    expect(result.requests[0]!.recorded).toEqual({ input: 500, cacheRead: 3000, cacheWrite5m: 1500, cacheWrite1h: 0, output: 20 });
  });

  it('does not unwrap when not every record shares the envelope', async () => {
    // Line 2 is a bare body: the wrapper of line 1 is not trusted, so line 1 is reported instead of unwrapped.
    const text = jsonl({ request: anthropicBody('a') }, anthropicBody('b'), { request: anthropicBody('c') });
    const result = await readOne('mixed.jsonl', text);
    expect(result.requests.map((r) => r.line)).toEqual([2]);
    expect(result.errors.map((e) => e.line).sort()).toEqual([1, 3]);
    expect(result.errors[0]!.message).toBe(
      'record has the gateway:request envelope but other records of this file do not; envelopes are unwrapped only when every record shares one',
    );
    expect(result.files[0]!.envelope).toBe('mixed');
  });

  it('never takes a body that has a "body" field for a wrapper', async () => {
    const body = { ...chatBody('a'), body: { note: 'synthetic field' } };
    const result = await readOne('b.jsonl', jsonl(body));
    expect(result.errors).toEqual([]);
    expect(result.files[0]!.envelope).toBe('none');
    expect(result.requests[0]!.format).toBe('openai-chat');
  });

  it('reports a wrapper whose JSON text is broken', async () => {
    const result = await readOne('g.jsonl', jsonl({ request_body: '{"model": ', response: {} }, { request_body: JSON.stringify(chatBody('x')) }));
    expect(result.requests.map((r) => r.line)).toEqual([2]);
    expect(result.errors).toEqual([{ file: 0, line: 1, message: 'field "request_body": holds text that is not valid JSON' }]);
  });
});

describe('a body that also holds a key named like a gateway wrapper', () => {
  it('stays a body when it has any one of messages, input, instructions or system', () => {
    const wrapper = { body: { model: 'synthetic' }, request: { model: 'synthetic' } };
    for (const own of [{ messages: [] }, { input: 'hi' }, { instructions: 'be brief' }, { system: 'be brief' }]) {
      expect(classifyRecord({ model: 'synthetic', ...own, ...wrapper }), JSON.stringify(own)).toBe('none');
    }
    expect(classifyRecord({ model: 'synthetic', ...wrapper })).toBe('gateway:request');
  });
});

describe('recorded usage', () => {
  it('reads Anthropic cache fields as Anthropic usage whatever the wire format', () => {
    const anthropicUsage = { input_tokens: 100, cache_read_input_tokens: 50, output_tokens: 5 };
    expect(recordedUsage(anthropicUsage, 'openai-responses')).toEqual({ input: 100, cacheRead: 50, cacheWrite5m: 0, cacheWrite1h: 0, output: 5 });
  });

  it('bills the part of a cache write the TTL split does not cover at 5 minutes', () => {
    const split = { input_tokens: 10, cache_creation_input_tokens: 1000, cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 500 }, output_tokens: 1 };
    // 1,000 written, 500 of them 1h: the other 500 are 5m even though the split names only 300.
    expect(recordedUsage(split, 'anthropic-messages')).toMatchObject({ cacheWrite5m: 500, cacheWrite1h: 500 });
  });

  it('sums the passes of a server-side compaction (usage.iterations), each billed; an empty list is the top level', () => {
    // As a recorded streaming compaction ends (pydantic-ai's cassette): the top level repeats the message pass.
    const pass = (type: string, input: number, read: number, write: number, output: number) => ({ type, input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: write, output_tokens: output });
    const compacted = { ...pass('message', 181, 0, 0, 8), iterations: [pass('compaction', 100, 55096, 0, 83), pass('message', 181, 0, 0, 8)] };
    expect(recordedUsage(compacted, 'anthropic-messages')).toEqual({ input: 281, cacheRead: 55096, cacheWrite5m: 0, cacheWrite1h: 0, output: 91 });
    // Claude Code writes `iterations: []` on every call.
    expect(recordedUsage({ ...pass('message', 7, 900, 20, 3), iterations: [] }, 'anthropic-messages')).toEqual({ input: 7, cacheRead: 900, cacheWrite5m: 20, cacheWrite1h: 0, output: 3 });
    // A list it cannot read (an entry without input_tokens) leaves the top level as it is.
    expect(recordedUsage({ ...pass('message', 7, 0, 0, 3), iterations: [{ type: 'compaction' }] }, 'anthropic-messages')).toMatchObject({ input: 7, output: 3 });
  });
});

describe('format detection and override', () => {
  it('detects each file separately', async () => {
    const result = await readText({ 'a.jsonl': jsonl(anthropicBody()), 'b.jsonl': jsonl(chatBody()), 'c.jsonl': jsonl(responsesBody()) });
    expect(result.files.map((f) => f.format)).toEqual(['anthropic-messages', 'openai-chat', 'openai-responses']);
    expect(result.requests.map((r) => [r.file, r.index])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  it('gives ambiguous bodies the format a later body of the file settles', async () => {
    // Line 1 alone would look like Anthropic (max_tokens, no other signal); line 2 has a tool message.
    const ambiguous = { model: 'gpt-4o', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    const settled = { model: 'gpt-4o', messages: [{ role: 'tool', tool_call_id: 'c', content: 'r' }] };
    const result = await readOne('chat.jsonl', jsonl(ambiguous, settled));
    expect(result.requests.map((r) => r.format)).toEqual(['openai-chat', 'openai-chat']);
  });

  it('uses the format option over detection', async () => {
    const result = await readOne('x.jsonl', jsonl({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }), { format: 'openai-chat' });
    expect(result.requests[0]!.format).toBe('openai-chat');
  });

  it('reports a record that is no request body at all', async () => {
    const result = await readOne('x.jsonl', jsonl({ hello: 'world' }));
    expect(result.errors).toEqual([
      { file: 0, line: 1, message: 'not a request body: no `messages` (Anthropic Messages, Chat Completions) or `input`/`instructions` (Responses); it looks like an object {hello}; formats tried: anthropic-messages, openai-chat, openai-responses, har, vcr-cassette, nock, otel-spans, litellm-log, langfuse-observations, codex-rollout, cline-task, pi-session, gemini-cli, claude-code, opencode-storage' },
    ]);
  });

  it('interns repeated history across requests', async () => {
    const history = 'synthetic long history '.repeat(50);
    const result = await readOne('h.jsonl', jsonl(chatBody(history), chatBody(history)));
    const [a, b] = result.requests;
    expect(a!.segments[1]!.text).toBe(b!.segments[1]!.text);
    // Two requests × (system text + wire, user text + wire) but only 4 distinct strings.
    expect(result.distinctTexts).toBe(4);
  });
});
