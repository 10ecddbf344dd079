// Prompt identity as the provider renders it, on request sequences like those a peer's test suite asserts
// (contextscope: prompt-identity, model-switch and modern OpenAI cache tests). Synthetic bodies.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { comparePrefix } from '../../src/core/cache/prefix.ts';

const encoder = new TextEncoder();
const LONG = 'Stable reference material for the assistant. '.repeat(200);

async function run(bodies: object[], format?: 'anthropic-messages' | 'openai-chat' | 'openai-responses') {
  const text = bodies.map((body) => JSON.stringify(body)).join('\n');
  const analysis = await analyzeInput([{ name: 'synthetic.jsonl', bytes: encoder.encode(text) }], format ? { format } : {});
  const simulated = analysis.cache!.cost.actual.simulation.requests;
  return {
    analysis,
    reads: simulated.map((r) => r.read),
    writes: simulated.map((r) => r.write5m + r.write1h),
    events: simulated.map((r) => r.events.map((e) => e.code)),
    findings: analysis.findings ?? [],
    matched: (a: number, b: number) => comparePrefix(analysis.requests[a]!.segments, analysis.requests[b]!.segments).commonSegments,
  };
}

describe('a string and the same text as one block are one identity', () => {
  it('Anthropic tool_result: string content, then the same text as a one-block list, keeps the cache', async () => {
    const history = (content: unknown) => [
      { role: 'user', content: LONG },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content, cache_control: { type: 'ephemeral' } }] },
    ];
    const first = { model: 'claude-sonnet-4-5', max_tokens: 8, messages: history('file text') };
    const second = {
      model: 'claude-sonnet-4-5',
      max_tokens: 8,
      messages: [...history([{ type: 'text', text: 'file text' }]), { role: 'assistant', content: 'ok' }, { role: 'user', content: [{ type: 'text', text: 'next', cache_control: { type: 'ephemeral' } }] }],
    };
    const { reads, writes, matched, findings } = await run([first, second]);
    expect(matched(0, 1)).toBe(3);
    expect(reads[1]).toBe(writes[0]);
    expect(findings.map((f) => f.code)).not.toContain('breakpoint_before_change');
  });

  it('Anthropic message content: a string and a marked one-block list compare equal; the role stays part of it', async () => {
    const text = (value: string) => ({ model: 'claude-sonnet-5', max_tokens: 8, messages: [{ role: 'user', content: value }] });
    const listed = { model: 'claude-sonnet-5', max_tokens: 8, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral', ttl: '1h' } }] }] };
    const asAssistant = { model: 'claude-sonnet-5', max_tokens: 8, messages: [{ role: 'assistant', content: [{ type: 'text', text: 'hello' }] }] };
    const { matched } = await run([text('hello'), listed, asAssistant]);
    expect(matched(0, 1)).toBe(1);
    expect(matched(0, 2)).toBe(0);
  });

  it('two blocks in one message are not two messages (Anthropic and Chat)', async () => {
    const block = (value: string) => ({ type: 'text', text: value });
    for (const [model, format] of [
      ['claude-sonnet-5', 'anthropic-messages'],
      ['gpt-4o', 'openai-chat'],
    ] as const) {
      const one = { model, max_tokens: 8, messages: [{ role: 'user', content: [block('a'), block('b')] }] };
      const two = { model, max_tokens: 8, messages: [{ role: 'user', content: [block('a')] }, { role: 'user', content: [block('b')] }] };
      const { matched } = await run([one, two], format);
      expect(matched(0, 1)).toBe(1);
    }
  });

  it('Chat tool message: string content and one text part are one identity; another tool_call_id is not', async () => {
    const tool = (callId: string, content: unknown) => ({ model: 'gpt-4o', messages: [{ role: 'tool', tool_call_id: callId, content }] });
    const { matched } = await run([tool('a', 'same result'), tool('a', [{ type: 'text', text: 'same result' }]), tool('b', 'same result')], 'openai-chat');
    expect(matched(0, 1)).toBe(1);
    expect(matched(0, 2)).toBe(0);
    expect(matched(1, 2)).toBe(0);
  });

  it('Responses function_call_output: a string output and one input_text part are one identity', async () => {
    const output = (callId: string, value: unknown) => ({ model: 'gpt-5', input: [{ type: 'function_call_output', call_id: callId, output: value }] });
    const { matched } = await run(
      [output('c1', 'same output'), output('c1', [{ type: 'input_text', text: 'same output' }]), output('c2', [{ type: 'input_text', text: 'same output' }])],
      'openai-responses',
    );
    expect(matched(0, 1)).toBe(1);
    expect(matched(1, 2)).toBe(0);
  });
});

