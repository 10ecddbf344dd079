// Each finding fires on a hand-made sequence built for it (synthetic data) and not on its clean twin.
import { describe, expect, it } from 'vitest';
import { analyzeCache, type CacheAnalysis } from '../../src/core/cache/index.ts';
import { describeRequests, type FindingCode } from '../../src/core/cache/findings.ts';
import type { ParsedRequest } from '../../src/core/model.ts';
import { lookupModel } from '../../src/core/pricing/lookup.ts';
import { loopMessages, makeRequests, type SyntheticRequest, type SyntheticMessage } from './conversations-helpers.ts';

/** Runs the whole cache analysis with `tokens` per segment (default 400) and each request's own model. */
function analyze(specs: SyntheticRequest[], tokens: (segment: ParsedRequest['segments'][number]) => number = () => 400): CacheAnalysis {
  const requests = makeRequests(specs);
  return analyzeCache({
    requests,
    segmentTokens: requests.map((r) => r.segments.map(tokens)),
    overheadTokens: requests.map(() => 0),
    pricingOf: (i) => (requests[i]!.model === null ? null : (lookupModel(requests[i]!.model!)?.pricing ?? null)),
  });
}

const codes = (analysis: CacheAnalysis): FindingCode[] => analysis.findings.map((f) => f.code);
const find = (analysis: CacheAnalysis, code: FindingCode) => analysis.findings.find((f) => f.code === code);

const TOOLS = ['read_file', 'grep_search', 'bash'];
const SYSTEM = 'synthetic coding agent system prompt';
/** The "fixed" shape: a breakpoint on the stable system prompt plus automatic caching on the growing tail. */
const goodTurn = (n: number, extra: Partial<SyntheticRequest> = {}): SyntheticRequest => ({
  tools: TOOLS,
  system: [{ text: SYSTEM, marker: { ttl: '5m' } }],
  messages: loopMessages('fixed', n),
  topLevelMarker: { ttl: '5m' },
  ...extra,
});
const session = (turns: number, make: (n: number) => SyntheticRequest) => Array.from({ length: turns }, (_, n) => make(n));

describe('clean input', () => {
  it('has no findings and the optimized cost equals the actual cost', () => {
    const analysis = analyze(session(6, (n) => goodTurn(n)));
    expect(analysis.findings).toEqual([]);
    expect(analysis.cost.actual.totals.total).toBeCloseTo(analysis.cost.optimized.totals.total, 10);
    expect(analysis.cost.actual.totals.total).toBeGreaterThan(0);
  });
});

describe('volatile_value_in_prefix', () => {
  const stamped = (n: number) => goodTurn(n, { system: [{ text: `${SYSTEM}; now 2026-11-30T05:${String(10 + n).padStart(2, '0')}:00Z`, marker: { ttl: '5m' } }] });

  it('fires once for a timestamp that changes every request, with the request range', () => {
    const analysis = analyze(session(5, stamped));
    const finding = find(analysis, 'volatile_value_in_prefix');
    expect(finding).toMatchObject({ severity: 'warning', requests: [1, 2, 3, 4], segmentPath: 'system[0]' });
    expect(finding!.message).toContain('requests 2–5, 4×');
    expect(finding!.message).not.toContain('2026');
    // The fix is model-aware: Sonnet 4.5 does not keep the cache across a mid-conversation system message.
    expect(finding!.fix).toContain('latest user message');
    expect(codes(analysis).filter((c) => c === 'volatile_value_in_prefix')).toHaveLength(1);
    expect(analysis.cost.potentialSavings).toBeGreaterThan(0);
  });

  it('suggests a mid-conversation system message only on a model that keeps the cache across one', () => {
    const analysis = analyze(session(3, (n) => ({ ...stamped(n), model: 'claude-opus-5' })));
    expect(find(analysis, 'volatile_value_in_prefix')!.fix).toContain('{"role":"system"}');
  });

  it('does not fire when the system prompt is stable', () => {
    expect(find(analyze(session(5, (n) => goodTurn(n))), 'volatile_value_in_prefix')).toBeUndefined();
  });
});

describe('tools_reordered', () => {
  it('reports the positions, and the names only in the content detail', () => {
    const specs = [goodTurn(0), goodTurn(1), goodTurn(2, { tools: ['grep_search', 'read_file', 'bash'] })];
    const finding = find(analyze(specs), 'tools_reordered');
    expect(finding).toMatchObject({ requests: [2], segmentPath: 'tools[0]', detail: '[read_file, grep_search] → [grep_search, read_file]' });
    expect(finding!.message).toContain('positions 1–2');
    expect(finding!.message).not.toContain('read_file');
  });

  it('does not fire when a tool is added rather than moved', () => {
    const specs = [goodTurn(0), goodTurn(1, { tools: [...TOOLS, 'web_fetch'] })];
    expect(find(analyze(specs), 'tools_reordered')).toBeUndefined();
  });
});

