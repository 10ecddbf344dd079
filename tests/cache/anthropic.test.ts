// Anthropic cache simulation on hand-built (synthetic) sequences; every expected number is worked out below.
import { describe, expect, it } from 'vitest';
import { simulateCache } from '../../src/core/cache/simulate.ts';
import { readRequests } from '../../src/core/input/index.ts';
import { lookupModel } from '../../src/core/pricing/lookup.ts';
import { TokenCounter } from '../../src/core/tokens/index.ts';
import { figures, simulate, type BlockSpec, type RequestSpec } from './anthropic-builders.ts';

const MIN = 60_000;
const tools: BlockSpec = { id: 'tools', tokens: 1200, category: 'tools' };
const u1: BlockSpec = { id: 'u1', tokens: 300 };
const a1: BlockSpec = { id: 'a1', tokens: 200, category: 'assistant' };
const u2: BlockSpec = { id: 'u2', tokens: 100 };
const a2: BlockSpec = { id: 'a2', tokens: 100, category: 'assistant' };
const u3: BlockSpec = { id: 'u3', tokens: 50 };
const mark = (block: BlockSpec, ttl: '5m' | '1h' = '5m'): BlockSpec => ({ ...block, marker: ttl });

describe('Anthropic: breakpoints at known token counts', () => {
  // Tools (1,200) marked; the tail breakpoint rolls forward each turn. Simulated inside each test (a mutation
  // run only sees code a test runs, not code run when the suite is collected).
  const threeTurns = () => simulate([
    { blocks: [mark(tools), mark(u1)] }, // prompt 1,500: nothing cached yet → write 1,500
    { blocks: [mark(tools), u1, a1, mark(u2)] }, // 1,800: reads 1,500 (u1 entry via lookback), writes 300
    { blocks: [mark(tools), u1, a1, u2, a2, mark(u3)] }, // 1,950: reads 1,800, writes 150
  ]);

  it('reads the longest earlier entry and writes up to the last breakpoint', () => {
    const result = threeTurns();
    expect(figures(result)).toEqual([
      { read: 0, write5m: 1500, write1h: 0, uncached: 0 },
      { read: 1500, write5m: 300, write1h: 0, uncached: 0 },
      { read: 1800, write5m: 150, write1h: 0, uncached: 0 },
    ]);
    expect(result.requests.map((r) => r.hit)).toEqual([false, true, true]);
    expect(result.requests[1]!.hitSegment).toBe(1);
    expect(result.totals).toMatchObject({ promptTokens: 5250, read: 3300, write5m: 1950, hits: 2 });
  });

  it('says every request was assumed within the TTL when there are no timestamps', () => {
    expect(threeTurns().assumedWithinTtl).toBe(true);
  });

  it('counts tokens after the last breakpoint as uncached, overhead at the front of the prefix', () => {
    const r = simulate([{ blocks: [mark(tools), u1], overhead: 400 }]);
    // Prefix through tools = 400 + 1,200 = 1,600 written; u1's 300 follow the last breakpoint.
    expect(figures(r)).toEqual([{ read: 0, write5m: 1600, write1h: 0, uncached: 300 }]);
  });

  it('keeps caches per model and shares them across conversations by content', () => {
    const r = simulate([
      { blocks: [mark(tools), u1] },
      { blocks: [mark(tools), u1], model: 'claude-opus-5-5' }, // other model: miss, writes its own 1,200
      { blocks: [mark(tools), u2] }, // another conversation on the first model: reads the shared tools
    ]);
    expect(figures(r).map((f) => f.read)).toEqual([0, 0, 1200]);
    expect(r.requests[1]!.write5m).toBe(1200);
  });

  it('invalidates messages (not tools) when tool_choice changes', () => {
    const r = simulate([
      { blocks: [mark(tools), mark(u1)] },
      { blocks: [mark(tools), mark(u1)], options: { toolChoice: 'any' } },
    ]);
    expect(figures(r)[1]).toEqual({ read: 1200, write5m: 300, write1h: 0, uncached: 0 });
  });
});

