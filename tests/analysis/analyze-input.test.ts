import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';

const encoder = new TextEncoder();
// Synthetic bodies.
const chat = '{"model":"gpt-4o","messages":[{"role":"user","content":"hello"}]}';
const claude = '{"model":"claude-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"hello there"}]}';

function stream(text: string): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, 10));
      controller.enqueue(bytes.subarray(10));
      controller.close();
    },
  });
}

describe('analyzeInput', () => {
  it('reads bytes and streams, numbers requests across files and reports progress', async () => {
    const progress: number[] = [];
    const analysis = await analyzeInput(
      [
        { name: 'a.jsonl', bytes: encoder.encode(`${chat}\n${chat}\n`) },
        { name: 'b.json', bytes: stream(claude) },
      ],
      { onProgress: (p) => progress.push(p.file) },
    );
    expect(analysis.requests.map((r) => [r.index, r.file, r.line])).toEqual([
      [0, 0, 1],
      [1, 0, 2],
      [2, 1, 1],
    ]);
    expect(analysis.tokens.map((t) => t.total).slice(0, 2)).toEqual([8, 8]);
    expect(analysis.files.map((f) => [f.name, f.format, f.totals.requests])).toEqual([
      ['a.jsonl', 'openai-chat', 2],
      ['b.json', 'anthropic-messages', 1],
    ]);
    expect(progress.length).toBeGreaterThan(0);
    expect(analysis.distinctTexts).toBeGreaterThan(0);
  });

  it('honours a forced format and the model override', async () => {
    const analysis = await analyzeInput([{ name: 'a.jsonl', bytes: encoder.encode(chat) }], { format: 'openai-chat', model: 'gpt-5' });
    expect(analysis.models[0]).toMatchObject({ id: 'gpt-5', source: 'override' });
    // gpt-5 frames with 2 priming tokens: 1 + (3 + 1) + 2.
    expect(analysis.tokens[0]?.total).toBe(7);
  });
});