describe('tool_schema_key_order', () => {
  const reordered = '{"input_schema":{"properties":{"path":{"type":"string"}},"type":"object"},"description":"synthetic tool bash","name":"bash"}';
  it('fires when a tool schema has the same content with its keys in another order', () => {
    const specs = [goodTurn(0), goodTurn(1, { tools: ['read_file', 'grep_search', { name: 'bash', wire: reordered }] })];
    const finding = find(analyze(specs), 'tool_schema_key_order');
    expect(finding).toMatchObject({ requests: [1], segmentPath: 'tools[2]', detail: 'bash' });
    expect(find(analyze(specs), 'tools_reordered')).toBeUndefined();
  });

  it('does not fire on a schema that really changed', () => {
    const changed = '{"name":"bash","description":"synthetic tool bash v2","input_schema":{"type":"object"}}';
    const specs = [goodTurn(0), goodTurn(1, { tools: ['read_file', 'grep_search', { name: 'bash', wire: changed }] })];
    expect(find(analyze(specs), 'tool_schema_key_order')).toBeUndefined();
  });
});

describe('model_changed', () => {
  it('fires when a conversation switches model', () => {
    const specs = [goodTurn(0), goodTurn(1), goodTurn(2, { model: 'claude-haiku-4-5' })];
    const finding = find(analyze(specs), 'model_changed');
    expect(finding).toMatchObject({ requests: [2], severity: 'warning' });
    expect(finding!.message).toContain('from claude-sonnet-4-5 to claude-haiku-4-5');
  });

  it('does not fire for a side request on another model that starts its own conversation', () => {
    const side: SyntheticRequest = { model: 'claude-haiku-4-5', messages: [{ role: 'user', text: 'synthetic title please' }] };
    expect(find(analyze([goodTurn(0), side, goodTurn(1)]), 'model_changed')).toBeUndefined();
  });
});

describe('prefix_below_minimum', () => {
  it('names the model and its minimum when the only breakpoint covers too few tokens', () => {
    const specs = session(3, (n) => goodTurn(n, { model: 'claude-opus-4-6', topLevelMarker: undefined }));
    const finding = find(analyze(specs, () => 300), 'prefix_below_minimum');
    // tools (3 × 300) + system (300) = 1,200 tokens < 4,096.
    expect(finding).toMatchObject({ requests: [0, 1, 2], segmentPath: 'system[0]' });
    expect(finding!.message).toContain("below Claude Opus 4.6's 4,096-token minimum");
    expect(finding!.message).toContain('≈1,200 tokens');
  });

  it('reports a short setup breakpoint and a short message breakpoint as two findings', () => {
    // Top-level caching puts a second breakpoint on the last message: 3 × 300 + 300 + 300 = 1,500 < 4,096.
    const analysis = analyze([goodTurn(0, { model: 'claude-opus-4-6' })], () => 300);
    const findings = analysis.findings.filter((f) => f.code === 'prefix_below_minimum');
    expect(findings.map((f) => f.segmentPath).sort()).toEqual(['messages[0].content[0]', 'system[0]']);
    expect(findings.find((f) => f.segmentPath === 'messages[0].content[0]')!.message).toContain('≈1,500 tokens');
  });

  it('does not fire when the prefix reaches the minimum', () => {
    const specs = session(3, (n) => goodTurn(n, { model: 'claude-opus-4-6' }));
    expect(find(analyze(specs, () => 1100), 'prefix_below_minimum')).toBeUndefined();
  });
});

describe('breakpoint_before_change', () => {
  // A context block that is rebuilt every turn (not a timestamp) with the only breakpoint after it.
  const dynamic = (n: number): SyntheticRequest => ({
    tools: TOOLS,
    system: [{ text: SYSTEM }, { text: `synthetic open files: ${['a.ts', 'b.ts', 'c.ts'][n % 3]}`, marker: { ttl: '5m' } }],
    messages: loopMessages('d', n),
  });

  it('points at the last stable block when every breakpoint sits after the change', () => {
    const finding = find(analyze(session(3, dynamic)), 'breakpoint_before_change');
    expect(finding).toMatchObject({ requests: [1, 2], segmentPath: 'system[1]' });
    expect(finding!.fix).toContain('system[0]');
    expect(finding!.message).toContain('≈1,600 unchanged tokens');
  });

  it('does not fire when a breakpoint precedes the change', () => {
    const guarded = (n: number): SyntheticRequest => {
      const spec = dynamic(n);
      return { ...spec, system: [{ text: SYSTEM, marker: { ttl: '5m' } }, { text: spec.system![1]!.text }] };
    };
    expect(find(analyze(session(3, guarded)), 'breakpoint_before_change')).toBeUndefined();
  });
});