describe('Anthropic: TTL with timestamps', () => {
  const sys: BlockSpec = { id: 'sys', tokens: 2000, category: 'system' };

  it('expires a 5m entry, refreshing it on every hit', () => {
    const r = simulate([
      { blocks: [mark(sys)], timestamp: 0 },
      { blocks: [mark(sys)], timestamp: 4 * MIN }, // hit; refreshed to expire at 9 min
      { blocks: [mark(sys)], timestamp: 9 * MIN - 1 }, // hit only because of the refresh
      { blocks: [mark(sys)], timestamp: 14 * MIN }, // 14 ≥ 9 − 0.001 + 5: expired → written again
    ]);
    expect(r.requests.map((q) => q.hit)).toEqual([false, true, true, false]);
    expect(r.requests[3]!.write5m).toBe(2000);
    expect(r.requests[3]!.events.map((e) => e.code)).toContain('entry_expired');
    expect(r.assumedWithinTtl).toBe(false);
  });

  it('keeps a 1h entry alive after 50 minutes', () => {
    const r = simulate([
      { blocks: [mark(sys, '1h')], timestamp: 0 },
      { blocks: [mark(sys, '1h')], timestamp: 50 * MIN },
      { blocks: [mark(sys, '1h')], timestamp: 50 * MIN + 61 * MIN }, // 61 min after the refresh: gone
    ]);
    expect(figures(r)).toEqual([
      { read: 0, write5m: 0, write1h: 2000, uncached: 0 },
      { read: 2000, write5m: 0, write1h: 0, uncached: 0 },
      { read: 0, write5m: 0, write1h: 2000, uncached: 0 },
    ]);
  });
});

describe('Anthropic: mixed TTL billing (A = hit, B = last 1h after A, C = last breakpoint)', () => {
  const s1: BlockSpec = { id: 's1', tokens: 1200, category: 'system' };
  const s2: BlockSpec = { id: 's2', tokens: 1000, category: 'system' };
  const m: BlockSpec = { id: 'm', tokens: 1000 };

  it('bills 1h writes up to the last 1h breakpoint and 5m writes after it', () => {
    const r = simulate([{ blocks: [s1, mark(s2, '1h'), mark(m)] }]);
    expect(figures(r)).toEqual([{ read: 0, write5m: 1000, write1h: 2200, uncached: 0 }]);
  });

  it('starts the 1h writes at the highest hit', () => {
    const r = simulate([
      { blocks: [mark(s1, '1h')] }, // writes 1,200 (1h)
      { blocks: [mark(s1, '1h'), mark(s2, '1h'), mark(m)] }, // A = 1,200, B = 2,200, C = 3,200
    ]);
    expect(figures(r)[1]).toEqual({ read: 1200, write5m: 1000, write1h: 1000, uncached: 0 });
  });

  it('writes no 1h tokens when the only 1h breakpoint is at or below the hit', () => {
    const r = simulate([
      { blocks: [mark(s1, '1h'), mark(s2)] },
      { blocks: [mark(s1, '1h'), s2, mark(m)] }, // A = 2,200 (s2 entry, in the window), C = 3,200
    ]);
    expect(figures(r)[1]).toEqual({ read: 2200, write5m: 1000, write1h: 0, uncached: 0 });
  });

  it('flags a 1h breakpoint after a 5m one', () => {
    const r = simulate([{ blocks: [mark(s1), mark(s2, '1h')] }]);
    expect(r.requests[0]!.events.map((e) => e.code)).toContain('ttl_order');
  });
});

