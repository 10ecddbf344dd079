// The usage-only view's figures (src/ui/usage-only.ts): the recorded requests, cost, hit rate and misses of one
// file's usage-only requests, as the CLI's "usage only" line sums them. Synthetic rows, not from a real log.
import { describe, expect, it } from 'vitest';
import { figureRows, isUsageOnlyRequest, usageOnlyFigures } from '../../src/ui/usage-only.ts';
import type { RequestView } from '../../src/worker/view-model.ts';

type Shape = Pick<RequestView, 'index' | 'file' | 'notes' | 'recordedPrompt'>;
const request = (index: number, file: number, recordedPrompt: number | null, usageOnly = true): RequestView =>
  ({ index, file, recordedPrompt, notes: usageOnly ? ['transcript_missing_system', 'usage_only'] : [] }) satisfies Shape as unknown as RequestView;

describe('usage-only figures (synthetic)', () => {
  const view = {
    requests: [request(0, 0, 1000), request(1, 0, 1200), request(2, 0, null), request(3, 1, 5000), request(4, 0, 900, false)],
  };
  const rows = {
    recordedRead: [0, 1000, null, 4000, 800],
    cost: [0.01, 0.002, null, 0.5, 0.001],
    missCause: ['cold_start', null, null, 'ttl_expired', 'prefix_changed'] as never[],
    missCost: [0.004, null, null, 0.3, 0.0005],
  };

  it('tells a usage-only request by its note', () => {
    expect(view.requests.map(isUsageOnlyRequest)).toEqual([true, true, true, true, false]);
  });

  it('sums one file, its usage-only requests only', () => {
    const f = usageOnlyFigures(view, rows, 0);
    expect(f).toMatchObject({ requests: 3, recorded: 2, prompt: 2200, read: 1000, unpriced: 1, misses: 1 });
    expect(f.cost).toBeCloseTo(0.012, 12);
    expect(f.lost).toBeCloseTo(0.004, 12);
    expect(f.hitRate).toBeCloseTo(1000 / 2200, 12);
    expect(f.causes).toEqual([{ cause: 'cold_start', count: 1, cost: 0.004 }]);
    expect(usageOnlyFigures(view, rows, 1)).toMatchObject({ requests: 1, prompt: 5000, read: 4000, misses: 1, causes: [{ cause: 'ttl_expired', count: 1 }] });
  });

  it('words them as the CLI does', () => {
    expect(figureRows(usageOnlyFigures(view, rows, 0))).toEqual([
      ['Requests', '3', '2 with recorded usage'],
      ['Cost', '$0.0120 (+1 request not priced)', 'from the recorded usage where there is one'],
      ['Cache hit rate', '45.5%', '1,000 of 2,200 recorded prompt tokens read from cache'],
      ['Lost to misses', '$0.0040', 'on 1 miss: cold_start $0.0040 (1)'],
    ]);
  });

  it('has no hit rate without a recorded prompt, and says "not priced" when nothing is', () => {
    const f = usageOnlyFigures({ requests: [request(0, 0, null)] }, { recordedRead: [null], cost: [null], missCause: [null], missCost: [null] }, 0);
    expect(f.hitRate).toBeNull();
    expect(figureRows(f).map((row) => row[1])).toEqual(['1', 'not priced', 'n/a', '$0.0000']);
  });
});