describe('no_breakpoint', () => {
  it('fires when no request carries a breakpoint', () => {
    const bare = (n: number) => goodTurn(n, { system: [{ text: SYSTEM }], topLevelMarker: undefined });
    const finding = find(analyze(session(4, bare)), 'no_breakpoint');
    // The last request has no follower, so a breakpoint there would only add a write nobody reads.
    expect(finding).toMatchObject({ requests: [0, 1, 2], segmentPath: null, severity: 'warning' });
    expect(finding!.message).toContain('requests 1–3, 3×');
  });

  it('stays quiet for a prompt too short to cache anyway', () => {
    const tiny: SyntheticRequest = { messages: [{ role: 'user', text: 'synthetic hi' }] };
    expect(find(analyze([tiny], () => 10), 'no_breakpoint')).toBeUndefined();
  });
});

describe('missing_tail_breakpoint', () => {
  const halfFix = (n: number) => goodTurn(n, { topLevelMarker: undefined });

  it('fires with the savings figure when only the stable prefix has a breakpoint', () => {
    const analysis = analyze(session(8, halfFix));
    const finding = find(analysis, 'missing_tail_breakpoint');
    expect(analysis.cost.savingsFraction).toBeGreaterThanOrEqual(0.1);
    expect(finding).toMatchObject({ severity: 'warning', requests: [1, 2, 3, 4, 5, 6, 7] });
    expect(finding!.message).toContain(`${(analysis.cost.savingsFraction * 100).toFixed(1)}%`);
  });

  it('never leaves a cost gap without a finding', () => {
    for (const make of [halfFix, (n: number) => goodTurn(n)]) {
      const analysis = analyze(session(5, make));
      const gap = analysis.cost.actual.totals.total - analysis.cost.optimized.totals.total;
      expect(analysis.findings.length > 0).toBe(gap >= 0.00005);
    }
  });
});

describe('too_many_breakpoints', () => {
  it('fires as an error when a request carries more than four', () => {
    const marked: SyntheticMessage[] = loopMessages('m', 2).map((m) => ({ ...m, marker: { ttl: '5m' as const } }));
    const finding = find(analyze([goodTurn(0), goodTurn(2, { messages: marked })]), 'too_many_breakpoints');
    // 1 on the system block + 5 on messages; the top-level marker lands on the last block, which already has a
    // 5m marker, so it adds none: 6.
    expect(finding).toMatchObject({ severity: 'error', requests: [1] });
    expect(finding!.message).toContain('6 cache breakpoints');
  });

  it('groups the requests of one model into one finding that names the largest count among them', () => {
    const marked = (turns: number): SyntheticMessage[] => loopMessages('m', turns).map((m) => ({ ...m, marker: { ttl: '5m' as const } }));
    // 1 system + 5 message markers, then 1 + 7 in the next turn.
    const finding = find(analyze([goodTurn(2, { messages: marked(2) }), goodTurn(3, { messages: marked(3) })]), 'too_many_breakpoints');
    expect(finding).toMatchObject({ requests: [0, 1] });
    expect(finding!.message).toContain('8 cache breakpoints');
  });

  it('does not fire at exactly four', () => {
    const four: SyntheticMessage[] = loopMessages('m', 1).map((m, i) => (i < 2 ? { ...m, marker: { ttl: '5m' as const } } : m));
    expect(find(analyze([goodTurn(1, { messages: four })]), 'too_many_breakpoints')).toBeUndefined();
  });
});

describe('lookback_exceeded', () => {
  it('fires when the previous entry lies more than 20 positions behind the only breakpoint', () => {
    const first = loopMessages('l', 1);
    first[first.length - 1] = { ...first[first.length - 1]!, marker: { ttl: '5m' } };
    const second = loopMessages('l', 13); // 27 messages: the previous tail is 24 positions back
    second[second.length - 1] = { ...second[second.length - 1]!, marker: { ttl: '5m' } };
    const specs: SyntheticRequest[] = [
      { tools: TOOLS, system: [{ text: SYSTEM }], messages: first },
      { tools: TOOLS, system: [{ text: SYSTEM }], messages: second },
    ];
    const finding = find(analyze(specs), 'lookback_exceeded');
    expect(finding).toMatchObject({ requests: [1] });
    expect(finding!.message).toContain('24 positions');
  });
});