describe('Anthropic: 20-position lookback', () => {
  // Request 0 writes an entry at block 0 (1,100 tokens). Request 1 resends it and adds blocks, with its only
  // breakpoint `gap` positions later; counting the breakpoint as the first, the entry is position gap + 1.
  function run(gap: number) {
    const head: BlockSpec = { id: 'head', tokens: 1100, category: 'system', marker: '5m' };
    const more = Array.from({ length: gap }, (_, i): BlockSpec => ({ id: `b${i}`, tokens: 10 }));
    const last = more[gap - 1]!;
    more[gap - 1] = { ...last, marker: '5m' };
    return simulate([{ blocks: [head] }, { blocks: [{ ...head, marker: undefined }, ...more] }]);
  }

  it('reads an entry 19 or 20 positions back and misses it at 21', () => {
    expect(run(18).requests[1]!.read).toBe(1100);
    expect(run(19).requests[1]!.read).toBe(1100);
    const beyond = run(20);
    expect(beyond.requests[1]!.read).toBe(0);
    expect(beyond.requests[1]!.write5m).toBe(1100 + 200);
    expect(beyond.requests[1]!.events).toContainEqual({ code: 'lookback_exceeded', segment: 0, value: 20 });
  });

  it('counts a run of tool_use blocks as one position', () => {
    const head: BlockSpec = { id: 'head', tokens: 1100, category: 'system', marker: '5m' };
    // 30 blocks but positions 1..19: the entry is 20 positions back counting the breakpoint.
    const calls = Array.from({ length: 12 }, (_, i): BlockSpec => ({ id: `call${i}`, tokens: 5, position: 1 }));
    const rest = Array.from({ length: 18 }, (_, i): BlockSpec => ({ id: `r${i}`, tokens: 5, position: 2 + i }));
    rest[17] = { ...rest[17]!, marker: '5m' };
    const r = simulate([{ blocks: [head] }, { blocks: [{ ...head, marker: undefined }, ...calls, ...rest] }]);
    expect(r.requests[1]!.read).toBe(1100);
    expect(r.requests[1]!.write5m).toBe(30 * 5);
  });
});

describe('Anthropic: minimum cacheable length', () => {
  it('never caches a breakpoint below the minimum, silently except for a diagnostic', () => {
    const below = simulate([
      { blocks: [mark({ id: 's', tokens: 1023 })] },
      { blocks: [mark({ id: 's', tokens: 1023 })] },
    ]);
    expect(figures(below)).toEqual([
      { read: 0, write5m: 0, write1h: 0, uncached: 1023 },
      { read: 0, write5m: 0, write1h: 0, uncached: 1023 },
    ]);
    expect(below.requests[0]!.events).toContainEqual({ code: 'breakpoint_below_minimum', segment: 0, value: 1023 });
    expect(below.requests[0]!.breakpoints[0]!.eligible).toBe(false);
  });

  it('caches a prefix of exactly the minimum, and uses the model’s own minimum', () => {
    const at = simulate([{ blocks: [mark({ id: 's', tokens: 1024 })] }, { blocks: [mark({ id: 's', tokens: 1024 })] }]);
    expect(figures(at).map((f) => [f.read, f.write5m])).toEqual([
      [0, 1024],
      [1024, 0],
    ]);
    const opus = simulate([{ blocks: [mark({ id: 's', tokens: 600 })], model: 'claude-opus-5-5' }]);
    expect(opus.requests[0]!.write5m).toBe(600); // Opus 5.5's minimum is 512
  });
});

describe('Anthropic: more than 4 breakpoints', () => {
  const five = Array.from({ length: 5 }, (_, i): BlockSpec => ({ id: `s${i}`, tokens: 1000, marker: '5m' }));

  it('treats 5 explicit markers as the API’s 400: no read, no write, whole prompt uncached', () => {
    const r = simulate([{ blocks: five }, { blocks: five }]);
    expect(figures(r)[1]).toEqual({ read: 0, write5m: 0, write1h: 0, uncached: 5000 });
    expect(r.requests[1]!.rejected).toBe(true);
    expect(r.requests[0]!.events).toContainEqual({ code: 'too_many_breakpoints', segment: null, value: 5 });
    expect(r.totals.rejected).toBe(2);
  });

  it('counts the automatic breakpoint among the four', () => {
    const four = five.slice(0, 4);
    const tail: BlockSpec = { id: 'tail', tokens: 10 };
    expect(simulate([{ blocks: [...four, tail], topLevel: '5m' }]).requests[0]!.rejected).toBe(true);
    // Same TTL as the marker already on the last block: the top-level marker adds nothing.
    expect(simulate([{ blocks: four, topLevel: '5m' }]).requests[0]!.rejected).toBe(false);
    // A different TTL on that block is a 400 of its own.
    const conflict = simulate([{ blocks: four, topLevel: '1h' }]).requests[0]!;
    expect(conflict.rejected).toBe(true);
    expect(conflict.events.map((e) => e.code)).toContain('automatic_ttl_conflict');
  });

  it('the optimized scenario stays within the limit, keeping 3 explicit markers and the tail', () => {
    const r = simulate([{ blocks: [...five, { id: 'tail', tokens: 10 }] }], 'optimized');
    expect(r.requests[0]!.rejected).toBe(false);
    expect(r.requests[0]!.breakpoints.map((b) => b.segment)).toEqual([0, 1, 2, 5]);
  });
});