describe('OpenAI explicit breakpoints inside a multipart function output', () => {
  it('are honoured, and the call id still routes the output', async () => {
    const part = (text: string, marked: boolean) => ({ type: 'input_text', text, ...(marked ? { prompt_cache_breakpoint: { mode: 'explicit' } } : {}) });
    const body = (callId: string, tail: string) => ({
      model: 'gpt-6-sol',
      prompt_cache_options: { mode: 'explicit' },
      input: [{ type: 'function_call_output', call_id: callId, output: [part(LONG, true), part(tail, false)] }],
    });
    const { analysis, reads, events, findings } = await run([body('a', 'first'), body('a', 'second'), body('b', 'second')], 'openai-responses');
    expect(analysis.requests[0]!.segments.map((s) => s.cacheMarker !== null)).toEqual([true, false]);
    expect(events.flat()).not.toContain('explicit_no_breakpoint');
    expect(findings.map((f) => f.code)).not.toContain('openai_explicit_no_breakpoint');
    expect(reads[0]).toBe(0);
    expect(reads[1]).toBeGreaterThan(1000);
    // Another call id is another output: nothing to read.
    expect(reads[2]).toBe(0);
  });
});

describe('cache routing isolates entries', () => {
  it('prompt_cache_key is case-sensitive and a reasoning effort change is a new prefix', async () => {
    const base = { model: 'gpt-5', input: [{ role: 'user', content: LONG }] };
    const { reads } = await run(
      [
        { ...base, prompt_cache_key: 'TenantA' },
        { ...base, prompt_cache_key: 'tenanta' },
        { ...base, prompt_cache_key: 'TenantA' },
        { ...base, prompt_cache_key: 'TenantA', reasoning: { effort: 'high' } },
      ],
      'openai-responses',
    );
    expect(reads[0]).toBe(0);
    expect(reads[1]).toBe(0);
    expect(reads[2]).toBeGreaterThan(1000);
    expect(reads[3]).toBe(0);
  });

  it('without a key, `user` routes lookups (the key replaces it)', async () => {
    const base = { model: 'gpt-4o', messages: [{ role: 'user', content: LONG }] };
    const { reads } = await run([{ ...base, user: 'u1' }, { ...base, user: 'u2' }, { ...base, user: 'u1' }, { ...base, user: 'u2', prompt_cache_key: 'k' }, { ...base, user: 'u1', prompt_cache_key: 'k' }], 'openai-chat');
    expect(reads.map((r) => r > 0)).toEqual([false, false, true, false, true]);
  });
});

describe('a model switch between conversations that share a setup', () => {
  const system = [{ type: 'text', text: LONG, cache_control: { type: 'ephemeral' } }];
  const turn = (model: string, n: number) => ({ model, max_tokens: 8, system, messages: [{ role: 'user', content: `turn ${n}` }] });

  it('reads nothing on the new model, and is a finding at the first request on it', async () => {
    const { reads, findings } = await run([turn('claude-opus-5', 0), turn('claude-opus-5', 1), turn('claude-sonnet-5-5', 2), turn('claude-sonnet-5-5', 3)]);
    expect(reads[1]).toBeGreaterThan(0);
    expect(reads[2]).toBe(0);
    expect(reads[3]).toBeGreaterThan(0);
    const switches = findings.filter((f) => f.code === 'model_changed');
    expect(switches.map((f) => f.requests)).toEqual([[2]]);
    expect(switches[0]!.message).toContain('claude-opus-5');
  });

  it('a dated snapshot and its alias are one model', async () => {
    // Haiku 4.5 caches from 4,096 tokens: a longer setup.
    const long = [{ type: 'text', text: LONG.repeat(3), cache_control: { type: 'ephemeral' } }];
    const haiku = (model: string, n: number) => ({ ...turn(model, n), system: long });
    const { reads, findings } = await run([haiku('claude-haiku-4-5-20251001', 0), haiku('claude-haiku-4-5', 1)]);
    expect(reads[1]).toBeGreaterThan(0);
    expect(findings.map((f) => f.code)).not.toContain('model_changed');
  });

  it('applies to OpenAI automatic caching too', async () => {
    const messages = [{ role: 'system', content: LONG }, { role: 'user', content: 'hi' }];
    const { reads, findings } = await run([{ model: 'gpt-6-sol', messages }, { model: 'gpt-6-luna', messages }], 'openai-chat');
    expect(reads[1]).toBe(0);
    expect(findings.map((f) => f.code)).toContain('model_changed');
  });
});

