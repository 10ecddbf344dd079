// The request table's data: the worker's per-request rows and the page's filter and sort over them, on the
// synthetic example whose 4th request reorders the tool list (one conversation of 8 requests).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { requestRowsQuery, type RequestRowsAnswer } from '../../src/worker/handlers/request-rows.ts';
import { cacheTableQuery } from '../../src/worker/handlers/cache-table.ts';
import { conversationsQuery, conversationWindowQuery } from '../../src/worker/handlers/findings.ts';
import { transcriptSummaryQuery, transcriptsQuery } from '../../src/worker/handlers/transcripts.ts';
import { clearingRolesQuery } from '../../src/worker/handlers/clearing-roles.ts';
import { readdirSync } from 'node:fs';
import { QueryError, type WorkerSession } from '../../src/worker/session.ts';
import { buildView } from '../../src/worker/view.ts';
import type { AnalysisView } from '../../src/worker/view-model.ts';
import { filterRequests, missTitle, NO_FILTER, sortRequests } from '../../src/ui/request-table.ts';

const EXAMPLE = path.resolve(__dirname, '../../examples/synthetic-openai-chat-tools-reordered.jsonl');

let session: WorkerSession;
let view: AnalysisView;
let rows: RequestRowsAnswer;

beforeAll(async () => {
  const analysis = await analyzeInput([{ name: 'example', bytes: new Uint8Array(readFileSync(EXAMPLE)) }]);
  session = { requests: analysis.requests, sections: {}, analysis, inputs: [] };
  view = buildView(analysis);
  rows = requestRowsQuery(session);
});

describe('request-rows', () => {
  it('names why requests 1 and 4 miss: a cold start, then the reordered tools change the setup at tools[1]', () => {
    expect(rows.conversation).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(rows.missCause).toEqual(['cold_start', null, null, 'setup_changed', null, null, null, null]);
    expect(rows.missBlock).toEqual([null, null, null, 'tools[1]', null, null, null, null]);
    // gpt-4o input $2.50 vs cached $1.25 per million: request 4's 5,532 tokens cost $0.006915 more than a hit.
    expect(rows.missCost[3]).toBeCloseTo(0.006915, 9);
    expect(missTitle(rows, 3)).toBe('setup changed at tools[1], $0.0069 over a hit');
    expect(missTitle(rows, 1)).toBe('');
    // OpenAI caches in 128-token steps from 1,024: request 2 reads request 1's 1,280 tokens, request 4 reads none.
    expect(rows.simulatedRead.slice(0, 4)).toEqual([0, 1280, 3328, 0]);
    expect(rows.recordedRead.every((r) => r === null)).toBe(true);
    expect(rows.findingCodes).toEqual(['tools_reordered']);
    expect(rows.findings).toEqual([[], [], [], [0], [], [], [], []]);
  });

  it('is built once per session and refused before any input', () => {
    expect(requestRowsQuery(session)).toBe(rows);
    expect(() => requestRowsQuery(null)).toThrow(QueryError);
  });
});

describe('filter and sort', () => {
  it('keeps misses, a finding, a conversation or a model', () => {
    expect(filterRequests(view, rows, { ...NO_FILTER, miss: 'misses' })).toEqual([0, 3]);
    expect(filterRequests(view, rows, { ...NO_FILTER, miss: 'setup_changed' })).toEqual([3]);
    expect(filterRequests(view, rows, { ...NO_FILTER, finding: 'tools_reordered' })).toEqual([3]);
    expect(filterRequests(view, rows, { ...NO_FILTER, finding: 'with' })).toEqual([3]);
    expect(filterRequests(view, rows, { ...NO_FILTER, conversation: 1 })).toHaveLength(8);
    expect(filterRequests(view, rows, { ...NO_FILTER, conversation: 2 })).toEqual([]);
    expect(filterRequests(view, rows, { ...NO_FILTER, model: 'gpt-4o-2024-08-06' })).toHaveLength(8);
    expect(filterRequests(view, rows, { ...NO_FILTER, model: 'gpt-5' })).toEqual([]);
  });

  it('matches text against block paths, case-insensitively (request k has 2k messages)', () => {
    expect(filterRequests(view, rows, { ...NO_FILTER, text: 'messages[9]' })).toEqual([4, 5, 6, 7]);
    expect(filterRequests(view, rows, { ...NO_FILTER, text: ' MESSAGES[15] ' })).toEqual([7]);
    expect(filterRequests(view, rows, { ...NO_FILTER, text: 'no-such-block' })).toEqual([]);
  });

  it('filters on tokens alone before the worker answered', () => {
    expect(filterRequests(view, null, { ...NO_FILTER, miss: 'misses', text: 'messages[13]' })).toEqual([6, 7]);
  });

  it('sorts by any column, ties in input order', () => {
    expect(sortRequests([0, 1, 2, 3, 4, 5, 6, 7], view, rows, { column: 'cost', descending: true })).toEqual([3, 6, 7, 5, 2, 4, 1, 0]);
    expect(sortRequests([0, 1, 2, 3, 4, 5, 6, 7], view, rows, { column: 'conversation', descending: false })).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(sortRequests([7, 3, 0], view, rows, { column: 'index', descending: false })).toEqual([0, 3, 7]);
    // A miss cause sorts by its code; hits (no cause) come first ascending.
    expect(sortRequests([0, 1, 2, 3], view, rows, { column: 'miss', descending: false })).toEqual([1, 2, 0, 3]);
    expect(sortRequests([3, 0, 1], view, rows, { column: 'miss', descending: true })).toEqual([3, 0, 1]);
    expect(sortRequests([0, 1, 2, 3], view, rows, { column: 'tokens', descending: true })).toEqual([3, 2, 1, 0]);
  });
});