describe('Anthropic: automatic (top-level) caching', () => {
  const sys: BlockSpec = { id: 'sys', tokens: 1500, category: 'system' };
  const thinking: BlockSpec = { id: 'think', tokens: 40, category: 'thinking', cacheable: false };

  it('places the breakpoint on the last cacheable block and moves it forward each turn', () => {
    const r = simulate([
      { blocks: [sys, u2, thinking], topLevel: '5m' }, // walks back past thinking: breakpoint at u2 = 1,600
      { blocks: [sys, u2, thinking, a2, u3], topLevel: '5m' }, // breakpoint at u3 (1,790): reads 1,600
    ]);
    expect(r.requests[0]!.breakpoints).toMatchObject([{ segment: 1, source: 'automatic', prefixTokens: 1600 }]);
    expect(figures(r)).toEqual([
      { read: 0, write5m: 1600, write1h: 0, uncached: 40 },
      { read: 1600, write5m: 190, write1h: 0, uncached: 0 },
    ]);
  });

  it('skips caching when no block is eligible, and reports a request with no breakpoint', () => {
    const r = simulate([{ blocks: [thinking], topLevel: '5m' }, { blocks: [sys] }]);
    expect(r.requests[0]!.events.map((e) => e.code)).toEqual(['automatic_no_eligible_block']);
    expect(r.requests[1]!.events.map((e) => e.code)).toEqual(['no_breakpoint']);
    expect(r.requests[1]!.uncached).toBe(1500);
  });
});

describe('Anthropic: optimized scenario', () => {
  it('normalizes a timestamp in the system prompt and adds a tail breakpoint', () => {
    const sys = (t: string): BlockSpec => ({ id: `"You are helpful. Now: ${t}"`, tokens: 2000, category: 'system', marker: '5m' });
    const specs = [
      { blocks: [sys('2026-11-30T05:00:00Z'), u1] },
      { blocks: [sys('2026-11-30T05:01:00Z'), u1, a1, u2] },
    ];
    const actual = simulate(specs, 'actual');
    const optimized = simulate(specs, 'optimized');
    expect(figures(actual)[1]).toEqual({ read: 0, write5m: 2000, write1h: 0, uncached: 600 });
    // Optimized: the first request writes 2,300 (tail at u1); the second reads it and writes a1 + u2.
    expect(figures(optimized)).toEqual([
      { read: 0, write5m: 2300, write1h: 0, uncached: 0 },
      { read: 2300, write5m: 300, write1h: 0, uncached: 0 },
    ]);
  });

  it('puts the tool list in a deterministic order', () => {
    const t = (name: string): BlockSpec => ({ id: `{"name":"${name}"}`, tokens: 600, category: 'tools', toolName: name });
    const specs = [{ blocks: [t('b'), t('a'), mark(u1)] }, { blocks: [t('a'), t('b'), mark(u1)] }];
    expect(simulate(specs, 'actual').requests[1]!.read).toBe(0);
    expect(simulate(specs, 'optimized').requests[1]!.read).toBe(1500);
  });
});