describe('a read never exceeds the prefix an earlier request wrote', () => {
  it('Anthropic: the next turn reads what the first wrote, its own extra framing is written', async () => {
    const turn = (n: number) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 8,
      cache_control: { type: 'ephemeral' },
      system: LONG,
      messages: Array.from({ length: 2 * n - 1 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i}` })),
    });
    const { analysis, reads, writes } = await run([turn(1), turn(2), turn(3)]);
    const totals = analysis.tokens.map((t) => t.total);
    expect(writes[0]).toBe(totals[0]);
    expect(reads[1]).toBe(totals[0]);
    expect(reads[2]).toBe(totals[1]);
    for (let r = 1; r < 3; r++) expect(reads[r]).toBeLessThanOrEqual(reads[r - 1]! + writes[r - 1]!);
  });

  it('OpenAI: the cached prefix of a continuing request is at most the earlier prompt, rounded down', async () => {
    const turn = (n: number) => ({ model: 'gpt-4o', messages: [{ role: 'system', content: LONG }, ...Array.from({ length: n }, (_, i) => ({ role: 'user', content: `message ${i}` }))] });
    const { analysis, reads } = await run([turn(1), turn(2)], 'openai-chat');
    expect(reads[1]).toBe(Math.floor(analysis.tokens[0]!.total / 128) * 128);
    expect(reads[1]).toBeLessThanOrEqual(analysis.tokens[0]!.total);
  });
});

describe('the optimized identity keeps routing ids', () => {
  it('a UUID-shaped tool_use_id or call_id is not a volatile value; a timestamp in text still is', async () => {
    const { optimizedWire } = await import('../../src/core/cache/normalize.ts');
    const id = (value: string) => ({ wire: JSON.stringify({ type: 'tool_result', tool_use_id: value, content: 'same result' }) });
    expect(optimizedWire(id('12345678-1234-1234-1234-123456789abc'))).not.toBe(optimizedWire(id('87654321-1234-1234-1234-123456789abc')));
    const call = (value: string) => ({ wire: JSON.stringify({ type: 'function_call_output', call_id: value, output: 'same output' }) });
    expect(optimizedWire(call('12345678-1234-1234-1234-123456789abc'))).not.toBe(optimizedWire(call('87654321-1234-1234-1234-123456789abc')));
    const text = (time: string) => ({ wire: JSON.stringify({ type: 'text', text: `Time: ${time}`, id: 'fixed' }) });
    expect(optimizedWire(text('2026-10-04T10:00:00Z'))).toBe(optimizedWire(text('2026-10-04T10:10:00Z')));
    expect(optimizedWire(text('2026-10-04T10:00:00Z'))).toBe('{"id":"fixed","text":"Time: <timestamp>","type":"text"}');
  });

  it('two requests differing only in a UUID tool_use_id share nothing in either scenario', async () => {
    const make = (id: string) => ({ model: 'claude-sonnet-5', max_tokens: 8, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'stable result '.repeat(1500) }] }], cache_control: { type: 'ephemeral' } });
    const { analysis } = await run([make('12345678-1234-1234-1234-123456789abc'), make('87654321-1234-1234-1234-123456789abc')]);
    expect(analysis.cache!.cost.actual.simulation.requests[1]!.read).toBe(0);
    expect(analysis.cache!.cost.optimized.simulation.requests[1]!.read).toBe(0);
  });
});
