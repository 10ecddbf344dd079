// sessionTableOf on hand-built session parts (synthetic): projects and days summed with their misses and hit
// rates, rows and projects by cost, days in date order with untimed requests last; projectOf's edge cases.
import { describe, expect, it } from 'vitest';
import { projectOf, sessionTableOf, type GroupRow, type RecordedSums, type SessionPart, type SessionRow } from '../../src/core/transcripts/sessions.ts';

const sums = (input: number, cacheRead: number, cacheWrite5m: number, cacheWrite1h: number, output: number): RecordedSums => ({ input, output, cacheRead, cacheWrite5m, cacheWrite1h });

function day(key: string | null, requests: number, recorded: RecordedSums, cost: number, misses: GroupRow['misses']): GroupRow {
  return { key, sessions: 1, requests, recorded, cost, hitRate: null, misses };
}

function part(file: string, project: string, cost: number, days: GroupRow[], withMisses = true): SessionPart {
  const recorded = sums(0, 0, 0, 0, 0);
  let requests = 0;
  const misses = withMisses ? { count: 0, tokens: 0, cost: 0 } : null;
  for (const d of days) {
    requests += d.requests;
    for (const key of Object.keys(recorded) as (keyof RecordedSums)[]) recorded[key] += d.recorded[key];
    if (misses && d.misses) {
      misses.count += d.misses.count;
      misses.tokens += d.misses.tokens;
      misses.cost += d.misses.cost;
    }
  }
  const row: SessionRow = {
    file,
    agent: 'claude-code',
    project,
    start: null,
    end: null,
    requests,
    subagents: { files: 0, requests: 0 },
    recordedRequests: requests,
    recorded,
    cost,
    unpricedRequests: 0,
    hitRate: null,
    misses,
  };
  return { row, days, dayModels: [] };
}

// Session a (project p): 2 requests on 03-02 (read 900 of 1,000 prompt tokens), 1 untimed (1,000 written).
const a = part('p/a.jsonl', 'p', 0.5, [
  day('2026-03-02', 2, sums(100, 900, 0, 0, 20), 0.2, { count: 1, tokens: 300, cost: 0.01 }),
  day(null, 1, sums(0, 0, 1000, 0, 5), 0.3, { count: 1, tokens: 1000, cost: 0.04 }),
]);
// Session b (project p): 1 request on 03-01 (read 500 of 1,000, 1h write 250).
const b = part('p/b.jsonl', 'p', 0.1, [day('2026-03-01', 1, sums(250, 500, 0, 250, 10), 0.1, { count: 0, tokens: 0, cost: 0 })]);
// Session c (project q): 1 request on 03-02, the costliest session.
const c = part('q/c.jsonl', 'q', 2, [day('2026-03-02', 1, sums(1000, 0, 0, 0, 1), 2, { count: 1, tokens: 1000, cost: 0.5 })]);

describe('sessionTableOf', () => {
  it('orders sessions and projects by cost, the costliest first', () => {
    const table = sessionTableOf([a, b, c]);
    expect(table.sessions.map((row) => row.file)).toEqual(['q/c.jsonl', 'p/a.jsonl', 'p/b.jsonl']);
    expect(table.projects.map((row) => [row.key, row.sessions, row.requests, row.cost])).toEqual([
      ['q', 1, 1, 2],
      ['p', 2, 4, 0.6],
    ]);
  });

  it('sums a project’s recorded usage, misses and hit rate over its sessions', () => {
    const p = sessionTableOf([a, b, c]).projects.find((row) => row.key === 'p')!;
    // a + b: input 350, read 1,400, 5m writes 1,000, 1h writes 250, output 35; prompt 3,000.
    expect(p.recorded).toEqual(sums(350, 1400, 1000, 250, 35));
    expect(p.hitRate).toBeCloseTo(1400 / 3000, 12);
    expect(p.misses?.count).toBe(2);
    expect(p.misses?.tokens).toBe(1300);
    expect(p.misses?.cost).toBeCloseTo(0.05, 12);
  });

  it('lists days in date order with untimed requests last, each summed over the sessions on it', () => {
    const days = sessionTableOf([c, a, b]).days;
    expect(days.map((row) => [row.key, row.sessions, row.requests])).toEqual([
      ['2026-03-01', 1, 1],
      ['2026-03-02', 2, 3],
      [null, 1, 1],
    ]);
    const second = days[1]!;
    expect(second.recorded).toEqual(sums(1100, 900, 0, 0, 21));
    expect(second.cost).toBeCloseTo(2.2, 12);
    expect(second.hitRate).toBeCloseTo(900 / 2000, 12);
    expect(second.misses).toEqual({ count: 2, tokens: 1300, cost: 0.51 });
    // Untimed: 1,000 written, nothing read.
    expect(days[2]?.hitRate).toBe(0);
  });

  it('a day or project with no recorded prompt has no hit rate', () => {
    const empty = part('r/e.jsonl', 'r', 0, [day('2026-03-03', 1, sums(0, 0, 0, 0, 0), 0, null)], false);
    const table = sessionTableOf([empty]);
    expect(table.projects[0]).toMatchObject({ key: 'r', hitRate: null, misses: null });
    expect(table.days[0]).toMatchObject({ key: '2026-03-03', hitRate: null, misses: null });
  });

  it('keeps no miss sums where the analysis had none', () => {
    const withoutMisses = part('p/d.jsonl', 'p', 0, [day('2026-03-01', 1, sums(10, 0, 0, 0, 1), 0, null)], false);
    const table = sessionTableOf([withoutMisses]);
    expect(table.projects[0]?.misses).toBeNull();
    expect(table.days[0]?.misses).toBeNull();
  });
});

describe('projectOf', () => {
  it('is the first folder of a path inside the folder given, "" at the top', () => {
    expect(projectOf('-home-user-proj/s1.jsonl')).toBe('-home-user-proj');
    expect(projectOf('s1.jsonl')).toBe('');
    // Empty and "." parts do not count as folders.
    expect(projectOf('./s1.jsonl')).toBe('');
    expect(projectOf('/s1.jsonl')).toBe('');
    expect(projectOf('./proj//s1.jsonl')).toBe('proj');
  });
});