describe('Anthropic: automatic caching read from a request body', () => {
  it('simulates a top-level cache_control as a breakpoint on the last cacheable block', async () => {
    const system = 'Synthetic stable instructions for the automatic caching test. '.repeat(150);
    const turn = (n: number) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 16,
      cache_control: { type: 'ephemeral' },
      system,
      messages: Array.from({ length: 2 * n - 1 }, (_, i) =>
        i % 2 === 0 ? { role: 'user', content: `Synthetic question ${i}.` } : { role: 'assistant', content: `Answer ${i}.` },
      ),
    });
    const text = [turn(1), turn(2)].map((body) => JSON.stringify(body)).join('\n') + '\n';
    const { requests } = await readRequests([{ name: 'synthetic-automatic.jsonl', bytes: new TextEncoder().encode(text) }]);
    expect(requests.map((r) => r.topLevelCacheMarker)).toEqual([{ ttl: '5m' }, { ttl: '5m' }]);
    const counter = new TokenCounter();
    await counter.prepare(requests, (r) => r.model);
    const counts = requests.map((r) => counter.count(r, r.model));
    const result = simulateCache({
      requests,
      segmentTokens: counts.map((c) => c.segments),
      overheadTokens: counts.map((c) => c.overheadTotal),
      pricingOf: (i) => lookupModel(requests[i]!.model!)?.pricing ?? null,
      scenario: 'actual',
    });
    const last = (i: number) => requests[i]!.segments.length - 1;
    expect(result.requests[0]!.breakpoints).toMatchObject([{ segment: last(0), source: 'automatic', ttl: '5m' }]);
    expect(result.requests[1]!.breakpoints).toMatchObject([{ segment: last(1), source: 'automatic' }]);
    // The second turn reads the prefix the first one wrote — the first turn's prompt as it was counted, its own
    // framing only (the second turn's framing of its two extra messages is not in that entry) — and writes the rest.
    expect(result.requests[0]!.write5m).toBe(counts[0]!.total);
    expect(result.requests[1]!.hit).toBe(true);
    expect(result.requests[1]!.read).toBe(counts[0]!.total);
    expect(result.requests[1]!.write5m).toBe(counts[1]!.total - counts[0]!.total);
    // Two more messages: 2 × 3 framing tokens beyond their text.
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(counts[1]!.total - counts[0]!.total).toBe(sum(counts[1]!.segments.slice(last(0) + 1)) + 6);
  });
});

describe('Anthropic: earlier thinking stripped on a plain user turn (older models)', () => {
  const sys: BlockSpec = { id: 'sys', tokens: 2000, category: 'system', marker: '5m' };
  const u1: BlockSpec = { id: 'u1', tokens: 100, messageIndex: 0 };
  const think1: BlockSpec = { id: 'think1', tokens: 500, category: 'thinking', messageIndex: 1, cacheable: false };
  const call: BlockSpec = { id: 'call', tokens: 50, category: 'tool_call', messageIndex: 1 };
  const result: BlockSpec = { id: 'result', tokens: 50, category: 'tool_result', messageIndex: 2 };
  const think2: BlockSpec = { id: 'think2', tokens: 300, category: 'thinking', messageIndex: 3, cacheable: false };
  const answer: BlockSpec = { id: 'answer', tokens: 50, category: 'assistant', messageIndex: 3 };
  const u3: BlockSpec = { id: 'u3', tokens: 20, messageIndex: 4 };
  const turns = (model: string): RequestSpec[] => {
    const thinking = { model, options: { thinking: 'enabled' } };
    return [
      { blocks: [sys, { ...u1, marker: '5m' }], ...thinking }, // writes 2,100
      { blocks: [sys, u1, think1, call, { ...result, marker: '5m' }], ...thinking }, // tool loop: keeps thinking
      { blocks: [sys, u1, think1, call, result, think2, answer, { ...u3, marker: '5m' }], ...thinking },
    ];
  };

  it('drops earlier thinking from the prefix and the bill on Sonnet 4.5', () => {
    const r = simulate(turns('claude-sonnet-4-5'));
    expect(figures(r)[1]).toEqual({ read: 2100, write5m: 600, write1h: 0, uncached: 0 });
    // Thinking (800) is gone: prompt 2,270; the entry through the tool result held think1, so only sys + u1 match.
    expect(figures(r)[2]).toEqual({ read: 2100, write5m: 170, write1h: 0, uncached: 0 });
    expect(r.requests[2]!.promptTokens).toBe(2270);
  });

  it('keeps it on Opus 5.5, and without extended thinking', () => {
    // Prompt 3,070; reads through the tool result (2,700).
    expect(figures(simulate(turns('claude-opus-5-5')))[2]).toEqual({ read: 2700, write5m: 370, write1h: 0, uncached: 0 });
    const off = turns('claude-sonnet-4-5').map((spec) => ({ ...spec, options: {} }));
    expect(figures(simulate(off))[2]).toEqual({ read: 2700, write5m: 370, write1h: 0, uncached: 0 });
  });
});
