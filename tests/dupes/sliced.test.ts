// The loaded log's record measured in slices (the web worker's background measurement): the same record as in one
// go, with a pause every `sliceBlocks` blocks, abortable between slices, and reusing conversations found already.
import { describe, expect, it } from 'vitest';
import { dupesRecordForRequests, dupesRecordForRequestsInSlices } from '../../src/core/dupes/evaluate.ts';
import { findConversations } from '../../src/core/cache/conversations.ts';
import { readRequests } from '../../src/core/input/index.ts';
import type { ParsedRequest } from '../../src/core/model.ts';

/** Synthetic: two conversations; the second's last request carries the same file twice (one duplicate, 2 copies). */
async function requests(): Promise<ParsedRequest[]> {
  const file = 'synthetic file contents '.repeat(10);
  const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: '{}' } }] });
  const bodies = [
    { model: 'gpt-4o', messages: [{ role: 'user', content: 'first question' }] },
    { model: 'gpt-4o', messages: [{ role: 'user', content: 'first question' }, { role: 'assistant', content: 'answer' }, { role: 'user', content: 'next' }] },
    {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'read it three times' },
        call('a'), { role: 'tool', tool_call_id: 'a', content: file },
        call('b'), { role: 'tool', tool_call_id: 'b', content: file },
        call('c'), { role: 'tool', tool_call_id: 'c', content: file },
      ],
    },
  ];
  const text = bodies.map((b) => JSON.stringify(b)).join('\n') + '\n';
  const read = await readRequests([{ name: 'synthetic.jsonl', bytes: new Blob([text]).stream(), size: text.length }]);
  return read.requests;
}

describe('dupes record in slices', () => {
  it('gives the record measured in one go, pausing after every slice', async () => {
    const log = await requests();
    const whole = dupesRecordForRequests(log, 0);
    // Blocks: 3 of the first conversation's last request, 4 of the second's (its user turn and three results).
    expect(whole.totals).toMatchObject({ blocks: 7, duplicateBlocks: 2 });
    let pauses = 0;
    const sliced = await dupesRecordForRequestsInSlices(log, 0, { sliceBlocks: 2, pause: async () => void pauses++ });
    expect(sliced).toEqual(whole);
    expect(pauses).toBe(3);
    // Conversations found by the cache analysis give the same record.
    const reused = await dupesRecordForRequestsInSlices(log, 0, { conversations: findConversations(log), sliceBlocks: 100, pause: async () => undefined });
    expect(reused).toEqual(whole);
    expect(dupesRecordForRequests(log, 0, findConversations(log))).toEqual(whole);
  });

  it('stops at the next pause once aborted', async () => {
    const log = await requests();
    const controller = new AbortController();
    let pauses = 0;
    const pending = dupesRecordForRequestsInSlices(log, 0, {
      sliceBlocks: 1,
      signal: controller.signal,
      pause: async () => {
        if (++pauses === 2) controller.abort();
      },
    });
    await expect(pending).rejects.toThrow();
    expect(pauses).toBe(2);
  });

  it('refuses a log none of whose records could be read, as in one go', async () => {
    const sliced = await dupesRecordForRequestsInSlices([], 3, { sliceBlocks: 10, pause: async () => undefined });
    expect(sliced).toEqual(dupesRecordForRequests([], 3));
    expect([sliced.result, sliced.reason, sliced.detail]).toEqual(['unknown', 'UNSUPPORTED_INPUT', { skippedRecords: 3 }]);
  });
});
