// The two one-way adapters: every mapping rule, every refusal with its index, and their caps.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGES, MAX_PARTS_PER_MESSAGE } from '../../src/core/dupes/limits.ts';
import { assertSchemaValid, recordOf } from './helpers.ts';

const chat = (messages: unknown) => ({ adapter: 'openai-chat-v1', messages });
const cone = (events: unknown) => ({ adapter: 'conereplay-v1', trace: { events } });
/** A ConeReplay EventRecord (reference/log-formats.md §3) with synthetic values. */
const event = (seq: number, inputs: unknown, outputs: unknown) => ({
  event_id: `ev-${seq}`,
  agent_id: 'synthetic-agent',
  turn_seq: seq,
  kind: 'llm_sampling',
  inputs,
  outputs,
  causal_parents: seq > 1 ? [`ev-${seq - 1}`] : [],
  content_hash: 'synthetic',
  timestamp_ns: 1_700_000_000_000_000_000 + seq,
});

describe('openai-chat-v1', () => {
  it('maps string content to one block and skips null or absent content', () => {
    const record = recordOf(
      chat([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi there' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'assistant', tool_calls: [] },
        { role: 'tool', tool_call_id: 'c1', content: 'result' },
      ]),
    );
    expect(record.adapter).toBe('openai-chat-v1');
    expect(record.mapping).toBe('openai-chat-messages-v1');
    expect(record.result).toBe('pass');
    expect(record.blocks.map((b) => b.origin)).toEqual([{ message: 0 }, { message: 1 }, { message: 4 }]);
    expect(record.blocks.map((b) => [b.bytes, b.tokens])).toEqual([[8, 2], [8, 2], [6, 1]]);
    assertSchemaValid(record);
  });

  it('maps each text part to a block and counts the ignored non-text parts', () => {
    const record = recordOf(
      chat([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
            { type: 'text', text: 'look' },
          ],
        },
      ]),
    );
    expect(record.result).toBe('fail');
    expect(record.ignoredParts).toBe(2);
    expect(record.blocks.map((b) => b.origin)).toEqual([{ message: 0, part: 0 }, { message: 0, part: 3 }]);
    expect(record.duplicates[0]).toMatchObject({ indices: [0, 1], copies: 1, wastedBytes: 4, wastedTokens: 1 });
  });

  it('detects the same system prompt resent across the array', () => {
    const system = { role: 'system', content: 'You are a careful reviewer.' };
    const record = recordOf(chat([system, { role: 'user', content: 'one' }, system, { role: 'user', content: 'two' }, system]));
    expect(record.result).toBe('fail');
    expect(record.duplicates).toHaveLength(1);
    expect(record.duplicates[0]).toMatchObject({ occurrences: 3, indices: [0, 2, 4], copies: 2, bytesPerBlock: 27, tokensPerBlock: 5, wastedBytes: 54, wastedTokens: 10 });
  });

  it.each([
    [chat({}), 'MESSAGES_NOT_ARRAY', { field: 'messages' }],
    [{ adapter: 'openai-chat-v1' }, 'MESSAGES_NOT_ARRAY', { field: 'messages' }],
    [chat([{ content: 'a' }, 'user']), 'MESSAGE_NOT_OBJECT', { field: 'messages', messageIndex: 1 }],
    [chat([{ content: 'a' }, { content: 42 }]), 'CONTENT_UNSUPPORTED', { field: 'content', messageIndex: 1 }],
    [chat([{ content: { type: 'text', text: 'a' } }]), 'CONTENT_UNSUPPORTED', { field: 'content', messageIndex: 0 }],
    [chat([{ content: true }]), 'CONTENT_UNSUPPORTED', { field: 'content', messageIndex: 0 }],
    [chat([{ content: [{ type: 'text', text: 'a' }, 'b'] }]), 'PART_NOT_OBJECT', { field: 'content', messageIndex: 0, partIndex: 1 }],
    [chat([{ content: 'x' }, { content: [{ text: 'a' }] }]), 'CONTENT_UNSUPPORTED', { field: 'content', messageIndex: 1, partIndex: 0 }],
    [chat([{ content: [{ type: 'text', text: null }] }]), 'PART_TEXT_NOT_STRING', { field: 'text', messageIndex: 0, partIndex: 0 }],
    [chat([{ content: [{ type: 'text' }] }]), 'PART_TEXT_NOT_STRING', { field: 'text', messageIndex: 0, partIndex: 0 }],
  ])('refuses %j as %s', (envelope, reason, detail) => {
    const record = recordOf(envelope);
    expect(record.result).toBe('unknown');
    expect(record.adapter).toBe('openai-chat-v1');
    expect(record.reason).toBe(reason);
    expect(record.detail).toEqual(detail);
    assertSchemaValid(record);
  });

  it('accepts 1000 messages and refuses 1001', () => {
    const messages = (n: number) => Array.from({ length: n }, (_, i) => ({ role: 'user', content: `m${i}` }));
    const atCap = recordOf(chat(messages(MAX_MESSAGES)));
    expect(atCap.result).toBe('pass');
    expect(atCap.totals.blocks).toBe(1000);
    const over = recordOf(chat(messages(MAX_MESSAGES + 1)));
    expect(over.reason).toBe('TOO_MANY_MESSAGES');
    expect(over.detail).toEqual({ field: 'messages', limit: 1000, actual: 1001 });
  });

  it('accepts 1000 parts in a message and refuses 1001', () => {
    const parts = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'text', text: `p${i}` }));
    const atCap = recordOf(chat([{ role: 'user', content: 'first' }, { role: 'user', content: parts(MAX_PARTS_PER_MESSAGE) }]));
    expect(atCap.result).toBe('pass');
    expect(atCap.totals.blocks).toBe(1001);
    const over = recordOf(chat([{ role: 'user', content: 'first' }, { role: 'user', content: parts(MAX_PARTS_PER_MESSAGE + 1) }]));
    expect(over.reason).toBe('TOO_MANY_PARTS');
    expect(over.detail).toEqual({ field: 'content', messageIndex: 1, limit: 1000, actual: 1001 });
  });

  it('is bound by the envelope byte and depth caps too', () => {
    const big = recordOf(chat([{ role: 'user', content: 'x'.repeat(1_048_576) }]));
    expect(big.reason).toBe('ENVELOPE_TOO_LARGE');
    expect(big.adapter).toBeNull(); // refused before the adapter is read
    let nested: unknown = 'leaf';
    for (let i = 0; i < 40; i++) nested = [nested];
    expect(recordOf(chat([{ role: 'user', content: 'a', extra: nested }])).reason).toBe('TOO_DEEP');
  });

  it('is unknown when no message carries text', () => {
    const record = recordOf(chat([{ role: 'assistant', content: null, tool_calls: [] }, { role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }]));
    expect(record.result).toBe('unknown');
    expect(record.reason).toBe('NO_BLOCKS');
    expect(record.ignoredParts).toBe(1);
  });
});

