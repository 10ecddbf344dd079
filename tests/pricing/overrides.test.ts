// --prices files: the documented shape, each problem located, and the rates applied to what the log recorded.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { parsePriceOverrides, PricesFileError } from '../../src/core/pricing/overrides.ts';

const file = (models: unknown, extra: object = {}) => JSON.stringify({ schema: 'ctxray.prices/1', source: 'contract 2026-11', pricedOn: '2026-11-20', models, ...extra });

function problems(text: string): readonly string[] {
  try {
    parsePriceOverrides(text, 'p.json');
  } catch (error) {
    if (error instanceof PricesFileError) return error.problems;
    throw error;
  }
  return [];
}

describe('parsePriceOverrides', () => {
  it('overrides the fields given and keeps the rest of the model', () => {
    const prices = parsePriceOverrides(file({ 'claude-sonnet-4-5': { input: 2.7, output: 13.5 } }), 'p.json');
    expect(prices).toMatchObject({ source: 'contract 2026-11', pricedOn: '2026-11-20' });
    expect(prices.models.get('claude-sonnet-4-5')).toMatchObject({ id: 'claude-sonnet-4-5', input: 2.7, output: 13.5, cacheRead: 0.3, cacheWrite5m: 3.75, minCacheableTokens: 1024 });
  });

  it('prices a model the table does not know "like" a known one', () => {
    const prices = parsePriceOverrides(file({ 'acme-claude': { like: 'claude-haiku-4-5', input: 0.8, output: 4 } }), 'p.json');
    expect(prices.models.get('acme-claude')).toMatchObject({ id: 'acme-claude', input: 0.8, output: 4, cacheRead: 0.1, tokenizer: 'claude-estimate' });
  });

  it('locates every problem in one report', () => {
    expect(problems(file({ x: { input: 1 } }, { schema: 'v2', pricedOn: '2026-02-30x', source: '' }))).toEqual([
      'p.json: schema: must be "ctxray.prices/1" (got "v2")',
      'p.json: source: must name where the rates come from, e.g. "contract 2026-11" (got "")',
      'p.json: pricedOn: must be a date YYYY-MM-DD (got "2026-02-30x")',
      'p.json: models["x"]: the price table has no such model: add "like": "<a known model id>" to take its cache rules and tokenizer, with "input" and "output"',
    ]);
    expect(problems(file({ 'gpt-4o': { input: '2', cacheWrite5m: null, output: 1e9, bogus: 1 } }))).toEqual([
      'p.json: models["gpt-4o"].bogus: unknown field (expected input, output, cacheRead, cacheWrite5m, cacheWrite1h, like, displayName)',
      'p.json: models["gpt-4o"].input: must be a number of USD per million tokens, 0 to 10000 (got "2")',
      'p.json: models["gpt-4o"].output: must be a number of USD per million tokens, 0 to 10000 (got 1000000000)',
    ]);
    expect(problems(file({ n: { like: 'gpt-4o', input: 1 } }))).toEqual(['p.json: models["n"]: a model priced "like" another needs its own "input" and "output"']);
    expect(problems(file({}))).toEqual(['p.json: models: must be an object of model id → prices with at least one entry (got an object)']);
    expect(problems('[1]')).toEqual(['p.json: expected a JSON object {"schema": "ctxray.prices/1", "models": {…}}, got an array']);
    expect(problems('{\n  "schema": 1,\n}')).toEqual(['p.json: not JSON (line 3, column 1: expected a double-quoted property name, found \'}\')']);
  });
});

describe('negotiated rates in an analysis', () => {
  it('prices the recorded usage at the file rates, by the id as written or the model it resolves to', async () => {
    // Synthetic: one Anthropic body with recorded usage (gateway envelope): 1,000 input, 2,000 read, 500 write, 100 out.
    const line = JSON.stringify({
      request: { model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
      response: { usage: { input_tokens: 1000, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500, output_tokens: 100 } },
    });
    const input = [{ name: 'log.jsonl', bytes: new TextEncoder().encode(line + '\n') }];
    const table = await analyzeInput(input);
    // Bedrock regional Sonnet 4.5: 3.3 / 0.33 / 4.125 / 16.5 → (1000×3.3 + 2000×0.33 + 500×4.125 + 100×16.5) / 1e6.
    expect(table.cache!.cost.billed.totals.total).toBeCloseTo((3300 + 660 + 2062.5 + 1650) / 1e6, 12);
    const prices = parsePriceOverrides(file({ 'claude-sonnet-4-5': { input: 2, cacheRead: 0.2, cacheWrite5m: 2.5, output: 10 } }), 'p.json');
    const negotiated = await analyzeInput(input, { prices });
    expect(negotiated.cache!.cost.billed.totals.total).toBeCloseTo((2000 + 400 + 1250 + 1000) / 1e6, 12);
    expect(negotiated.modelUse[0]).toMatchObject({ pricedAs: 'claude-sonnet-4-5', via: 'bedrock', priceSource: 'prices-file', pricedOn: '2026-11-20' });
  });
});
