// The worker queries behind the Findings, Conversations and Diff panels, on a synthetic example log.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import type { WorkerSession } from '../../src/worker/session.ts';
import { QueryError } from '../../src/worker/session.ts';
import { diffQuery } from '../../src/worker/handlers/diff.ts';
import { conversationsQuery, findingsQuery } from '../../src/worker/handlers/findings.ts';

const EXAMPLE = path.resolve(__dirname, '../../examples/synthetic-openai-chat-tools-reordered.jsonl');

async function session(): Promise<WorkerSession> {
  const analysis = await analyzeInput([{ name: 'example', bytes: new Uint8Array(readFileSync(EXAMPLE)) }]);
  // No `cache` section: the handlers compute the cache analysis themselves.
  return { requests: analysis.requests, sections: {}, analysis, inputs: [] };
}

describe('findings / conversations / diff queries', () => {
  it('reports the reordered tools of the example as one finding on request 4', async () => {
    const answer = findingsQuery(await session());
    expect(answer.findings.map((f) => f.code)).toEqual(['tools_reordered']);
    expect(answer.findings[0]!.requests).toEqual([3]);
    expect(answer.optimizedCost).toBeLessThan(answer.actualCost);
  });

  it('pairs the 8 requests into one conversation', async () => {
    const answer = conversationsQuery(await session());
    expect(answer.count).toBe(1);
    expect(answer.comparedWith).toEqual([null, 0, 1, 2, 3, 4, 5, 6]);
    expect(answer.link.slice(1).every((l) => l === 'continues')).toBe(true);
  });

  it('diffs request 4 against request 3 as a local swap in the tool list', async () => {
    const current = await session();
    const answer = diffQuery(current, { request: 3 });
    expect(answer).toMatchObject({ request: 3, compared: 2, link: 'continues', commonSegments: 1, firstChange: 1 });
    const tools = current.requests[3]!.segments.filter((s) => s.category === 'tools').length;
    const changed = answer.hunks.filter((h) => h.kind !== 'equal');
    // One tool moved: removed at one place and inserted at another, each a single block inside the tool list...
    const inTools = changed.filter((h) => h.bStart < tools);
    expect(inTools).toHaveLength(2);
    expect(inTools.every((h) => Math.max(h.aEnd - h.aStart, h.bEnd - h.bStart) === 1)).toBe(true);
    // ...and the new turn appended at the end.
    expect(changed.slice(2)).toEqual([
      { kind: 'insert', aStart: current.requests[2]!.segments.length, aEnd: current.requests[2]!.segments.length, bStart: expect.any(Number), bEnd: current.requests[3]!.segments.length },
    ]);
    expect(diffQuery(current, { request: 0 })).toMatchObject({ compared: null, hunks: [] });
  });

  it('rejects a bad request index with a message for the user', async () => {
    const current = await session();
    expect(() => diffQuery(current, { request: 99 })).toThrow(QueryError);
    expect(() => diffQuery(current, {})).toThrow(/request index between 0 and 7/);
    expect(() => findingsQuery(null)).toThrow(QueryError);
  });
});