const REAL = path.resolve(import.meta.dirname, '../../../shared/fixtures/real/openai-chat');
describe.skipIf(!existsSync(REAL))('openai-chat-v1 on real request bodies (../shared/fixtures/real, third-party data)', () => {
  const bodies = (file: string) =>
    readFileSync(path.join(REAL, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { messages: unknown[] });

  it('finds the history the tool chain resends (simonw/llm tool chain, 3 requests)', () => {
    const messages = bodies('llm_tool_chain_of_two_calls_seq.jsonl').flatMap((body) => body.messages);
    expect(messages).toHaveLength(9);
    const record = recordOf(chat(messages));
    // Blocks: the user question in each request (67 bytes, 13 tokens), "123124" in requests 2 and 3, "true" once;
    // assistant turns carry only tool_calls and contribute nothing.
    expect(record.totals.blocks).toBe(6);
    expect(record.duplicates.map((d) => [d.occurrences, d.bytesPerBlock, d.tokensPerBlock])).toEqual([
      [3, 67, 13],
      [2, 6, 1],
    ]);
    expect(record.totals).toMatchObject({ duplicateBlocks: 3, wastedBytes: 2 * 67 + 6, wastedTokens: 2 * 13 + 1 });
  });

  it('ignores and counts the image part of a real multimodal request', () => {
    const last = bodies('pai_image_url_tool_response_seq.jsonl')[1];
    const record = recordOf(chat(last?.messages));
    expect(record.result).toBe('pass');
    expect(record.totals.blocks).toBe(3);
    expect(record.ignoredParts).toBe(1);
  });
});

describe('conereplay-v1', () => {
  it('turns each event into its inputs block then its outputs block, in event order', () => {
    const record = recordOf(cone([event(1, 'plan the task', 'step one'), event(2, 'plan the task', ''), event(3, 'step one', 'done')]));
    expect(record.adapter).toBe('conereplay-v1');
    expect(record.mapping).toBe('conereplay-events-v1');
    expect(record.blocks.map((b) => b.origin)).toEqual([
      { event: 0, field: 'inputs' },
      { event: 0, field: 'outputs' },
      { event: 1, field: 'inputs' },
      { event: 1, field: 'outputs' },
      { event: 2, field: 'inputs' },
      { event: 2, field: 'outputs' },
    ]);
    expect(record.result).toBe('fail');
    // "plan the task" at 0 and 2; "step one" at 1 (an output) and 4 (a later input).
    expect(record.duplicates.map((d) => d.indices)).toEqual([[0, 2], [1, 4]]);
    expect(record.totals).toMatchObject({ blocks: 6, duplicateBlocks: 2, wastedBytes: 13 + 8, wastedTokens: 3 + 2 });
    assertSchemaValid(record);
  });

  it.each([
    [{ adapter: 'conereplay-v1' }, 'TRACE_NOT_OBJECT', { field: 'trace' }],
    [{ adapter: 'conereplay-v1', trace: [] }, 'TRACE_NOT_OBJECT', { field: 'trace' }],
    [{ adapter: 'conereplay-v1', trace: {} }, 'EVENTS_NOT_ARRAY', { field: 'events' }],
    [cone([event(1, 'a', 'b'), 7]), 'EVENT_NOT_OBJECT', { field: 'events', eventIndex: 1 }],
    [cone([event(1, 'a', 'b'), event(2, null, 'b')]), 'EVENT_INPUTS_NOT_STRING', { field: 'inputs', eventIndex: 1 }],
    [cone([event(1, 'a', 'b'), { event_id: 'e', outputs: 'b' }]), 'EVENT_INPUTS_NOT_STRING', { field: 'inputs', eventIndex: 1 }],
    [cone([event(1, 'a', 'b'), event(2, 'a', 3)]), 'EVENT_OUTPUTS_NOT_STRING', { field: 'outputs', eventIndex: 1 }],
    [cone([event(1, 'a', { text: 'b' })]), 'EVENT_OUTPUTS_NOT_STRING', { field: 'outputs', eventIndex: 0 }],
  ])('refuses %j as %s', (envelope, reason, detail) => {
    const record = recordOf(envelope);
    expect(record.result).toBe('unknown');
    expect(record.adapter).toBe('conereplay-v1');
    expect(record.reason).toBe(reason);
    expect(record.detail).toEqual(detail);
    expect(record.blocks).toEqual([]);
  });

  it('is unknown for a trace without events', () => {
    expect(recordOf(cone([])).reason).toBe('NO_BLOCKS');
  });
});
