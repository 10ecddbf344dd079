// The worker's message handler (src/worker/dispatch.ts), driven directly: malformed messages are refused with
// kind `protocol` and the field they are about, a reused id is refused, and a query answers after an analysis.
import { describe, expect, it } from 'vitest';
import { checkMessage, createDispatcher, UNADDRESSED } from '../../src/worker/dispatch.ts';
import type { FromWorker } from '../../src/worker/protocol.ts';

const LOG = `${JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'synthetic' }] })}\n`;

function worker() {
  const replies: FromWorker[] = [];
  return { replies, dispatch: createDispatcher((reply) => replies.push(reply)) };
}

describe('checkMessage', () => {
  it.each([
    [null, UNADDRESSED, 'The worker got a message that is null, not an object.'],
    [[1], UNADDRESSED, 'The worker got a message that is an array, not an object.'],
    [{ type: 'query', id: 1.5, name: 'diff' }, UNADDRESSED, 'Message field `id` must be a non-negative integer (it is 1.5).'],
    [{ type: 'query', id: '2', name: 'diff' }, UNADDRESSED, 'Message field `id` must be a non-negative integer (it is string).'],
    [{ type: 'query', id: 3, name: 7 }, 3, 'Message field `name` of query 3 must be a string (it is number).'],
    [{ type: 'explode', id: 4 }, 4, 'Message field `type` must be analyze, analyze-folder, cancel or query (it is "explode").'],
    [{ type: 'analyze', id: 5, inputs: {}, options: {} }, 5, 'Message field `inputs` of analyze 5 must be a list (it is object).'],
    [{ type: 'analyze', id: 6, inputs: [{ name: 'a', blob: 'bytes' }], options: {} }, 6, 'Message field `inputs[0].blob` of analyze 6 must be a File or Blob.'],
    [{ type: 'analyze', id: 7, inputs: [], options: { format: 'x'.repeat(100) } }, 7, `Message field \`options.format\` of analyze 7 must be auto or a wire format (it is "${'x'.repeat(40)}…").`],
    [{ type: 'analyze', id: 8, inputs: [], options: { model: 1 } }, 8, 'Message field `options.model` of analyze 8 must be a string (it is number).'],
  ])('refuses %j', (data, id, message) => {
    expect(checkMessage(data)).toEqual({ ok: false, id, message });
  });

  it('accepts the three message types', () => {
    expect(checkMessage({ type: 'cancel', id: 0 }).ok).toBe(true);
    expect(checkMessage({ type: 'query', id: 1, name: 'diff', params: { request: 0 } }).ok).toBe(true);
    expect(checkMessage({ type: 'analyze', id: 2, inputs: [{ name: 'log.jsonl', blob: new Blob([LOG]) }], options: { format: 'auto' } }).ok).toBe(true);
  });
});

