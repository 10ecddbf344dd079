// A folder read one session at a time (src/core/folder): two sessions folded into the folder's sums give what one
// analysis of both files gives, where the two cannot share a cache (another provider). Inputs: the repo's
// SYNTHETIC examples.
import fs from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { costTotalsRecord } from '../../src/core/cache/record.ts';
import { addSession, emptyFolder, folderRecord, folderSummary } from '../../src/core/folder/index.ts';
import { summaryOf } from '../../src/core/transcripts/index.ts';

const names = ['examples/synthetic-anthropic-agent-cache-bust.jsonl.gz', 'examples/synthetic-openai-chat-tools-reordered.jsonl'];
const inputOf = (name: string) => ({ name, bytes: new Uint8Array(fs.readFileSync(name)) });

describe('a folder folded session by session', async () => {
  const [first, second] = await Promise.all(names.map((name) => analyzeInput([inputOf(name)])));
  const together = await analyzeInput(names.map(inputOf));
  // Folded inside each test, so the folder code under test runs in the test (and fails it when it is wrong).
  let folder = emptyFolder('ctxray test', '2026-12-01');
  beforeEach(() => {
    folder = emptyFolder('ctxray test', '2026-12-01');
    addSession(folder, first!, { calibrated: false });
    addSession(folder, second!, { calibrated: true });
  });

  it('counts the sessions, files and requests of both', () => {
    expect(folder.analyses).toBe(2);
    expect(folder.calibrated).toBe(1);
    expect(folder.requests).toBe(together.requests.length);
    expect(folder.requests).toBe(first!.requests.length + second!.requests.length);
    expect(folder.files.map((file) => file.requests)).toEqual(together.files.map((file) => file.requests));
    expect(folder.fileNames).toEqual(names);
  });

  it('sums token totals, models, cost and misses as one analysis of both files does', () => {
    expect(folder.totals).toEqual(together.totals);
    expect(folder.models).toEqual(together.modelUse);
    const cost = costTotalsRecord(together.cache!);
    expect(folder.cost!.actual).toBeCloseTo(cost.actual, 9);
    expect(folder.cost!.basis).toEqual(cost.basis);
    expect(folder.cost!.unpricedRequests).toBe(cost.unpricedRequests);
    expect(folder.cost!.simulated.asSent).toBeCloseTo(cost.simulated.asSent, 9);
    const misses = (summary: { cause: string; count: number; tokens: number; cost: number }[]) =>
      [...summary].sort((a, b) => (a.cause < b.cause ? -1 : 1)).map(({ cause, count, tokens, cost }) => ({ cause, count, tokens, cost: Math.round(cost * 1e9) }));
    expect(misses(folder.misses)).toEqual(misses(together.cache!.misses.summary));
    // Ranked by cost, the costliest cause first.
    expect(folder.misses.map((m) => m.cost)).toEqual([...folder.misses.map((m) => m.cost)].sort((a, b) => b - a));
    expect(folder.conversations).toBe(together.cache!.conversations.count);
  });

  it('counts findings by code over both sessions', () => {
    const byCode = new Map<string, number>();
    for (const finding of together.cache!.findings) byCode.set(finding.code, (byCode.get(finding.code) ?? 0) + 1);
    expect(new Map(folder.findings.map((f) => [f.code, f.findings]))).toEqual(byCode);
  });

  it('writes a record with the sums and no per-request rows', () => {
    const record = folderRecord(folder);
    expect(record.schema).toBe('ctxray.analysis/2');
    expect(record.requests).toEqual([]);
    expect(record.folder).toEqual({ analyses: 2, requests: together.requests.length, calibrated: 1 });
    expect((record.files as { index: number }[]).map((file) => file.index)).toEqual([0, 1]);
  });

  it('writes the sections one analysis of both files writes, with the same values', () => {
    const rounded = (value: unknown) => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e9) / 1e9 : v)));
    const record = folderRecord({ ...folder, generatedBy: together.generatedBy, pricedOn: together.pricedOn });
    const one = buildRecord(together);
    // Misses are ranked by cost in both, so they compare as they are.
    for (const key of ['schema', 'generatedBy', 'pricedOn', 'files', 'models', 'totals', 'misses', 'summary', 'sessions', 'errors']) {
      expect(rounded(record[key]), key).toEqual(rounded(one[key]));
    }
  });

  it('gives the summary one analysis of both files gives: days, models, costliest conversations and findings', () => {
    // Costs rounded to the nanodollar: sums in another order differ in the last bits.
    const rounded = (value: unknown) => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e9) / 1e9 : v)));
    const expected = summaryOf(together);
    expect(expected).not.toBeNull();
    expect(expected!.days.length).toBeGreaterThan(0);
    expect(rounded(folderSummary(folder))).toEqual(rounded(expected));
  });

  it('merges what two sessions share (days, models, causes, codes): the same session twice is twice its sums', () => {
    const twice = emptyFolder('ctxray test', '2026-12-01');
    addSession(twice, first!, { calibrated: false });
    addSession(twice, first!, { calibrated: false });
    const once = emptyFolder('ctxray test', '2026-12-01');
    addSession(once, first!, { calibrated: false });
    expect(twice.requests).toBe(2 * once.requests);
    expect(twice.totals.tokens).toBe(2 * once.totals.tokens);
    expect(twice.totals.exactRequests).toBe(2 * once.totals.exactRequests);
    expect(twice.models).toEqual(once.models.map((m) => ({ ...m, requests: 2 * m.requests })));
    expect(twice.misses.map((m) => [m.cause, m.count, m.tokens])).toEqual(once.misses.map((m) => [m.cause, 2 * m.count, 2 * m.tokens]));
    expect(twice.findings).toEqual(once.findings.map((f) => ({ ...f, findings: 2 * f.findings, requests: 2 * f.requests })));
    expect(twice.cost!.actual).toBeCloseTo(2 * once.cost!.actual, 9);
    expect(twice.cost!.savingsFraction).toBeCloseTo(once.cost!.savingsFraction, 9);
    expect(twice.cost!.basis).toEqual({ recordedRequests: 2 * once.cost!.basis.recordedRequests, simulatedRequests: 2 * once.cost!.basis.simulatedRequests });
    const [summaryTwice, summaryOnce] = [folderSummary(twice)!, folderSummary(once)!];
    expect(summaryOnce.days.length).toBeGreaterThan(0);
    expect([summaryTwice.start, summaryTwice.end]).toEqual([summaryOnce.start, summaryOnce.end]);
    expect(summaryTwice.days.map((d) => [d.day, d.requests, d.output, d.cacheWrite])).toEqual(summaryOnce.days.map((d) => [d.day, 2 * d.requests, 2 * d.output, 2 * d.cacheWrite]));
    expect(summaryTwice.models.map((m) => [m.model, m.requests])).toEqual(summaryOnce.models.map((m) => [m.model, 2 * m.requests]));
    expect(summaryTwice.topFindings.map((f) => [f.code, f.findings, f.requests])).toEqual(summaryOnce.topFindings.map((f) => [f.code, 2 * f.findings, 2 * f.requests]));
    // The second copy's files and conversations are numbered after the first's.
    expect(twice.files.map((file) => file.index)).toEqual([0, 1]);
    expect(twice.conversations).toBe(2 * once.conversations);
  });
});
