// Prefix identity: the tokens of a prefix depend only on the prefix. Generated conversations (synthetic bodies) for
// each wire format grow by appending turns, editing an earlier message and trimming a tool result; in every request
// the tokens through block k are the same as in every other request with the same first k+1 blocks, the
// simulation's views count exactly that, and a breakpoint on an unchanged system prompt writes once, then only reads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { cacheInputOf } from '../../src/core/analysis/attach.ts';
import type { Analysis } from '../../src/core/analysis/types.ts';
import { prefixTokensThrough } from '../../src/core/cache/prefix.ts';
import type { WireFormat } from '../../src/core/model.ts';

type Op = { kind: 'append'; tool: boolean; words: number } | { kind: 'edit'; at: number } | { kind: 'trim'; at: number };

const SYSTEM = 'Synthetic reference material the assistant keeps for the whole session. '.repeat(150);
const MODELS: Record<WireFormat, string> = { 'anthropic-messages': 'claude-sonnet-4-5', 'openai-chat': 'gpt-4o', 'openai-responses': 'gpt-5' };

/** One turn as a neutral list of messages; each format writes it in its own shape. */
interface Turn {
  role: 'user' | 'assistant';
  text: string;
  /** A tool call by the assistant and its result in the next user turn. */
  call?: { id: string; result: string };
}

function apply(history: Turn[], op: Op, n: number): Turn[] {
  if (op.kind === 'append') {
    const text = `synthetic turn ${n} `.repeat(op.words);
    if (op.tool) return [...history, { role: 'assistant', text: `calling ${n}`, call: { id: `call_${n}`, result: `output ${n} `.repeat(op.words) } }];
    return [...history, { role: history.at(-1)?.role === 'user' ? 'assistant' : 'user', text }];
  }
  if (history.length === 0) return history;
  const at = op.at % history.length;
  const turn = history[at]!;
  if (op.kind === 'edit') return history.map((t, i) => (i === at ? { ...t, text: `${t.text} (edited ${n})` } : t));
  // Trim: a tool result replaced by a stub (or, without one, the oldest turn dropped).
  if (turn.call !== undefined) return history.map((t, i) => (i === at ? { ...t, call: { id: turn.call!.id, result: '[trimmed]' } } : t));
  return history.slice(1);
}

function anthropicBody(history: Turn[]): object {
  const messages: object[] = [];
  for (const turn of history) {
    if (turn.call === undefined) messages.push({ role: turn.role, content: turn.text });
    else {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: turn.text }, { type: 'tool_use', id: turn.call.id, name: 'read', input: { path: turn.call.id } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: turn.call.id, content: turn.call.result }] });
    }
  }
  return {
    model: MODELS['anthropic-messages'],
    max_tokens: 8,
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    tools: [{ name: 'read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
    messages,
  };
}

function chatBody(history: Turn[]): object {
  const messages: object[] = [{ role: 'system', content: SYSTEM }];
  for (const turn of history) {
    if (turn.call === undefined) messages.push({ role: turn.role, content: turn.text });
    else {
      messages.push({ role: 'assistant', content: turn.text, tool_calls: [{ id: turn.call.id, type: 'function', function: { name: 'read', arguments: `{"path":"${turn.call.id}"}` } }] });
      messages.push({ role: 'tool', tool_call_id: turn.call.id, content: turn.call.result });
    }
  }
  return { model: MODELS['openai-chat'], messages };
}

function responsesBody(history: Turn[]): object {
  const input: object[] = [];
  for (const turn of history) {
    if (turn.call === undefined) input.push({ role: turn.role, content: turn.text });
    else {
      input.push({ role: 'assistant', content: turn.text });
      input.push({ type: 'function_call', call_id: turn.call.id, name: 'read', arguments: `{"path":"${turn.call.id}"}` });
      input.push({ type: 'function_call_output', call_id: turn.call.id, output: turn.call.result });
    }
  }
  return { model: MODELS['openai-responses'], instructions: SYSTEM, input };
}

const BODIES: Record<WireFormat, (history: Turn[]) => object> = {
  'anthropic-messages': anthropicBody,
  'openai-chat': chatBody,
  'openai-responses': responsesBody,
};

async function analyzeConversation(format: WireFormat, ops: Op[]): Promise<Analysis> {
  let history: Turn[] = [{ role: 'user', text: 'synthetic opening question' }];
  const bodies = [BODIES[format](history)];
  ops.forEach((op, n) => {
    history = apply(history, op, n);
    if (history.length === 0) history = [{ role: 'user', text: `synthetic restart ${n}` }];
    bodies.push(BODIES[format](history));
  });
  const bytes = new TextEncoder().encode(bodies.map((body) => JSON.stringify(body)).join('\n'));
  return analyzeInput([{ name: 'synthetic.jsonl', bytes }], { format });
}

/** Every request's prefix tokens through each block, keyed by the blocks' contents: one count per key. */
function prefixCounts(analysis: Analysis): { conflicts: string[]; keys: number } {
  const input = cacheInputOf(analysis);
  const seen = new Map<string, number>();
  const conflicts: string[] = [];
  analysis.requests.forEach((request, r) => {
    let key = '';
    request.segments.forEach((segment, k) => {
      key += `${segment.hash}|`;
      const tokens = prefixTokensThrough(input, r, k + 1);
      const earlier = seen.get(key);
      if (earlier === undefined) seen.set(key, tokens);
      else if (earlier !== tokens) conflicts.push(`request ${r + 1} block ${k}: ${tokens} vs ${earlier}`);
    });
  });
  return { conflicts, keys: seen.size };
}

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), tool: fc.boolean(), words: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('trim' as const), at: fc.nat() }),
);