describe('near_duplicate_content', () => {
  it('fires on a file read twice in one conversation and not on distinct reads', () => {
    const file = Array.from({ length: 50 }, (_, i) => `synthetic line ${i} of ledger source with value ${i * 3}`).join('\n');
    const messages = (second: string): SyntheticMessage[] => [
      { role: 'user', text: 'synthetic: fix the ledger' },
      { role: 'tool', text: file },
      { role: 'assistant', text: 'synthetic: reading it again' },
      { role: 'tool', text: second },
    ];
    const duplicate = find(analyze([goodTurn(0, { messages: messages(file) })]), 'near_duplicate_content');
    expect(duplicate).toMatchObject({ severity: 'info', requests: [0], segmentPath: 'messages[1].content[0]' });
    expect(duplicate!.message).toContain('≈400 tokens repeated');
    expect(find(analyze([goodTurn(0, { messages: messages('a different synthetic file with other words in it') })]), 'near_duplicate_content')).toBeUndefined();
  });
});

describe('describeRequests', () => {
  it('writes 1-based ranges and a count', () => {
    expect(describeRequests([2])).toBe('request 3');
    expect(describeRequests([1, 2, 3, 6, 8, 9])).toBe('requests 2–4, 7, 9–10, 6×');
  });
});

describe('openai_explicit_no_breakpoint', () => {
  it('fires when GPT-5.6 explicit mode has no breakpoint, and not in implicit mode', () => {
    const specs = (): SyntheticRequest[] =>
      session(3, (n) => ({ format: 'openai-chat', model: 'gpt-5.6-terra', messages: [{ role: 'system', text: SYSTEM }, ...loopMessages('o', n)] }));
    const run = (mode: 'explicit' | 'implicit') => {
      const requests = makeRequests(specs());
      for (const request of requests) request.options.promptCacheMode = mode;
      return analyzeCache({
        requests,
        segmentTokens: requests.map((r) => r.segments.map(() => 600)),
        overheadTokens: requests.map(() => 0),
        pricingOf: () => lookupModel('gpt-5.6-terra')!.pricing,
      });
    };
    expect(find(run('explicit'), 'openai_explicit_no_breakpoint')).toMatchObject({ severity: 'warning', requests: [0, 1, 2] });
    expect(find(run('implicit'), 'openai_explicit_no_breakpoint')).toBeUndefined();
  });
});

describe('no_breakpoint on a one-off request', () => {
  it('stays quiet when no later request builds on it (a breakpoint would only add a write)', () => {
    const single: SyntheticRequest = { tools: TOOLS, system: [{ text: SYSTEM }], messages: loopMessages('one-off', 2) };
    expect(find(analyze([single]), 'no_breakpoint')).toBeUndefined();
  });
});

describe('potential_savings', () => {
  it('speaks for a cost gap that no specific rule explains (a timestamp re-written inside the history)', () => {
    const chat = (n: number, stamp: string): SyntheticRequest => ({
      format: 'openai-chat',
      model: 'gpt-4o',
      messages: [{ role: 'user', text: `synthetic task sent at ${stamp}` }, ...loopMessages('h', n).slice(1)],
    });
    const specs = [chat(1, '2026-11-30T05:00:00Z'), chat(2, '2026-11-30T05:01:00Z'), chat(3, '2026-11-30T05:02:00Z')];
    const analysis = analyze(specs, () => 600);
    expect(analysis.cost.potentialSavings).toBeGreaterThan(0.00005);
    expect(codes(analysis)).toEqual(['potential_savings']);
    expect(find(analysis, 'potential_savings')!.requests).toEqual([1, 2]);
  });
});

describe('requests rebuilt from a transcript', () => {
  it('never claims a breakpoint is missing where the log cannot say where the agent put them', () => {
    const requests = makeRequests(session(5, (n) => goodTurn(n, { system: [{ text: SYSTEM }], topLevelMarker: undefined })));
    const analysis = analyzeCache({
      requests,
      segmentTokens: requests.map((r) => r.segments.map(() => 400)),
      overheadTokens: requests.map(() => 0),
      pricingOf: () => lookupModel('claude-sonnet-4-5')!.pricing,
      breakpointsUnknown: () => true,
    });
    expect(analysis.cost.potentialSavings).toBeGreaterThan(0);
    expect(analysis.findings).toEqual([]);
    expect(analysis.requestsWithUnknownBreakpoints).toBe(5);
    // The same requests from a request log: the missing breakpoints are a fact and a finding.
    expect(codes(analyze(session(5, (n) => goodTurn(n, { system: [{ text: SYSTEM }], topLevelMarker: undefined }))))).toContain('no_breakpoint');
  });
});

describe('empty input', () => {
  it('has no conversations, no cost and no findings', () => {
    const analysis = analyze([]);
    expect(analysis.conversations.count).toBe(0);
    expect(analysis.findings).toEqual([]);
    expect(analysis.cost.actual.totals.total).toBe(0);
    expect(analysis.nearDuplicates).toEqual([]);
  });
});
