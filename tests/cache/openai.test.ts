// OpenAI cache simulation on hand-built (synthetic) sequences; expected numbers worked out in the comments.
import { describe, expect, it } from 'vitest';
import { figures, simulate, type BlockSpec, type RequestSpec } from './anthropic-builders.ts';

const chat = (blocks: BlockSpec[], extra: Partial<RequestSpec> = {}): RequestSpec => ({
  blocks,
  model: 'gpt-4o',
  format: 'openai-chat',
  ...extra,
});
const sys: BlockSpec = { id: 'sys', tokens: 1000, category: 'system' };
const u1: BlockSpec = { id: 'u1', tokens: 300 };
const a1: BlockSpec = { id: 'a1', tokens: 200, category: 'assistant' };

describe('OpenAI automatic prefix caching (before GPT-5.6)', () => {
  it('caches nothing below 1,024 prompt tokens and caches a 1,024-token prefix', () => {
    const below = simulate([chat([{ id: 's', tokens: 1023 }]), chat([{ id: 's', tokens: 1023 }])]);
    expect(below.requests.map((r) => r.read)).toEqual([0, 0]);
    const at = simulate([chat([{ id: 's', tokens: 1024 }]), chat([{ id: 's', tokens: 1024 }])]);
    expect(figures(at)[1]).toEqual({ read: 1024, write5m: 0, write1h: 0, uncached: 0 });
  });

  it('rounds the cached prefix down to a multiple of 128', () => {
    // Earlier prompt: sys + u1 = 1,300. The next resends it and adds 200: prefix 1,300 → 1,280 cached.
    const r = simulate([chat([sys, u1]), chat([sys, u1, { id: 'u2', tokens: 200 }])]);
    expect(figures(r)[1]).toEqual({ read: 1280, write5m: 0, write1h: 0, uncached: 220 });
    expect(r.requests[1]!.hitSegment).toBe(1);
  });

  it('counts the answer an earlier prompt generated as cached when the next turn resends it', () => {
    // sys + u1 (1,300) was a whole prompt; a1 follows it as that request's answer: 1,500 → 1,408 cached.
    const r = simulate([chat([sys, u1]), chat([sys, u1, a1, { id: 'u2', tokens: 100 }])]);
    expect(figures(r)[1]).toEqual({ read: 1408, write5m: 0, write1h: 0, uncached: 192 });
    // A 100-token prompt whose reasoning and tool call make the next prompt 1,600: 1,536 cached.
    const short = simulate([
      chat([{ id: 'q', tokens: 100 }]),
      chat([
        { id: 'q', tokens: 100 },
        { id: 'reasoning', tokens: 1400, category: 'thinking' },
        { id: 'call', tokens: 90, category: 'tool_call' },
        { id: 'result', tokens: 10, category: 'tool_result' },
      ]),
    ]);
    expect(short.requests.map((q) => q.read)).toEqual([0, 1536]);
    // A prefix that was never a whole prompt does not extend: u1 here was followed by other text.
    const partial = simulate([chat([sys, u1, u1]), chat([sys, u1, a1, { id: 'u2', tokens: 100 }])]);
    expect(partial.requests[1]!.read).toBe(1280);
    // Only the blocks right after the earlier whole prompt count as its answer: here x (a user block) follows it,
    // so the assistant block after x is nobody's recorded answer. Cached: sys + u1 + x = 1,800 → 1,792.
    const x: BlockSpec = { id: 'x', tokens: 500 };
    const notAnswer = simulate([
      chat([sys, u1]),
      chat([sys, u1, x, { id: 'y', tokens: 100 }]),
      chat([sys, u1, x, { id: 'a2', tokens: 300, category: 'assistant' }]),
    ]);
    expect(notAnswer.requests[2]!.read).toBe(1792);
  });

  it('gives nothing when the shared prefix rounds below 1,024', () => {
    // Shared prefix is sys alone (1,000 → 896 after rounding): below the threshold.
    const r = simulate([chat([sys, u1]), chat([sys, { id: 'other', tokens: 400 }])]);
    expect(r.requests[1]!.read).toBe(0);
    expect(r.requests[1]!.hit).toBe(false);
  });

  it('uses the longest prefix any earlier request on the same model sent', () => {
    const r = simulate([
      chat([sys, u1, a1]), // 1,500
      chat([sys, { id: 'x', tokens: 500 }]), // shares only sys: 896 → 0
      chat([sys, u1, { id: 'y', tokens: 100 }]), // shares sys + u1 with request 0: 1,300 → 1,280
      chat([sys, u1, a1], { model: 'gpt-5.6-terra' }), // another model: its own empty cache
    ]);
    expect(r.requests.map((q) => q.read)).toEqual([0, 0, 1280, 0]);
  });

  it('counts requests carrying a prompt_cache_key without keeping its value', () => {
    const r = simulate([chat([sys], { options: { promptCacheKey: 'tenant-7' } }), chat([sys])]);
    expect(r.requests.map((q) => q.promptCacheKey)).toEqual([true, false]);
    expect(r.totals.promptCacheKeys).toBe(1);
    expect(JSON.stringify(r)).not.toContain('tenant-7');
  });

  it('expires in-memory entries after 10 minutes when timestamps are known', () => {
    const inMemory = { options: { promptCacheRetention: 'in_memory' } };
    const r = simulate([
      chat([sys, u1], { ...inMemory, timestamp: 0 }),
      chat([sys, u1], { ...inMemory, timestamp: 9 * 60_000 }),
      chat([sys, u1], { ...inMemory, timestamp: 30 * 60_000 }),
    ]);
    expect(r.requests.map((q) => q.read)).toEqual([0, 1280, 0]);
  });
});

