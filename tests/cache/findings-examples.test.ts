// Each bundled synthetic example raises the findings it was made for and nothing else; the fixed twin of the
// cache-busting session has none and costs the same in both scenarios.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';

const examples = path.resolve(__dirname, '../../examples');

async function analyzeExample(file: string) {
  const analysis = await analyzeInput([{ name: file, bytes: new Uint8Array(readFileSync(path.join(examples, file))) }]);
  return analysis.cache!;
}

describe('findings on the bundled examples', () => {
  it.each([
    ['synthetic-anthropic-agent-cache-bust.jsonl.gz', ['volatile_value_in_prefix', 'missing_tail_breakpoint']],
    ['synthetic-anthropic-agent-cache-fixed.jsonl.gz', []],
    ['synthetic-anthropic-file-reread.jsonl', ['near_duplicate_content']],
    ['synthetic-openai-chat-tools-reordered.jsonl', ['tools_reordered']],
    // The switch to Claude Opus 4.6 also lifts the minimum to 4,096 tokens, above the system breakpoint's prefix.
    ['synthetic-mixed-models.jsonl', ['model_changed', 'prefix_below_minimum']],
    // The idle gap that expires the entry is also an observed-style miss (ttl_expired), priced in idle_gap_ttl.
    ['synthetic-gateway-interleaved.jsonl', ['entry_expired', 'idle_gap_ttl']],
    ['synthetic-openai-responses-session.jsonl', []],
  ])('%s → %j', async (file, codes) => {
    const cache = await analyzeExample(file);
    expect(cache.findings.map((f) => f.code).sort()).toEqual([...codes].sort());
  });

  it('the fixed twin costs the same optimized as actual; the cache-busting one does not', async () => {
    const fixed = await analyzeExample('synthetic-anthropic-agent-cache-fixed.jsonl.gz');
    expect(Math.abs(fixed.cost.potentialSavings)).toBeLessThan(0.00005);
    const bust = await analyzeExample('synthetic-anthropic-agent-cache-bust.jsonl.gz');
    expect(bust.cost.savingsFraction).toBeGreaterThan(0.5);
    expect(bust.conversations.count).toBe(1);
  });

  it('reads the gateway log as three interleaved conversations', async () => {
    const cache = await analyzeExample('synthetic-gateway-interleaved.jsonl');
    expect(cache.conversations.count).toBe(3);
    expect(cache.conversations.conversationOf.slice(0, 6)).toEqual([0, 1, 2, 0, 1, 2]);
  });
});

describe('the fixed session with side requests interleaved', () => {
  it('reads as 13 conversations, the session unchanged, still with no findings', async () => {
    const lines = gunzipSync(readFileSync(path.join(examples, 'synthetic-anthropic-agent-cache-fixed.jsonl.gz'))).toString('utf8').trim().split('\n');
    const mixed: string[] = [];
    lines.forEach((line, i) => {
      mixed.push(line);
      // A short title request on another model after every second turn (synthetic).
      if (i % 2 === 1) {
        mixed.push(JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 20, system: 'Synthetic: write a short title.', messages: [{ role: 'user', content: `Synthetic turn ${i} title please` }] }));
      }
    });
    const analysis = await analyzeInput([{ name: 'synthetic-side.jsonl', bytes: new TextEncoder().encode(mixed.join('\n') + '\n') }]);
    const cache = analysis.cache!;
    expect(analysis.requests).toHaveLength(36);
    expect(cache.conversations.count).toBe(13);
    const count = (link: string) => cache.conversations.kind.filter((k) => k === link).length;
    expect([count('continues'), count('same-setup'), count('new')]).toEqual([23, 11, 2]);
    // The session's own requests are paired exactly as when it is alone: each with its previous turn.
    const session = cache.conversations.conversationOf.flatMap((c, r) => (c === 0 ? [r] : []));
    expect(session).toHaveLength(24);
    session.slice(1).forEach((r, k) => expect(cache.conversations.continues[r]).toBe(session[k]));
    expect(cache.findings).toEqual([]);
    expect(Math.abs(cache.cost.potentialSavings)).toBeLessThan(0.00005);
  });
});
