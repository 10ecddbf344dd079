// Token totals and model resolution with hand-built counts (synthetic requests).
import { describe, expect, it } from 'vitest';
import { modelUseOf, resolveModel } from '../../src/core/analysis/models.ts';
import { addRequest, emptyTotals, recountTotals } from '../../src/core/analysis/totals.ts';
import type { Analysis } from '../../src/core/analysis/types.ts';
import type { ParsedRequest } from '../../src/core/model.ts';
import type { RequestTokens } from '../../src/core/tokens/counter.ts';

function counted(total: number, overhead: number, exact: boolean, byCategory: RequestTokens['byCategory']): RequestTokens {
  return {
    segments: [],
    overhead: { framing: overhead, toolsPreamble: 0, toolUseSystem: 0 },
    overheadTotal: overhead,
    framing: [],
    total,
    exact,
    byCategory,
    tokenizer: 'o200k_base',
    notes: [],
  };
}

function requestNaming(model: string | null): ParsedRequest {
  return { model } as ParsedRequest;
}

describe('addRequest', () => {
  it('sums requests, tokens, overhead, exact requests and each category', () => {
    const totals = emptyTotals();
    addRequest(totals, counted(15, 7, true, { user: 5, system: 3 }));
    addRequest(totals, counted(10, 4, false, { user: 6 }));
    expect(totals).toEqual({ requests: 2, tokens: 25, exactRequests: 1, overhead: 11, byCategory: { user: 11, system: 3 } });
  });
});

describe('recountTotals', () => {
  it('recounts each file from the new counts and leaves the analysis’s files as they were', () => {
    const original = emptyTotals();
    addRequest(original, counted(100, 0, true, { user: 100 }));
    const analysis = {
      files: [
        { name: 'a.jsonl', totals: original },
        { name: 'b.jsonl', totals: emptyTotals() },
      ],
      requests: [{ file: 0 }, { file: 1 }, { file: 1 }],
    } as unknown as Analysis;
    const { files, totals } = recountTotals(analysis, [counted(8, 3, true, { user: 5 }), counted(9, 3, false, { tool_result: 6 }), counted(4, 3, false, { user: 1 })]);
    expect(totals).toEqual({ requests: 3, tokens: 21, exactRequests: 1, overhead: 9, byCategory: { user: 6, tool_result: 6 } });
    expect(files.map((file) => file.totals)).toEqual([
      { requests: 1, tokens: 8, exactRequests: 1, overhead: 3, byCategory: { user: 5 } },
      { requests: 2, tokens: 13, exactRequests: 0, overhead: 6, byCategory: { tool_result: 6, user: 1 } },
    ]);
    expect(analysis.files[0]?.totals.tokens).toBe(100);
  });

  it('counts a count without a request in the input totals only', () => {
    const analysis = { files: [{ name: 'a.jsonl', totals: emptyTotals() }, { name: 'b.jsonl', totals: emptyTotals() }], requests: [{ file: 0 }] } as unknown as Analysis;
    const { files, totals } = recountTotals(analysis, [counted(8, 3, true, {}), counted(5, 3, true, {})]);
    expect(totals.requests).toBe(2);
    expect(files.map((file) => file.totals.requests)).toEqual([1, 0]);
  });
});

describe('resolveModel', () => {
  it('gives no model for a request that names none or an empty id', () => {
    const none = { id: null, source: 'none', pricing: null, via: null };
    expect(resolveModel(requestNaming(null), null)).toEqual(none);
    expect(resolveModel(requestNaming(''), null)).toEqual(none);
  });

  it('takes the override over the request’s id, and says which it used', () => {
    expect(resolveModel(requestNaming('gpt-4o'), 'gpt-5')).toMatchObject({ id: 'gpt-5', source: 'override' });
    expect(resolveModel(requestNaming(null), 'gpt-5')).toMatchObject({ id: 'gpt-5', source: 'override' });
    expect(resolveModel(requestNaming('gpt-4o'), null)).toMatchObject({ id: 'gpt-4o', source: 'request', via: 'api' });
  });

  it('keeps an unknown id without pricing it', () => {
    expect(resolveModel(requestNaming('no-such-model-1'), null)).toEqual({ id: 'no-such-model-1', source: 'request', pricing: null, via: null });
  });
});

describe('modelUseOf', () => {
  it('counts the requests of each model in first-seen order', () => {
    const models = [requestNaming('gpt-4o'), requestNaming('no-such-model-1'), requestNaming('gpt-4o'), requestNaming(null)].map((r) => resolveModel(r, null));
    expect(modelUseOf(models)).toEqual([
      { id: 'gpt-4o', requests: 2, known: true, pricedAs: 'gpt-4o', via: 'api', pricedOn: '2026-11-10', priceSource: 'table' },
      { id: 'no-such-model-1', requests: 1, known: false, pricedAs: null },
      { id: null, requests: 1, known: false, pricedAs: null },
    ]);
  });
});
