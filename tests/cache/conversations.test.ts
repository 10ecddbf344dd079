import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { findConversations } from '../../src/core/cache/conversations.ts';
import { loopMessages, makeRequest, makeRequests, type SyntheticRequest } from './conversations-helpers.ts';

const setup = { tools: ['read_file', 'bash'], system: [{ text: 'synthetic agent system prompt' }] };
const turn = (topic: string, n: number, extra: Partial<SyntheticRequest> = {}): SyntheticRequest => ({
  ...setup,
  messages: loopMessages(topic, n),
  ...extra,
});

describe('findConversations', () => {
  it('pairs each turn of one loop with the turn before it', () => {
    const result = findConversations(makeRequests([turn('a', 0), turn('a', 1), turn('a', 2), turn('a', 3)]));
    expect(result).toEqual({
      conversationOf: [0, 0, 0, 0],
      continues: [null, 0, 1, 2],
      kind: ['new', 'continues', 'continues', 'continues'],
      count: 1,
    });
  });

  it('reads an interleaved conversation exactly as it reads alone', () => {
    // a0 b0 a1 side0 b1 a2 side1 b2: two loops on one setup plus side requests on another model and setup.
    const side = (n: number): SyntheticRequest => ({
      model: 'claude-haiku-4-5',
      system: [{ text: 'synthetic title generator' }],
      messages: [{ role: 'user', text: `synthetic title request ${n}` }],
    });
    const specs = [turn('a', 0), turn('b', 0), turn('a', 1), side(0), turn('b', 1), turn('a', 2), side(1), turn('b', 2)];
    const result = findConversations(makeRequests(specs));
    expect(result.conversationOf).toEqual([0, 1, 0, 2, 1, 0, 3, 1]);
    expect(result.kind).toEqual(['new', 'same-setup', 'continues', 'new', 'continues', 'continues', 'same-setup', 'continues']);
    expect(result.continues).toEqual([null, 0, 0, null, 1, 2, 3, 4]);
    expect(result.count).toBe(4);

    const alone = findConversations(makeRequests([turn('a', 0), turn('a', 1), turn('a', 2)]));
    const aIndices = [0, 2, 5];
    expect(aIndices.map((i) => result.kind[i])).toEqual(alone.kind);
    expect(aIndices.map((i) => result.continues[i])).toEqual(alone.continues.map((c) => (c === null ? null : aIndices[c])));
  });

  it('treats a retry with the same messages as continuing the first attempt', () => {
    const result = findConversations(makeRequests([turn('a', 1), turn('a', 1)]));
    expect(result.kind).toEqual(['new', 'continues']);
    expect(result.continues).toEqual([null, 0]);
  });

  it('follows a sliding window that drops the oldest messages as an edited history', () => {
    const full = loopMessages('w', 3); // 7 messages
    const windowed = [...loopMessages('w', 4).slice(2)]; // drops the first two, re-sends 5 of the previous 7
    const result = findConversations(makeRequests([{ ...setup, messages: full }, { ...setup, messages: windowed }]));
    expect(result.kind).toEqual(['new', 'edited']);
    expect(result.continues).toEqual([null, 0]);
    expect(result.conversationOf).toEqual([0, 0]);
  });

  it('prefers the latest turn over the first turn when a tool result in the middle was trimmed', () => {
    const trimmed = loopMessages('t', 3);
    trimmed[2] = { role: 'user', text: 'synthetic t: [result trimmed]' };
    trimmed.push({ role: 'assistant', text: 'synthetic t: step 4' }, { role: 'user', text: 'synthetic t: result 4' });
    const result = findConversations(makeRequests([turn('t', 0), turn('t', 1), turn('t', 2), turn('t', 3), { ...setup, messages: trimmed }]));
    // Rule 1 alone would pair the last request with turn 0 (it starts with that single message).
    expect(result.kind[4]).toBe('edited');
    expect(result.continues[4]).toBe(3);
  });

  it('does not call a request that re-sends under half of any recent request an edit', () => {
    const other = [{ role: 'user' as const, text: 'synthetic unrelated question' }, ...loopMessages('x', 3).slice(0, 2)];
    const result = findConversations(makeRequests([turn('x', 3), { messages: other }]));
    // Shares 2 of the first request's 7 messages, has no setup: a new conversation.
    expect(result.kind).toEqual(['new', 'new']);
    expect(result.conversationOf).toEqual([0, 1]);
  });

  it('keeps a Chat Completions loop together when its system message changes every request', () => {
    const chat = (n: number, time: string): SyntheticRequest => ({
      format: 'openai-chat',
      model: 'gpt-4o',
      messages: [{ role: 'system', text: `synthetic assistant, now ${time}` }, ...loopMessages('c', n)],
    });
    const result = findConversations(makeRequests([chat(0, '2026-11-30T05:00:00Z'), chat(1, '2026-11-30T05:01:00Z'), chat(2, '2026-11-30T05:02:00Z')]));
    expect(result.kind).toEqual(['new', 'edited', 'edited']);
    expect(result.continues).toEqual([null, 0, 1]);
  });

  it('matches a new conversation on the same setup even with tools reordered and a timestamp changed', () => {
    const first: SyntheticRequest = { tools: ['a', 'b', 'c'], system: [{ text: 'synthetic, today 2026-11-29' }], messages: loopMessages('p', 1) };
    const unrelated: SyntheticRequest = { tools: ['z'], system: [{ text: 'synthetic other app' }], messages: loopMessages('q', 0) };
    const second: SyntheticRequest = { tools: ['c', 'a', 'b'], system: [{ text: 'synthetic, today 2026-11-30' }], messages: loopMessages('r', 0) };
    const result = findConversations(makeRequests([first, unrelated, second]));
    expect(result.kind).toEqual(['new', 'new', 'same-setup']);
    expect(result.continues).toEqual([null, null, 0]);
    expect(result.conversationOf).toEqual([0, 1, 2]);
  });

  it('handles requests without messages and an empty input', () => {
    expect(findConversations([])).toEqual({ conversationOf: [], continues: [], kind: [], count: 0 });
    const result = findConversations(makeRequests([{ messages: [] }, { messages: [] }]));
    expect(result.kind).toEqual(['new', 'new']);
    expect(result.count).toBe(2);
  });

  it('handles a batch of 20,000 unrelated requests sharing only their tools without quadratic work', () => {
    const specs: SyntheticRequest[] = Array.from({ length: 20_000 }, (_, i) => ({
      tools: ['read_file', 'bash'],
      system: [{ text: `synthetic batch item ${i} instructions` }],
      messages: [{ role: 'user', text: `synthetic batch question ${i}` }],
    }));
    // Each lookup scans a bounded number of recent conversations and setups, not every earlier one.
    const result = findConversations(makeRequests(specs));
    expect(result.count).toBe(20_000);
    expect(result.kind.slice(1).every((k) => k === 'same-setup')).toBe(true);
    // Each is compared with the latest request sharing the most setup items (the two tools).
    expect(result.continues.slice(1, 4)).toEqual([0, 1, 2]);
  });

  it('separates 150 interleaved conversations of 20 turns (3,000 requests)', () => {
    const specs: SyntheticRequest[] = [];
    for (let t = 0; t < 20; t++) for (let c = 0; c < 150; c++) specs.push(turn(`conv${c}`, t));
    const result = findConversations(makeRequests(specs));
    expect(result.count).toBe(150);
    for (let i = 150; i < specs.length; i++) {
      expect(result.kind[i]).toBe('continues');
      expect(result.continues[i]).toBe(i - 150);
      expect(result.conversationOf[i]).toBe(i % 150);
    }
    expect(result.kind.slice(1, 150).every((k) => k === 'same-setup')).toBe(true);
  });

  it('numbers a message by its blocks whether they come one after another or split around another message', () => {
    // Message 0 has two blocks; in the second request its second block comes after message 1's block.
    const first = makeRequest(turn('split', 1), 0);
    const next = makeRequest(turn('split', 2), 1);
    const m0 = first.segments.findIndex((s) => s.messageIndex === 0);
    const second = { ...first.segments[m0]!, wire: '{"type":"text","text":"synthetic second block"}', wireId: 1e6 + 1, text: 'synthetic second block' };
    first.segments.splice(m0 + 1, 0, second);
    next.segments.splice(next.segments.findIndex((s) => s.messageIndex === 1) + 1, 0, second);
    expect(findConversations([first, next]).kind).toEqual(['new', 'continues']);
  });

  it('reuses the id of a resent message only when all of its blocks are the same objects', () => {
    // As the importers do: the resent message's segment objects are shared with the earlier request.
    const first = makeRequest(turn('shared', 1), 0);
    const resent = makeRequest(turn('shared', 2), 1);
    resent.segments.splice(0, first.segments.length, ...first.segments);
    expect(findConversations([first, resent]).kind).toEqual(['new', 'continues']);
    // The same first block object, then one more block in that message: a different message, not a continuation.
    const grown = makeRequest(turn('shared', 2), 2);
    grown.segments.splice(0, first.segments.length, ...first.segments);
    const last = first.segments.at(-1)!;
    grown.segments.splice(first.segments.length, 0, { ...last, wire: '{"type":"text","text":"synthetic extra"}', wireId: 1e6, text: 'synthetic extra' });
    expect(findConversations([first, grown]).kind).toEqual(['new', 'edited']);
  });
});