describe('the tokens of a prefix depend only on the prefix', () => {
  for (const format of ['anthropic-messages', 'openai-chat', 'openai-responses'] as const) {
    it(`${format}: the same blocks count the same in every request, and the views count them so`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
          const analysis = await analyzeConversation(format, ops);
          const { conflicts, keys } = prefixCounts(analysis);
          expect(conflicts).toEqual([]);
          expect(keys).toBeGreaterThan(0);
          // Request totals are the sum of the parts, the framing included exactly once.
          const input = cacheInputOf(analysis);
          analysis.requests.forEach((request, r) => {
            expect(prefixTokensThrough(input, r, request.segments.length)).toBe(analysis.tokens[r]!.total);
            expect(analysis.cache!.cost.actual.simulation.requests[r]!.promptTokens).toBe(analysis.tokens[r]!.total);
          });
        }),
        { numRuns: 12 },
      );
    }, 120_000);
  }

  it('anthropic: a breakpoint on an unchanged system prompt is written once and read by every later request', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const analysis = await analyzeConversation('anthropic-messages', ops);
        const simulated = analysis.cache!.cost.actual.simulation.requests;
        const input = cacheInputOf(analysis);
        // Tools then the system block: the prefix of the only breakpoint.
        const systemPrefix = prefixTokensThrough(input, 0, 2);
        expect(simulated[0]!.write5m).toBe(systemPrefix);
        for (const later of simulated.slice(1)) {
          expect(later.write5m + later.write1h).toBe(0);
          expect(later.read).toBe(systemPrefix);
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('openai gpt-4o: the system message is read in 128-token steps, the same in every request', async () => {
    const analysis = await analyzeConversation('openai-chat', [
      { kind: 'append', tool: false, words: 5 },
      { kind: 'append', tool: true, words: 30 },
      { kind: 'trim', at: 2 },
      { kind: 'append', tool: false, words: 12 },
    ]);
    const reads = analysis.cache!.cost.actual.simulation.requests.map((r) => r.read);
    expect(reads[0]).toBe(0);
    for (const read of reads.slice(1)) expect(read % 128).toBe(0);
    expect(reads[1]).toBeGreaterThanOrEqual(Math.floor(prefixTokensThrough(cacheInputOf(analysis), 0, 1) / 128) * 128);
    expect(analysis.cache!.cost.actual.simulation.requests.every((r) => r.write5m === 0)).toBe(true);
  });
});
