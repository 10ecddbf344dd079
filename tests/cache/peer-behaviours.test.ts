// Six behaviours a peer's test suite asserts (contextscope's threads and findings tests), each checked here against
// the provider's documented rule (shared/reference/provider-caching-and-prices.md) on synthetic bodies.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { cacheInputOf } from '../../src/core/analysis/attach.ts';
import { prefixTokensThrough } from '../../src/core/cache/prefix.ts';

const encoder = new TextEncoder();

async function run(bodies: object[], format?: 'anthropic-messages' | 'openai-chat') {
  const bytes = encoder.encode(bodies.map((body) => JSON.stringify(body)).join('\n'));
  const analysis = await analyzeInput([{ name: 'synthetic.jsonl', bytes }], format ? { format } : {});
  const simulated = analysis.cache!.cost.actual.simulation.requests;
  return {
    analysis,
    reads: simulated.map((r) => r.read),
    writes: simulated.map((r) => r.write5m + r.write1h),
    codes: (analysis.findings ?? []).map((f) => f.code),
    /** Tokens of request r's first `count` blocks and what precedes them. */
    prefix: (r: number, count: number) => prefixTokensThrough(cacheInputOf(analysis), r, count),
  };
}

const system = [{ type: 'text', text: 'You are a careful agent. '.repeat(400), cache_control: { type: 'ephemeral' } }];

describe('OpenAI automatic caching (before GPT-5.6): the longest prefix an earlier request sent', () => {
  const messages = (app: string, n: number) => [{ role: 'system', content: `${app} instructions. `.repeat(600) }, { role: 'user', content: `turn ${n}` }];
  const bodies = [0, 1, 2, 3, 4, 5].map((n) => ({ model: 'gpt-5.2', messages: messages(n % 2 ? 'second app' : 'first app', n) }));

  it('a system prompt shared across conversations is read by each later conversation, in 128-token steps', async () => {
    const { analysis, reads, writes, codes, prefix } = await run(bodies, 'openai-chat');
    expect(analysis.conversations!.count).toBe(6);
    expect(reads.map((r) => r > 0)).toEqual([false, false, true, true, true, true]);
    // The system message and its framing, rounded down to 128: the same in every request of the app.
    const systemPrefix = prefix(0, 1);
    expect(prefix(2, 1)).toBe(systemPrefix);
    expect(reads[2]).toBe(Math.floor(systemPrefix / 128) * 128);
    expect(reads[3]).toBe(Math.floor(prefix(1, 1) / 128) * 128);
    expect(writes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(codes).toEqual([]);
  });

  it('the read is the longest cached prefix, not the previous line: a longer shared history reads more', async () => {
    const long = (n: number) => ({
      model: 'gpt-5.2',
      messages: [...messages('first app', 0), { role: 'assistant', content: 'noted. '.repeat(300) }, { role: 'user', content: `follow-up ${n}` }],
    });
    const { reads, prefix } = await run([long(0), bodies[1]!, long(1)], 'openai-chat');
    // Request 3 shares three messages with request 1 (not with request 2, the line before it).
    expect(reads[2]).toBe(Math.floor(prefix(2, 3) / 128) * 128);
    expect(reads[2]).toBeGreaterThan(Math.floor(prefix(2, 1) / 128) * 128);
  });

  it('another prompt_cache_key does not share the prefix; the same key does', async () => {
    const keyed = (key: string, n: number) => ({ ...bodies[n % 2 === 0 ? n : 0]!, prompt_cache_key: key, messages: messages('first app', n) });
    const { reads } = await run([keyed('a', 0), keyed('b', 1), keyed('a', 2)], 'openai-chat');
    expect(reads.map((r) => r > 0)).toEqual([false, false, true]);
  });
});

describe('Anthropic: a trimmed tool result breaks the prefix at that block', () => {
  const message = (n: number) => ({ role: n % 2 ? 'assistant' : 'user', content: `message number ${n}, with enough words to be itself` });
  const call = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'read', input: { path: id } }] });
  const result = (id: string, content: string, marked = false) => ({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content, ...(marked ? { cache_control: { type: 'ephemeral' } } : {}) }],
  });
  const body = (messages: object[]) => ({ model: 'claude-sonnet-5', max_tokens: 8, system, messages });

  it('is an edit of the request it trims, even with another conversation in between; its system prefix still reads', async () => {
    const history = [message(0), message(1), message(2), message(3), message(4)];
    const trimmed = [message(0), { role: 'assistant', content: '[trimmed]' }, message(2), message(3), message(4), message(5)];
    const { analysis, reads, writes, prefix } = await run([body(history), body([{ role: 'user', content: 'an unrelated question' }]), body(trimmed)]);
    expect(analysis.conversations!.conversationOf).toEqual([0, 1, 0]);
    expect(analysis.conversations!.kind).toEqual(['new', 'same-setup', 'edited']);
    expect(analysis.cache!.prefixes[2]!.firstChange).toBe(2);
    // The only breakpoint is on the system block: its prefix is the same in all three, written once.
    expect(writes).toEqual([prefix(0, 1), 0, 0]);
    expect(reads).toEqual([0, prefix(0, 1), prefix(0, 1)]);
  });

  it('a breakpoint after the trimmed result reads only what precedes the trimmed block', async () => {
    const big = 'file contents line. '.repeat(400);
    const first = body([message(0), call('t1'), result('t1', big), call('t2'), result('t2', 'second output', true)]);
    const second = body([message(0), call('t1'), result('t1', '[trimmed]'), call('t2'), result('t2', 'second output'), call('t3'), result('t3', 'third', true)]);
    const { reads, writes, prefix } = await run([first, second]);
    // Blocks: system, message 0, then call/result pairs. The first request's entry at t2's result lies after the
    // trimmed block (index 3) and cannot match; walking back from the new breakpoint finds no entry before the trimmed
    // block except the system block's (only breakpoints write), so that is read and the rest is written.
    expect(writes[0]).toBe(prefix(0, 6));
    expect(reads[1]).toBe(prefix(1, 1));
    expect(writes[1]).toBe(prefix(1, 8) - prefix(1, 1));
  });
});

