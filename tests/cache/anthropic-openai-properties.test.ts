// Invariants of both simulations on random (synthetic) request sequences: the four token figures always add up
// to the prompt, nothing is read before it was written on the same model, rejected requests neither read nor
// write, the optimized scenario never exceeds the breakpoint limit, and the same input gives the same output.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WireFormat } from '../../src/core/model.ts';
import { simulate, type BlockSpec, type RequestSpec } from './anthropic-builders.ts';

const MODELS: Record<WireFormat, string[]> = {
  'anthropic-messages': ['claude-sonnet-4-5', 'claude-opus-5-5', 'claude-unknown-9'],
  'openai-chat': ['gpt-4o', 'gpt-5.6-terra'],
  'openai-responses': ['gpt-5.6-terra'],
};

const block: fc.Arbitrary<BlockSpec> = fc.record({
  id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
  tokens: fc.integer({ min: 0, max: 900 }),
  marker: fc.option(fc.constantFrom('5m' as const, '1h' as const), { nil: undefined }),
  cacheable: fc.boolean(),
  category: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const, 'tool_call' as const, 'thinking' as const),
});

const request: fc.Arbitrary<RequestSpec> = fc
  .record({
    blocks: fc.array(block, { minLength: 0, maxLength: 12 }),
    format: fc.constantFrom<WireFormat>('anthropic-messages', 'openai-chat', 'openai-responses'),
    modelPick: fc.nat(),
    topLevel: fc.option(fc.constantFrom('5m' as const, '1h' as const), { nil: undefined }),
    overhead: fc.integer({ min: 0, max: 50 }),
    explicit: fc.boolean(),
  })
  .map(({ blocks, format, modelPick, topLevel, overhead, explicit }) => {
    const models = MODELS[format];
    return {
      blocks,
      format,
      model: models[modelPick % models.length]!,
      overhead,
      ...(topLevel !== undefined && { topLevel }),
      ...(explicit && { options: { promptCacheMode: 'explicit' as const } }),
    };
  });

// Sequences grow like agent loops: each request may resend an earlier one's blocks before its own.
const sequence = fc.array(fc.tuple(request, fc.nat()), { minLength: 1, maxLength: 10 }).map((pairs) => {
  const specs: RequestSpec[] = [];
  for (const [spec, pick] of pairs) {
    const earlier = specs.length > 0 && pick % 3 !== 0 ? specs[pick % specs.length] : undefined;
    specs.push(earlier ? { ...spec, blocks: [...earlier.blocks, ...spec.blocks], format: earlier.format, model: earlier.model } : spec);
  }
  return specs;
});

describe('simulation invariants (property-based, synthetic)', () => {
  it('figures add up, reads follow writes on the same model, limits hold, output is deterministic', () => {
    fc.assert(
      fc.property(sequence, fc.constantFrom('actual' as const, 'optimized' as const), (specs, scenario) => {
        const result = simulate(specs, scenario);
        const again = simulate(specs, scenario);
        expect(again).toEqual(result);
        const written = new Set<string>();
        result.requests.forEach((r) => {
          expect(r.read + r.write5m + r.write1h + r.uncached).toBe(r.promptTokens);
          for (const value of [r.read, r.write5m, r.write1h, r.uncached]) expect(value).toBeGreaterThanOrEqual(0);
          expect(r.hit).toBe(r.read > 0);
          if (r.read > 0) expect(written.has(r.cacheScope)).toBe(true);
          if (r.rejected) expect(r.read + r.write5m + r.write1h).toBe(0);
          if (r.provider === 'anthropic' && scenario === 'optimized') expect(r.rejected).toBe(false);
          if (r.provider === 'anthropic' && !r.rejected) expect(r.breakpoints.length).toBeLessThanOrEqual(4);
          if (r.provider === 'openai') expect(r.write1h).toBe(0);
          written.add(r.cacheScope);
        });
        const sum = result.requests.reduce((total, r) => total + r.promptTokens, 0);
        expect(result.totals.promptTokens).toBe(sum);
      }),
      { numRuns: 300 },
    );
  });
});
