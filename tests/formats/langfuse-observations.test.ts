// Langfuse observation exports. Synthetic observations, hand-made in the shapes Langfuse exports them (the UI's
// JSON/JSONL export, the public API's {data, meta} pages, a trace with its observations, ClickHouse snake_case
// columns); every figure is worked out by hand from the records below.
import { describe, expect, it } from 'vitest';
import { readRequests } from '../../src/core/input/index.ts';
import { observationRecorded } from '../../src/core/formats/langfuse-observations.ts';

const enc = (text: string) => new TextEncoder().encode(text);

const generation = (over: Record<string, unknown>) => ({
  id: 'obs-synthetic',
  traceId: 'trace-synthetic',
  type: 'GENERATION',
  name: 'chat',
  startTime: '2026-04-02T08:00:00.000Z',
  endTime: '2026-04-02T08:00:01.000Z',
  model: 'claude-haiku-4-5',
  modelParameters: { max_tokens: 512 },
  input: [{ role: 'user', content: 'synthetic question' }],
  output: { role: 'assistant', content: 'synthetic answer' },
  usageDetails: { input: 12, output: 6, total: 18 },
  ...over,
});

describe('Langfuse observations (synthetic)', () => {
  it("usageDetails in Langfuse's convention: input excludes the cache keys, each key on its own", () => {
    const observation = generation({ usageDetails: { input: 30, output: 5, cache_read_input_tokens: 2000, cache_creation_input_tokens: 400, total: 2435 } });
    expect(observationRecorded(observation)).toEqual({ input: 30, cacheRead: 2000, cacheWrite5m: 400, cacheWrite1h: 0, output: 5 });
    const openai = generation({ usageDetails: { input: 1000, input_cached_tokens: 3072, output: 8 } });
    expect(observationRecorded(openai)).toEqual({ input: 1000, cacheRead: 3072, cacheWrite5m: 0, cacheWrite1h: 0, output: 8 });
    // Mastra's Langfuse exporter (synthetic, in its LangfuseUsageMetrics shape): writes as cache_write_input_tokens.
    const mastra = generation({ usageDetails: { input: 40, output: 7, cache_read_input_tokens: 900, cache_write_input_tokens: 300 } });
    expect(observationRecorded(mastra)).toEqual({ input: 40, cacheRead: 900, cacheWrite5m: 300, cacheWrite1h: 0, output: 7 });
  });

  it('the legacy usage object and promptTokens when there are no usageDetails', () => {
    expect(observationRecorded(generation({ usageDetails: undefined, usage: { input: 70, output: 3, unit: 'TOKENS' } }))).toEqual({ input: 70, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 3 });
    expect(observationRecorded(generation({ usageDetails: undefined, promptTokens: 9, completionTokens: 1 }))).toEqual({ input: 9, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 1 });
    expect(observationRecorded(generation({ usageDetails: {} }))).toBeNull();
  });

  it('an API page: generations become requests, spans and events are skipped silently beside them', async () => {
    const page = {
      data: [
        generation({ input: { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'synthetic' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] } }),
        { id: 's', traceId: 'trace-synthetic', type: 'SPAN', name: 'retrieve', startTime: '2026-04-02T07:59:59.000Z' },
        generation({ id: 'obs-2', startTime: '2026-04-02T08:01:00.000Z', input: 'a plain string prompt' }),
      ],
      meta: { page: 1, limit: 50, totalItems: 3, totalPages: 1 },
    };
    const result = await readRequests([{ name: 'observations.json', bytes: enc(JSON.stringify(page)) }]);
    expect(result.errors).toEqual([]);
    expect(result.files[0]!.format).toBe('langfuse-observations');
    expect(result.requests.map((r) => [r.model, r.timestamp, r.recorded!.input])).toEqual([
      ['claude-haiku-4-5', Date.UTC(2026, 3, 2, 8, 0, 0), 12],
      ['claude-haiku-4-5', Date.UTC(2026, 3, 2, 8, 1, 0), 12],
    ]);
    expect(new Set(result.requests[0]!.segments.map((s) => s.category))).toEqual(new Set(['system', 'tools', 'user']));
  });

  it('a trace with its observations, in ClickHouse snake_case; a generation without input is usage-only', async () => {
    const snake = { id: 'o1', trace_id: 't1', type: 'GENERATION', start_time: '2026-04-02 09:00:00.000', model: 'gpt-4o', input: null, usage_details: { input: 100, output: 2 } };
    const trace = { id: 't1', name: 'synthetic', observations: [snake] };
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(trace)) }]);
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]!.notes.map((n) => n.code)).toContain('usage_only');
    expect(result.requests[0]!.recorded).toEqual({ input: 100, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 2 });
  });

  it('an export with no GENERATION says what it held', async () => {
    const lines = [{ id: 'a', traceId: 't', type: 'SPAN', startTime: '2026-04-02T08:00:00Z' }, { id: 'b', traceId: 't', type: 'EVENT', startTime: '2026-04-02T08:00:00Z' }, { id: 'c', traceId: 't', type: 'SPAN', startTime: '2026-04-02T08:00:00Z' }].map((o) => JSON.stringify(o)).join('\n');
    const result = await readRequests([{ name: 'obs.jsonl', bytes: enc(lines) }]);
    expect(result.requests).toHaveLength(0);
    expect(result.errors.map((e) => e.message)).toEqual(['this Langfuse export holds no GENERATION (LLM call): SPAN 2, EVENT 1']);
  });
});
