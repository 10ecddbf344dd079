// LiteLLM proxy logs. Synthetic rows, hand-made in the shapes LiteLLM writes them (SpendLogs rows as /spend/logs
// returns them, with metadata.usage_object; the StandardLoggingPayload its loggers write); every figure is worked
// out by hand from the rows below.
import { describe, expect, it } from 'vitest';
import { readRequests } from '../../src/core/input/index.ts';
import { liteLlmRecorded } from '../../src/core/formats/litellm-log.ts';

const enc = (text: string) => new TextEncoder().encode(text);

const spendRow = (over: Record<string, unknown>) => ({
  request_id: 'chatcmpl-synthetic',
  call_type: 'acompletion',
  api_key: 'hashed-synthetic',
  spend: 0.0123,
  total_tokens: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  startTime: '2026-03-01T10:00:00.000Z',
  endTime: '2026-03-01T10:00:02.000Z',
  model: 'claude-sonnet-4-5-20250929',
  model_group: 'my-claude',
  cache_hit: 'False',
  metadata: {},
  messages: {},
  response: {},
  proxy_server_request: {},
  ...over,
});

describe('LiteLLM proxy logs (synthetic)', () => {
  it('prompt_tokens includes cache reads and writes; usage_object keeps them apart', () => {
    // 1,000 uncached + 4,000 read + 500 written = 5,500.
    const row = spendRow({ prompt_tokens: 5500, completion_tokens: 70, metadata: { usage_object: { prompt_tokens: 5500, completion_tokens: 70, cache_read_input_tokens: 4000, cache_creation_input_tokens: 500 } } });
    expect(liteLlmRecorded(row)).toEqual({ input: 1000, cacheRead: 4000, cacheWrite5m: 500, cacheWrite1h: 0, output: 70 });
  });

  it('a total smaller than reads + writes is from a version that left the writes out', () => {
    // 10 uncached + 5,000 read = 5,010; 300 written on top, not in the total.
    const row = spendRow({ prompt_tokens: 5010, completion_tokens: 5, metadata: JSON.stringify({ usage_object: { cache_read_input_tokens: 5000, cache_creation_input_tokens: 300 } }) });
    expect(liteLlmRecorded(row)).toEqual({ input: 10, cacheRead: 5000, cacheWrite5m: 300, cacheWrite1h: 0, output: 5 });
  });

  it("OpenAI's prompt_tokens_details.cached_tokens when the Anthropic fields are absent", () => {
    const row = spendRow({ model: 'gpt-4.1', prompt_tokens: 2048, completion_tokens: 9, metadata: { usage_object: { prompt_tokens_details: { cached_tokens: 1024 } } } });
    expect(liteLlmRecorded(row)).toEqual({ input: 1024, cacheRead: 1024, cacheWrite5m: 0, cacheWrite1h: 0, output: 9 });
  });

  it('a JSON array of rows: the client body when stored, usage-only otherwise; cache hits, failures and embeddings skipped and counted', async () => {
    const sent = { model: 'my-claude', messages: [{ role: 'system', content: 'synthetic system' }, { role: 'user', content: 'synthetic question' }], tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }] };
    const rows = [
      spendRow({ prompt_tokens: 1200, completion_tokens: 30, proxy_server_request: sent, metadata: { usage_object: { cache_read_input_tokens: 0, cache_creation_input_tokens: 1000 } } }),
      spendRow({ prompt_tokens: 1250, completion_tokens: 12, startTime: '2026-03-01T10:05:00.000Z', metadata: { usage_object: { cache_read_input_tokens: 1000, cache_creation_input_tokens: 0 } } }),
      spendRow({ cache_hit: 'True', prompt_tokens: 1250 }),
      spendRow({ status: 'failure', prompt_tokens: 0 }),
      spendRow({ call_type: 'aembedding', model: 'text-embedding-3-small', prompt_tokens: 8 }),
    ];
    const result = await readRequests([{ name: 'spend-logs.json', bytes: enc(JSON.stringify(rows, null, 2)) }]);
    expect(result.files[0]!.format).toBe('litellm-log');
    expect(result.errors.map((e) => e.message)).toEqual(["skipped 3 LiteLLM rows that sent no billed prompt (answered from LiteLLM's cache 1, failed 1, aembedding 1)"]);
    const [first, second] = result.requests;
    expect(result.requests).toHaveLength(2);
    // The logged model replaces the gateway alias the client named; the body's tools and messages are read.
    expect(first!.model).toBe('claude-sonnet-4-5-20250929');
    expect(first!.format).toBe('openai-chat');
    expect(new Set(first!.segments.map((s) => s.category))).toEqual(new Set(['system', 'tools', 'user']));
    expect(first!.recorded).toEqual({ input: 200, cacheRead: 0, cacheWrite5m: 1000, cacheWrite1h: 0, output: 30 });
    expect(first!.timestamp).toBe(Date.UTC(2026, 2, 1, 10, 0, 0));
    // Bodies not stored: the recorded figures and a usage-only note.
    expect(second!.segments).toHaveLength(0);
    expect(second!.notes.map((n) => n.code)).toContain('usage_only');
    expect(second!.recorded).toEqual({ input: 250, cacheRead: 1000, cacheWrite5m: 0, cacheWrite1h: 0, output: 12 });
  });

  it('the StandardLoggingPayload (JSONL), messages with model_parameters.tools, epoch-second times', async () => {
    const payload = {
      id: 'synthetic-1',
      trace_id: 't',
      call_type: 'completion',
      response_cost: 0.002,
      status: 'success',
      prompt_tokens: 40,
      completion_tokens: 4,
      startTime: 1767225600.25,
      model: 'gpt-4o-mini',
      metadata: { usage_object: { prompt_tokens: 40, completion_tokens: 4 } },
      messages: [{ role: 'user', content: 'synthetic' }],
      model_parameters: { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] },
      response: { choices: [] },
    };
    const lines = [JSON.stringify(payload), JSON.stringify({ ...payload, id: 'synthetic-2', call_type: 'image_generation' })].join('\n');
    const result = await readRequests([{ name: 'litellm.jsonl', bytes: enc(lines) }]);
    expect(result.requests.map((r) => [r.line, r.model, r.recorded!.input, r.timestamp])).toEqual([[1, 'gpt-4o-mini', 40, 1767225600250]]);
    expect(new Set(result.requests[0]!.segments.map((s) => s.category))).toEqual(new Set(['tools', 'user']));
    expect(result.errors.map((e) => e.message)).toEqual(['skipped 1 LiteLLM row that sent no billed prompt (image_generation 1)']);
  });

  it('the paged {data: [...]} answer; a log of only embeddings says what it held', async () => {
    const page = { data: [spendRow({ call_type: 'aembedding' }), spendRow({ call_type: 'aembedding' })], total: 2, page: 1 };
    const result = await readRequests([{ name: 'logs.json', bytes: enc(JSON.stringify(page)) }]);
    expect(result.requests).toHaveLength(0);
    expect(result.errors.map((e) => e.message)).toEqual(['this LiteLLM log holds no billed LLM call: 2 rows (aembedding 2)']);
  });
});