describe('cache-table windows', () => {
  it('answers only the rows around a request, with where they start and how many there are', () => {
    const rowsOf = (around: number, window: number) => {
      const answer = cacheTableQuery(session, { around, window });
      return { first: answer.firstRow, count: answer.rowCount, indices: answer.rows.map((r) => r.index) };
    };
    expect(rowsOf(5, 3)).toEqual({ first: 4, count: 8, indices: [4, 5, 6] });
    expect(rowsOf(0, 3)).toEqual({ first: 0, count: 8, indices: [0, 1, 2] });
    expect(rowsOf(7, 3)).toEqual({ first: 5, count: 8, indices: [5, 6, 7] });
    expect(rowsOf(2, 50).indices).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // The totals are the whole input's either way.
    expect(cacheTableQuery(session, { around: 5, window: 3 }).totals).toEqual(cacheTableQuery(session).totals);
    expect(cacheTableQuery(session).rows).toHaveLength(8);
  });

  it('refuses a window that is not a positive integer up to the limit', () => {
    expect(() => cacheTableQuery(session, { around: 1, window: 0 })).toThrow(QueryError);
    expect(() => cacheTableQuery(session, { around: 1, window: 5000 })).toThrow(/from 1 to 1000/);
    expect(() => cacheTableQuery(session, { around: -1, window: 3 })).toThrow(/request index/);
  });
});

describe('transcript-summary', () => {
  it('answers the summary with each request\'s conversation, not the timeline points', () => {
    const answer = transcriptSummaryQuery(session);
    expect(answer.conversationOf).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(answer.summary).toBe(transcriptsQuery(session).summary);
    expect(Object.keys(answer).sort()).toEqual(['conversationOf', 'summary']);
  });
});

describe('clearing-roles', () => {
  const CASE = path.resolve(__dirname, '../../examples/clearing/build');
  const file = (rel: string) => ({ name: rel, blob: new Blob([readFileSync(path.join(CASE, rel))]) });

  it('tells each file of a case folder by its content, whatever its name', async () => {
    const names = [...readdirSync(path.join(CASE, 'journals')).map((n) => `journals/${n}`), 'sidecar.sqlite', 'routes.json', 'qualification.json', 'agent-config.json', 'app-allowlist.json', 'expected.json'];
    // Renamed copies: the role comes from the bytes, not the name.
    const files = names.map((rel, i) => ({ ...file(rel), name: `file-${i}` }));
    const answer = await clearingRolesQuery(null, { files });
    const journals = names.filter((n) => n.startsWith('journals/')).length;
    expect(answer.roles).toEqual([...Array(journals).fill('journal'), 'sidecar', 'routes', 'qualification', 'agent-config', 'app-allowlist', 'other']);
    expect(answer.isCase).toBe(true);
  });

  it('says a folder of request logs is not a case, names companions by name, and refuses bad params', async () => {
    const log = { name: 'a.jsonl', blob: new Blob([readFileSync(EXAMPLE)]) };
    expect(await clearingRolesQuery(null, { files: [log, { name: 'x.sqlite-wal', blob: new Blob(['x']) }] })).toEqual({ roles: ['other', 'sidecar-companion'], isCase: false });
    await expect(clearingRolesQuery(null, { files: 'nope' })).rejects.toThrow(QueryError);
  });

  it('tells a JSON-lines log from its head, never reading the whole file (a dropped folder of sessions)', async () => {
    let wholeReads = 0;
    class Counted extends Blob {
      override text(): Promise<string> {
        wholeReads++;
        return super.text();
      }
    }
    const log = { name: 'a.jsonl', blob: new Counted([readFileSync(EXAMPLE)]) };
    expect(await clearingRolesQuery(null, { files: [log] })).toEqual({ roles: ['other'], isCase: false });
    expect(wholeReads).toBe(0);
  });
});

describe('conversation-window', () => {
  it('answers the conversations around a request, with the counts over all of them', async () => {
    const gateway = path.resolve(__dirname, '../../examples/synthetic-gateway-interleaved.jsonl');
    const analysis = await analyzeInput([{ name: 'gateway', bytes: new Uint8Array(readFileSync(gateway)) }]);
    const interleaved: WorkerSession = { requests: analysis.requests, sections: {}, analysis, inputs: [] };
    const all = conversationsQuery(interleaved);
    // Three conversations sent round-robin: 0, 1, 2, 0, 1, 2, ... (17 requests; the last round has no conversation 1).
    const one = conversationWindowQuery(interleaved, { request: 4, rows: 1 });
    expect(one.count).toBe(3);
    expect(one.firstConversation).toBe(1);
    expect(one.conversations.map((c) => c.requests)).toEqual([[1, 4, 7, 10, 13]]);
    expect(one.selected).toEqual({ conversation: 1, link: all.link[4], comparedWith: all.comparedWith[4], commonSegments: all.commonSegments[4] });
    const two = conversationWindowQuery(interleaved, { request: 16, rows: 2 });
    expect(two.firstConversation).toBe(1);
    expect(two.conversations.map((c) => c.requests[0])).toEqual([1, 2]);
    expect(Object.values(two.linkCounts).reduce((a, b) => a + b, 0)).toBe(17);
    expect(two.linkCounts.continues).toBe(all.link.filter((l) => l === 'continues').length);
    expect(() => conversationWindowQuery(interleaved, { request: 17, rows: 2 })).toThrow(QueryError);
    expect(() => conversationWindowQuery(interleaved, { request: 0, rows: 0 })).toThrow(/from 1 to 500/);
  });
});
