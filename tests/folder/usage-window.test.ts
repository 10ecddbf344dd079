// The folder's summary pass with --since / --until (a window): the requests sent in it, counted and priced as the
// full analysis' period table counts and prices them (recorded usage), on the real session
// ../shared/fixtures/real/transcripts/claude-code/session-624a4a58.jsonl (55 calls over several days).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { emptyUsageFolder, foldSessionUsage } from '../../src/core/folder/usage-folder.ts';
import { periodTable } from '../../src/core/period/index.ts';

const file = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/claude-code/session-624a4a58.jsonl');
const present = fs.existsSync(file);
const input = () => [{ name: 'session.jsonl', bytes: new Uint8Array(fs.readFileSync(file)) }];

describe.skipIf(!present)('the summary pass in a window (real session)', () => {
  it('counts and prices the requests sent in the window as the full analysis does', async () => {
    const analysis = await analyzeInput(input());
    const times = analysis.requests.map((r) => r.timestamp).filter((t): t is number => t !== null).sort((a, b) => a - b);
    expect(times.length).toBe(55);
    // From the 11th call's time to the 41st's: 30 calls, bounds inclusive then exclusive.
    const window = { since: times[10]!, until: times[40]! };
    const table = periodTable(analysis, { ...window, zone: 'UTC', by: null });
    expect(table.totals.requests).toBe(30);
    const folder = emptyUsageFolder();
    await foldSessionUsage(folder, input, { window });
    expect(folder.requests).toBe(30);
    const row = folder.parts[0]!.row;
    expect(row.requests).toBe(30);
    expect(row.cost).toBeCloseTo(table.totals.cost, 6);
    expect(row.recorded.cacheRead).toBe(table.totals.cacheRead);
    expect(folder.models.reduce((sum, m) => sum + m.requests, 0)).toBe(30);
  });

  it('leaves no request when the window holds none, and every one without a window', async () => {
    const empty = emptyUsageFolder();
    await foldSessionUsage(empty, input, { window: { since: Date.UTC(2000, 0, 1), until: Date.UTC(2000, 0, 2) } });
    expect(empty.requests).toBe(0);
    expect(empty.parts).toEqual([]);
    const all = emptyUsageFolder();
    await foldSessionUsage(all, input, { window: null });
    expect(all.requests).toBe(55);
  });
});