describe('createDispatcher', () => {
  it('replies to a refused message once, with kind protocol', async () => {
    const { replies, dispatch } = worker();
    await dispatch({ type: 'query', id: 9, name: null });
    expect(replies).toEqual([{ type: 'failed', id: 9, error: { kind: 'protocol', message: 'Message field `name` of query 9 must be a string (it is null).' } }]);
  });

  it('refuses a second request under an id that is still running', async () => {
    const { replies, dispatch } = worker();
    const first = dispatch({ type: 'analyze', id: 1, inputs: [{ name: 'log.jsonl', blob: new Blob([LOG]) }], options: {} });
    await dispatch({ type: 'query', id: 1, name: 'findings' });
    await first;
    expect(replies.filter((r) => r.type !== 'progress').map((r) => r.type)).toEqual(['failed', 'analyzed']);
    expect(replies[0]).toEqual({ type: 'failed', id: 1, error: { kind: 'protocol', message: 'Request 1 is already running; every request needs its own id.' } });
  });

  it('answers queries about the analyzed input and refuses an out-of-range index by its field', async () => {
    const { replies, dispatch } = worker();
    await dispatch({ type: 'analyze', id: 1, inputs: [{ name: 'log.jsonl', blob: new Blob([LOG]) }], options: {} });
    await dispatch({ type: 'query', id: 2, name: 'segment-text', params: { request: 0, segment: 0 } });
    await dispatch({ type: 'query', id: 3, name: 'diff', params: { request: 2 ** 53 } });
    await dispatch({ type: 'query', id: 4, name: '__proto__', params: {} });
    const [analyzed, text, diff, unknown] = replies.filter((r) => r.type !== 'progress');
    expect(analyzed?.type).toBe('analyzed');
    expect(text).toMatchObject({ type: 'answer', id: 2, value: { text: 'synthetic' } });
    expect(diff).toEqual({ type: 'failed', id: 3, error: { kind: 'unknown-query', message: 'diff needs a request index between 0 and 0.' } });
    expect(unknown).toEqual({ type: 'failed', id: 4, error: { kind: 'unknown-query', message: 'Unknown query "__proto__".' } });
  });
});

describe('labels the app shows beside diffs and near-duplicates', () => {
  /** Two requests of one conversation over the same `count` synthetic blocks, the second rotated by `shift`. */
  function rotatedPair(count: number, shift: number): string {
    const blocks = Array.from({ length: count }, (_, i) => ({ type: 'text', text: `synthetic block ${i}` }));
    const body = (content: unknown[]) => JSON.stringify({ model: 'claude-sonnet-4-5', system: 'synthetic', messages: [{ role: 'user', content }] });
    return `${body(blocks)}\n${body([...blocks.slice(shift), ...blocks.slice(0, shift)])}\n`;
  }

  async function diffOf(log: string) {
    const { replies, dispatch } = worker();
    await dispatch({ type: 'analyze', id: 1, inputs: [{ name: 'log.jsonl', blob: new Blob([log]) }], options: {} });
    await dispatch({ type: 'query', id: 2, name: 'diff', params: { request: 1 } });
    const answer = replies.find((r) => r.type === 'answer');
    return answer?.type === 'answer' ? (answer.value as { coarse: boolean; hunks: { kind: string; coarse?: true }[] }) : null;
  }

  it('a diff within its work budget is not coarse', async () => {
    // 10 blocks, the first moved to the end: a few edits, found exactly (no hunk is the coarse replacement).
    const diff = await diffOf(rotatedPair(10, 1));
    expect(diff?.coarse).toBe(false);
    expect(diff?.hunks.some((h) => h.kind === 'equal')).toBe(true);
    expect(diff?.hunks.filter((h) => h.coarse === true)).toEqual([]);
  });

  it('a diff past its work budget says it is coarse', async () => {
    // 4,000 blocks rotated by half: about 4,000 edits, whose search needs millions of steps against a budget of 1 M.
    const diff = await diffOf(rotatedPair(4000, 2000));
    expect(diff?.coarse).toBe(true);
    expect(diff?.hunks.filter((h) => h.coarse === true).map((h) => h.kind)).toEqual(['delete', 'insert']);
  });

  it('the view carries where the near-duplicate search was cut, else null', async () => {
    const { buildView } = await import('../../src/worker/view.ts');
    const { analyzeInput } = await import('../../src/core/analysis/analyze.ts');
    const analysis = await analyzeInput([{ name: 'log.jsonl', bytes: new TextEncoder().encode(rotatedPair(3, 1)) }]);
    expect(buildView(analysis).nearDuplicatesCut).toBeNull();
    // The cut as the search reports it past its budget (src/core/cache/near-duplicates.ts).
    analysis.cache!.nearDuplicatesCut = { request: 1, requestsNotCompared: 4 };
    expect(buildView(analysis).nearDuplicatesCut).toEqual({ request: 1, requestsNotCompared: 4 });
  });
});