describe('message identity', () => {
  it('treats string content and the same text as a one-block array as one message', () => {
    const first = makeRequest({ ...setup, messages: loopMessages('s', 0) }, 0);
    const second = makeRequest({ ...setup, messages: loopMessages('s', 1) }, 1);
    // The SDK moved the rolling marker: the first message is now sent as a plain string.
    const block = second.segments.find((s) => s.messageIndex === 0)!;
    block.wire = JSON.stringify({ role: 'user', content: block.text });
    block.path = 'messages[0].content';
    expect(findConversations([first, second]).kind).toEqual(['new', 'continues']);
  });
});

const REAL = path.resolve(__dirname, '../../../shared/fixtures/real');
const realSequences = existsSync(REAL)
  ? ['anthropic-messages', 'openai-chat', 'openai-responses'].flatMap((dir) =>
      readdirSync(path.join(REAL, dir))
        .filter((name) => name.endsWith('_seq.jsonl'))
        .map((name) => path.join(dir, name)),
    )
  : [];
// previous_response_id chains carry only new input per request: the file does not hold the shared history.
const SERVER_STATE = 'openai-responses/pai_previous_response_id_chain_seq.jsonl';

(realSequences.length > 0 ? describe : describe.skip)(
  `real recorded conversations (${realSequences.length > 0 ? REAL : 'skipped: ../shared/fixtures/real not found'})`,
  () => {
    it.each(realSequences.filter((file) => file !== SERVER_STATE))('%s reads as one conversation, each turn continuing the last', async (file) => {
      const analysis = await analyzeInput([{ name: file, bytes: new Uint8Array(readFileSync(path.join(REAL, file))) }]);
      const result = findConversations(analysis.requests);
      const n = analysis.requests.length;
      expect(n).toBeGreaterThan(1);
      expect(result.count).toBe(1);
      expect(result.kind).toEqual(['new', ...Array<string>(n - 1).fill('continues')]);
      expect(result.continues).toEqual([null, ...Array.from({ length: n - 1 }, (_, i) => i)]);
    });

    it('reads a previous_response_id chain as separate conversations of one setup', async () => {
      const analysis = await analyzeInput([{ name: SERVER_STATE, bytes: new Uint8Array(readFileSync(path.join(REAL, SERVER_STATE))) }]);
      const result = findConversations(analysis.requests);
      expect(result.kind[0]).toBe('new');
      expect(result.kind.slice(1).every((k) => k === 'same-setup')).toBe(true);
    });
  },
);

describe('Chat Completions conversations sharing a system message', () => {
  it('keeps two interleaved one-turn conversations apart (the shared system message is setup, not history)', () => {
    const chat = (topic: string, turns: number): SyntheticRequest => ({
      format: 'openai-chat',
      model: 'gpt-4o',
      messages: [{ role: 'system', text: 'synthetic shared assistant prompt' }, ...loopMessages(topic, turns)],
    });
    const result = findConversations(makeRequests([chat('a', 0), chat('b', 0), chat('a', 1), chat('b', 1)]));
    expect(result.conversationOf).toEqual([0, 1, 0, 1]);
    expect(result.kind).toEqual(['new', 'same-setup', 'continues', 'continues']);
    expect(result.continues).toEqual([null, 0, 0, 1]);
  });
});
