// Requests of batch files are priced at the Batch APIs' half of every rate (cache rates included), from the recorded
// usage of the batch's results; requests of other files at the list price. Inputs are synthetic; the expected costs
// are worked out by hand from the table's rates (GPT-4o 2.50 in / 1.25 cached / 10 out; Claude Sonnet 4.5
// 3 in / 3.75 5m write / 0.30 read / 15 out, per MTok).
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { resolveModel } from '../../src/core/analysis/models.ts';
import { basisText, costHeadline } from '../../src/core/cache/headline.ts';
import type { InputFile } from '../../src/core/input/read-types.ts';

const enc = (lines: unknown[]) => new TextEncoder().encode(lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'synthetic batch question' }] };
const claude = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'synthetic batch question' }] };

async function billed(files: InputFile[]): Promise<{ total: number; batch: unknown[]; basis: string }> {
  const analysis = await analyzeInput(files);
  const record = buildRecord(analysis) as { requests: { batch?: true }[] };
  const totals = analysis.cache!.cost.billed.totals;
  return { total: totals.total, batch: record.requests.map((request) => request.batch), basis: basisText(costHeadline(totals, analysis.modelUse)) };
}

describe('Batch API prices', () => {
  it('an OpenAI batch input with its output file: half of 1,000 input and 100 output tokens at GPT-4o rates', async () => {
    const input = enc([{ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: chat }]);
    const output = enc([{ id: 'batch_req_1', custom_id: 'a', response: { status_code: 200, request_id: 'r', body: { model: 'gpt-4o', usage: { prompt_tokens: 1000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 0 } } } }, error: null }]);
    const { total, batch, basis } = await billed([
      { name: 'input.jsonl', bytes: input },
      { name: 'output.jsonl', bytes: output },
    ]);
    // (1,000 × 2.50 + 100 × 10) / 1e6 = 0.0035 at the list price.
    expect(total).toBeCloseTo(0.00175, 10);
    expect(batch).toEqual([true]);
    expect(basis).toBe('recorded usage of its one request, all at Batch API prices (half the list price)');
  });

  it('an Anthropic batch with its results: the cache write and read are halved too', async () => {
    const input = enc([{ custom_id: 'x', params: claude }]);
    const results = enc([{ custom_id: 'x', result: { type: 'succeeded', message: { usage: { input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 30, output_tokens: 7, service_tier: 'batch' } } } }]);
    const { total } = await billed([
      { name: 'requests.jsonl', bytes: input },
      { name: 'results.jsonl', bytes: results },
    ]);
    // (12 × 3 + 100 × 0.30 + 30 × 3.75 + 7 × 15) / 1e6 = 283.5e-6 at the list price.
    expect(total).toBeCloseTo(141.75e-6, 12);
  });

  it('the same body outside a batch file is priced at the list price and carries no batch mark', async () => {
    const logged = enc([{ request: claude, response: { usage: { input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 30, output_tokens: 7 } } }]);
    const { total, batch, basis } = await billed([{ name: 'gateway.jsonl', bytes: logged }]);
    expect(total).toBeCloseTo(283.5e-6, 12);
    expect(batch).toEqual([undefined]);
    expect(basis).toBe('recorded usage of its one request');
  });

  it('resolveModel halves every rate and says so; an unknown model stays unpriced', () => {
    const list = resolveModel({ model: 'claude-sonnet-4-5' }, null);
    const half = resolveModel({ model: 'claude-sonnet-4-5', batch: true }, null);
    expect([half.pricing!.input, half.pricing!.cacheWrite5m, half.pricing!.cacheWrite1h, half.pricing!.cacheRead, half.pricing!.output]).toEqual([1.5, 1.875, 3, 0.15, 7.5]);
    expect(half.routeNote).toBe('Batch API, 50% of the list price');
    expect(list.pricing!.input).toBe(3);
    expect(list.routeNote).toBeUndefined();
    expect(resolveModel({ model: 'no-such-model', batch: true }, null).pricing).toBeNull();
  });
});
