// Worker handler and the pure helpers of the Duplicates panel (the DOM side is exercised by the e2e suite).
import { describe, expect, it } from 'vitest';
import { dupesExportQuery, dupesQuery, rankGroups, SHOWN_GROUPS } from '../../src/worker/handlers/dupes.ts';
import { QueryError, type WorkerSession } from '../../src/worker/session.ts';
import { describeOrigin, verdictSentence } from '../../src/ui/panels/duplicates.ts';
import { readRequests } from '../../src/core/input/index.ts';
import { recordOf } from './helpers.ts';

const signal = new AbortController().signal;
const SEED = '{"suite":"v1","blocks":[{"text":"you are a helpful assistant"},{"text":"you are a helpful assistant"},{"text":"what is the capital of France?"}]}';

async function sessionOf(jsonl: string): Promise<WorkerSession> {
  const read = await readRequests([{ name: 'synthetic.jsonl', bytes: new TextEncoder().encode(jsonl) }]);
  return { requests: read.requests, sections: {}, analysis: { errors: read.errors }, inputs: [] };
}

describe('dupes query handler', () => {
  it('evaluates a dropped file under the contract', async () => {
    const answer = await dupesQuery(null, { file: new Blob([SEED]), name: 'seed.json' }, signal);
    expect(answer.source).toBe('file');
    expect(answer.record).toMatchObject({ result: 'fail', totals: { wastedBytes: 27, wastedTokens: 5 } });
  });

  it('measures the loaded log (request-log-last-requests-v1): a retry is not a duplicate, a repeat in one request is', async () => {
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'same question' }] });
    const retried = await dupesQuery(await sessionOf(`${body}\n${body}\n`), undefined, signal);
    expect(retried.source).toBe('loaded-input');
    expect(retried.record.mapping).toBe('request-log-last-requests-v1');
    expect([retried.record.result, retried.record.totals.blocks]).toEqual(['pass', 1]);
    const repeated = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'same question' }, { role: 'user', content: 'same question' }] });
    const answer = await dupesQuery(await sessionOf(`${repeated}\n`), undefined, signal);
    expect(answer.groupCount).toBe(1);
    expect(answer.groups[0]).toMatchObject({ indices: [0, 1], wastedBytes: 13, wastedTokens: 2, first: { request: 0, message: 0 }, firstCopy: { request: 0, message: 1 } });
    // The page gets no block list; the saved record (written by the worker) has every block.
    expect(answer.record).not.toHaveProperty('blocks');
    const saved = JSON.parse(await dupesExportQuery(await sessionOf(`${repeated}\n`), { of: 'loaded-input', format: 'json' }, signal)) as { blocks: unknown[]; duplicates: unknown[] };
    expect([saved.blocks.length, saved.duplicates.length]).toEqual([2, 1]);
  });

  it('evaluates the bytes of a single main input that yielded no requests (an envelope opened directly)', async () => {
    const session: WorkerSession = { requests: [], sections: {}, analysis: { errors: [] }, inputs: [{ name: 'seed.json', blob: new Blob([SEED]) }] };
    const answer = await dupesQuery(session, {}, signal);
    expect(answer.record.mapping).toBe('envelope-blocks-v1');
    expect(answer.record.result).toBe('fail');
  });

  it('lists the costliest groups only, counting the rest; saves the last checked file whole', async () => {
    const texts = Array.from({ length: SHOWN_GROUPS + 5 }, (_, i) => `block ${i} ${'x'.repeat(i)}`);
    const envelope = JSON.stringify({ suite: 'v1', blocks: [...texts, ...texts].map((text) => ({ text })) });
    const answer = await dupesQuery(null, { file: new Blob([envelope]), name: 'many.json' }, signal);
    expect([answer.groupCount, answer.groups.length]).toEqual([SHOWN_GROUPS + 5, SHOWN_GROUPS]);
    // The longest text wastes the most bytes: it leads.
    expect(answer.groups[0]?.indices).toEqual([SHOWN_GROUPS + 4, 2 * SHOWN_GROUPS + 9]);
    const markdown = await dupesExportQuery(null, { of: 'file', format: 'markdown' }, signal);
    expect(markdown).toContain('FAIL');
    await expect(dupesExportQuery(null, { of: 'loaded-input', format: 'json' }, signal)).rejects.toBeInstanceOf(QueryError);
    await expect(dupesExportQuery(null, { of: 'file', format: 'csv' }, signal)).rejects.toBeInstanceOf(QueryError);
  });

  it('rejects bad params and a missing session with a user-facing error', async () => {
    await expect(dupesQuery(null, undefined, signal)).rejects.toBeInstanceOf(QueryError);
    await expect(dupesQuery(null, { file: 'not a blob' }, signal)).rejects.toBeInstanceOf(QueryError);
    await expect(dupesQuery(null, 7, signal)).rejects.toBeInstanceOf(QueryError);
  });
});

describe('panel helpers', () => {
  it('ranks groups by wasted bytes, ties by first occurrence', () => {
    const record = recordOf({ suite: 'v1', blocks: ['a', 'bbbb', 'a', 'bbbb', 'cccc', 'cccc'].map((text) => ({ text })) });
    expect(rankGroups(record.duplicates).map((g) => g.indices)).toEqual([[1, 3], [4, 5], [0, 2]]);
  });

  it('describes origins with indices only', () => {
    expect(describeOrigin(4, undefined)).toBe('block 4');
    expect(describeOrigin(0, { request: 2, message: -1 })).toBe('request 3 · system');
    expect(describeOrigin(0, { message: 1, part: 2 })).toBe('message 1 · part 2');
    expect(describeOrigin(0, { event: 5, field: 'outputs' })).toBe('event 5 outputs');
  });

  it('words each verdict', () => {
    const twice = recordOf({ suite: 'v1', blocks: [{ text: 'a' }, { text: 'a' }] });
    expect(verdictSentence(twice, twice.duplicates.length)).toBe(
      '1 duplicate block (1 repeated content hash) cost 1 byte and 1 whitespace token.',
    );
    expect(verdictSentence(recordOf({ suite: 'v1', blocks: [{ text: 'a' }] }), 0)).toBe('No block is sent twice among 1 block.');
    expect(verdictSentence(recordOf({ suite: 'v1', blocks: [] }), 0)).toMatch(/^NO_BLOCKS: /);
  });
});
