// Property test: whatever the segments hold, counting never throws, totals add up and nothing is negative.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, type Category, type WireFormat } from '../../src/core/model.ts';
import { TokenCounter } from '../../src/core/tokens/counter.ts';
import { request, segment } from './build.ts';

const FORMATS: WireFormat[] = ['anthropic-messages', 'openai-chat', 'openai-responses'];
const MODELS = [null, 'gpt-4o', 'gpt-5', 'gpt-4', 'o1-mini', 'gpt-4o-search-preview', 'gpt-6-sol', 'claude-opus-4-7', 'claude-haiku-4-5', 'not-a-model'];

const segmentArb = fc.record({
  category: fc.constantFrom<Category>(...CATEGORIES),
  text: fc.string({ maxLength: 200 }),
  wire: fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.constant('{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"array"}}}}}'),
    fc.constant('{"data":"JVBERi0xLjQKL1R5cGUgL1BhZ2U="}'),
    fc.constant('{"data":"%%%not base64%%%"}'),
    fc.constant('{"encrypted_content":"x"}'),
    fc.constant('{"role":"user","name":"bob","content":"x"}'),
  ),
  messageIndex: fc.integer({ min: -1, max: 6 }),
  role: fc.constantFrom(null, 'user', 'assistant', 'system', 'developer', 'tool'),
  toolName: fc.constantFrom(null, 'lookup', ''),
  path: fc.constantFrom('tools[0]', 'messages[0].content', 'messages[1].content[0]', 'input[2]'),
  media: fc.option(
    fc.record({
      kind: fc.constantFrom('image' as const, 'document' as const, 'audio' as const),
      source: fc.constantFrom('base64' as const, 'url' as const, 'file' as const, 'unknown' as const),
      mediaType: fc.constant(null),
      dataBytes: fc.nat({ max: 10_000_000 }),
      width: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: null }),
      height: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: null }),
    }),
    { nil: null },
  ),
});

describe('TokenCounter on arbitrary segments', () => {
  it('never throws; total = Σ segments + overhead; no negative segment', async () => {
    const counter = new TokenCounter();
    // Load both vocabularies up front.
    await counter.prepare(
      [request('openai-chat', 'gpt-4o', []), request('openai-chat', 'gpt-4', [])],
      (r) => r.model,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FORMATS),
        fc.constantFrom(...MODELS),
        fc.array(segmentArb, { maxLength: 12 }),
        fc.nat({ max: 8 }),
        fc.constantFrom(null, 'auto', 'any', 'tool:x', 'none'),
        fc.constantFrom(null, 'enabled', 'adaptive:high', 'high'),
        async (format, model, specs, messageCount, toolChoice, thinking) => {
          const r = request(format, model, specs.map((spec) => segment(spec)), { messageCount });
          r.options.toolChoice = toolChoice;
          r.options.thinking = thinking;
          const counted = counter.count(r, model);
          expect(counted.segments.length).toBe(r.segments.length);
          for (const tokens of counted.segments) expect(Number.isInteger(tokens) && tokens >= 0).toBe(true);
          expect(counted.total).toBe(counted.segments.reduce((a, b) => a + b, 0) + counted.overheadTotal);
          expect(counted.total).toBeGreaterThanOrEqual(0);
          if (format === 'anthropic-messages') expect(counted.exact).toBe(false);
        },
      ),
      { numRuns: 300, seed: 20261130 },
    );
  });
});
