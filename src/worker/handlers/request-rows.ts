// Worker side of the request table: one text-free row of cache and cost figures per request, columnar so 30,000
// requests clone in one step. Built once per session from its cache analysis; the page keeps it for sorting and
// filtering, so stepping between requests never asks again.
import type { MissCause } from '../../core/cache/index.ts';
import { cacheTable } from '../../core/cache/table.ts';
import type { WorkerSession } from '../session.ts';
import { cacheAnalysisOf } from './cache-analysis.ts';

export type { MissCause };

export interface RequestRowsAnswer {
  /** Per request, its conversation (0-based). */
  conversation: number[];
  /** Cache read tokens the provider recorded, or null where the log records no usage. */
  recordedRead: (number | null)[];
  /** Cache read tokens of the simulation (actual scenario). */
  simulatedRead: number[];
  /** USD of the actual scenario, null for a model without a price. */
  cost: (number | null)[];
  /** Null for a request that read what it could, else why it missed (the cache analysis' misses, recorded first). */
  missCause: (MissCause | null)[];
  /** The block a miss names (the first setup block that changed), else null. */
  missBlock: (string | null)[];
  /** What the miss cost over a hit, USD; null without a miss or a price. */
  missCost: (number | null)[];
  /** Indices into `findingCodes` of the findings that name each request. */
  findings: number[][];
  findingCodes: string[];
}

const built = new WeakMap<WorkerSession, RequestRowsAnswer>();

export function requestRowsQuery(session: WorkerSession | null): RequestRowsAnswer {
  const cache = cacheAnalysisOf(session);
  const current = session as WorkerSession;
  const known = built.get(current);
  if (known !== undefined) return known;
  const table = cacheTable(current.requests, cache.cost);
  const findings: number[][] = current.requests.map(() => []);
  cache.findings.forEach((finding, f) => {
    for (const r of finding.requests) findings[r]?.push(f);
  });
  const answer: RequestRowsAnswer = {
    conversation: cache.conversations.conversationOf,
    recordedRead: table.rows.map((row) => row.recorded?.read ?? null),
    simulatedRead: table.rows.map((row) => row.read),
    cost: table.rows.map((row) => row.cost),
    missCause: cache.misses.requests.map((miss) => miss?.cause ?? null),
    missBlock: cache.misses.requests.map((miss) => miss?.block ?? null),
    missCost: cache.misses.requests.map((miss) => miss?.cost ?? null),
    findings,
    findingCodes: cache.findings.map((f) => f.code),
  };
  built.set(current, answer);
  return answer;
}