describe('five evaluation runs of one prompt', () => {
  const turns = (runId: number, upTo: number) => {
    const messages: unknown[] = [{ role: 'user', content: 'Solve the task in the repository.' }];
    for (let t = 0; t < upTo; t++) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `call_${runId}_${t}`, name: 'shell', input: { cmd: `step ${t} of run ${runId}` } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `call_${runId}_${t}`, content: `output ${t} of run ${runId}` }] });
    }
    return { model: 'claude-sonnet-5', max_tokens: 8, system, messages };
  };
  const bodies: object[] = [];
  for (let t = 0; t < 4; t++) for (let runId = 0; runId < 5; runId++) bodies.push(turns(runId, t));

  it('each run continues itself after the shared opening, and the system breakpoint is written once', async () => {
    const { analysis, reads, writes, codes, prefix } = await run(bodies);
    const { continues, kind } = analysis.conversations!;
    expect(codes.filter((c) => c !== 'missing_tail_breakpoint')).toEqual([]);
    for (let i = 5; i < bodies.length; i++) {
      expect(kind[i]).toBe('continues');
      if (i >= 10) expect(continues[i]).toBe(i - 5);
      else expect(continues[i]).toBeLessThan(5);
    }
    // One prefix (tools-free: the system block), counted the same in all twenty requests.
    const systemPrefix = prefix(0, 1);
    expect(bodies.map((_, r) => prefix(r, 1))).toEqual(bodies.map(() => systemPrefix));
    expect(writes).toEqual([systemPrefix, ...bodies.slice(1).map(() => 0)]);
    expect(reads).toEqual([0, ...bodies.slice(1).map(() => systemPrefix)]);
  });
});

describe('missing_tail_breakpoint', () => {
  const chunk = 'some tool output content that is reasonably long. '.repeat(20);
  const loop = (turns: number, rolling: boolean) => {
    const requests: object[] = [];
    const messages: { role: string; content: Record<string, unknown>[] }[] = [];
    for (let i = 0; i < turns; i++) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'read_file', input: {} }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `${chunk}${i}` }] });
      const copy = JSON.parse(JSON.stringify(messages)) as typeof messages;
      // A rolling breakpoint: on the newest block only (the API refuses more than four).
      if (rolling) copy.at(-1)!.content[0]!['cache_control'] = { type: 'ephemeral' };
      requests.push({ model: 'claude-sonnet-5', max_tokens: 8, system, messages: copy });
    }
    return requests;
  };

  it('fires when only the stable system prompt has a breakpoint, naming the uncached history and the saving', async () => {
    const { analysis, codes, writes, prefix } = await run(loop(6, false));
    expect(codes).toEqual(['missing_tail_breakpoint']);
    const finding = analysis.findings!.find((f) => f.code === 'missing_tail_breakpoint')!;
    expect(finding.requests).toEqual([1, 2, 3, 4, 5]);
    const cost = analysis.cache!.cost;
    expect(cost.savingsFraction).toBeGreaterThan(0.1);
    expect(finding.message).toContain(`${(cost.savingsFraction * 100).toFixed(1)}%`);
    // The system prefix is written by the first request only.
    expect(writes).toEqual([prefix(0, 1), 0, 0, 0, 0, 0]);
  });

  it('stays quiet once a rolling breakpoint covers the tail: actual and optimized cost agree', async () => {
    const { analysis, codes, reads, prefix } = await run(loop(6, true));
    expect(codes).toEqual([]);
    expect(analysis.cache!.cost.actual.totals.total).toBeCloseTo(analysis.cache!.cost.optimized.totals.total, 10);
    // Each turn reads the whole previous request: its prefix counts the same here as where it was written.
    for (let r = 1; r < 6; r++) expect(reads[r]).toBe(prefix(r - 1, 1 + 2 * r));
  });
});

describe('a near-duplicate is reported once per cause', () => {
  it('the same two copies in every conversation are one group, in the first conversation', async () => {
    const quoted = 'The refund policy, quoted in full for reference. '.repeat(40);
    const request = (n: number) => ({ model: 'claude-sonnet-5', max_tokens: 8, system: [{ type: 'text', text: quoted }, { type: 'text', text: quoted }], messages: [{ role: 'user', content: `question ${n}` }] });
    const { analysis } = await run([0, 1, 2, 3, 4, 5].map(request));
    expect(analysis.conversations!.count).toBe(6);
    expect(analysis.nearDuplicates).toEqual([{ requestIndex: 0, segments: [0, 1], similarity: 1 }]);
    const findings = analysis.findings!.filter((f) => f.code === 'near_duplicate_content');
    expect(findings.map((f) => f.requests)).toEqual([[0]]);
  });

  it('a copy of other content in a later conversation is still its own group', async () => {
    const text = (label: string) => `${label} policy, quoted in full for reference. `.repeat(40);
    const request = (label: string) => ({ model: 'claude-sonnet-5', max_tokens: 8, system: [{ type: 'text', text: text(label) }, { type: 'text', text: text(label) }], messages: [{ role: 'user', content: label }] });
    const { analysis } = await run([request('refund'), request('shipping')]);
    expect(analysis.nearDuplicates!.map((g) => g.requestIndex)).toEqual([0, 1]);
  });
});