describe('OpenAI GPT-5.6+ breakpoints', () => {
  const terra = (blocks: BlockSpec[], extra: Partial<RequestSpec> = {}): RequestSpec =>
    chat(blocks, { model: 'gpt-5.6-terra', format: 'openai-responses', ...extra });
  const big: BlockSpec = { id: 'big', tokens: 2000, category: 'system' };
  const q1: BlockSpec = { id: 'q1', tokens: 500 };
  const r1: BlockSpec = { id: 'r1', tokens: 100, category: 'assistant' };
  const q2: BlockSpec = { id: 'q2', tokens: 100 };

  it('implicit mode: an automatic breakpoint on the newest message, writes billed, exact match, no rounding', () => {
    const r = simulate([terra([big, q1]), terra([big, q1, r1, q2])]);
    // Request 0 writes its whole 2,500-token prefix; request 1 matches it exactly and writes the 200 after it.
    expect(figures(r)).toEqual([
      { read: 0, write5m: 2500, write1h: 0, uncached: 0 },
      { read: 2500, write5m: 200, write1h: 0, uncached: 0 },
    ]);
    expect(r.requests[0]!.breakpoints).toMatchObject([{ segment: 1, source: 'automatic' }]);
  });

  it('caches a breakpoint whose prefix is exactly the 1,024-token minimum, and not one token below it', () => {
    const at = simulate([terra([{ id: 'min', tokens: 1024 }]), terra([{ id: 'min', tokens: 1024 }])]);
    expect(at.requests[0]!.breakpoints[0]).toMatchObject({ prefixTokens: 1024, eligible: true });
    expect(figures(at)).toEqual([
      { read: 0, write5m: 1024, write1h: 0, uncached: 0 },
      { read: 1024, write5m: 0, write1h: 0, uncached: 0 },
    ]);
    const below = simulate([terra([{ id: 'short', tokens: 1023 }])]);
    expect(below.requests[0]!.breakpoints[0]).toMatchObject({ prefixTokens: 1023, eligible: false });
    expect(figures(below)).toEqual([{ read: 0, write5m: 0, write1h: 0, uncached: 1023 }]);
  });

  it('has no fallback to a shorter prefix than a written breakpoint', () => {
    // Request 0 wrote only at q1 (2,500). Request 1 changes q1: big alone was never a breakpoint → miss.
    const r = simulate([terra([big, q1]), terra([big, { id: 'q1-edited', tokens: 500 }])]);
    expect(figures(r)[1]).toEqual({ read: 0, write5m: 2500, write1h: 0, uncached: 0 });
  });

  it('explicit mode: caches at the marked blocks only', () => {
    const explicit = { options: { promptCacheMode: 'explicit' as const } };
    const r = simulate([
      terra([{ ...big, marker: '5m' }, q1], explicit),
      terra([{ ...big, marker: '5m' }, { id: 'q9', tokens: 700 }], explicit),
    ]);
    expect(figures(r)).toEqual([
      { read: 0, write5m: 2000, write1h: 0, uncached: 500 },
      { read: 2000, write5m: 0, write1h: 0, uncached: 700 },
    ]);
  });

  it('explicit mode with no breakpoint caches nothing and says so', () => {
    const explicit = { options: { promptCacheMode: 'explicit' as const } };
    const r = simulate([terra([big, q1], explicit), terra([big, q1], explicit)]);
    expect(figures(r)[1]).toEqual({ read: 0, write5m: 0, write1h: 0, uncached: 2500 });
    expect(r.requests[0]!.events).toEqual([{ code: 'explicit_no_breakpoint', segment: null, value: null }]);
  });

  it('implicit mode keeps only the latest 3 explicit breakpoints beside the automatic one', () => {
    const marked = Array.from({ length: 5 }, (_, i): BlockSpec => ({ id: `m${i}`, tokens: 400, marker: '5m' }));
    const r = simulate([terra([...marked, q1])]);
    expect(r.requests[0]!.breakpoints.map((b) => [b.segment, b.source])).toEqual([
      [2, 'explicit'],
      [3, 'explicit'],
      [4, 'explicit'],
      [5, 'automatic'],
    ]);
  });
});
