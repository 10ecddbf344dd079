// The cache parts of the JSON record: present, schema-valid, and free of payload text and tool names.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { analysisValidator } from '../analysis/schema.ts';

const examples = path.resolve(__dirname, '../../examples');

async function recordOf(file: string) {
  const analysis = await analyzeInput([{ name: file, bytes: new Uint8Array(readFileSync(path.join(examples, file))) }]);
  return { analysis, record: buildRecord(analysis) as Record<string, unknown> & { requests: Record<string, unknown>[]; totals: Record<string, unknown> } };
}

describe('JSON record with the cache analysis', () => {
  it('carries conversations, per-request cache figures, cost totals and findings, and validates', async () => {
    const { analysis, record } = await recordOf('synthetic-anthropic-agent-cache-bust.jsonl.gz');
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    expect(record.requests[0]).toMatchObject({ conversation: 0, continues: null, link: 'new', comparedWith: null });
    expect(record.requests[5]).toMatchObject({ conversation: 0, continues: 4, link: 'continues' });
    const cache = record.requests[5]!['cache'] as Record<string, unknown>;
    const simulated = analysis.cache!.cost.actual.simulation.requests[5]!;
    const simulatedCost = analysis.cache!.cost.actual.costs[5]!.total!;
    const avoided = simulatedCost - analysis.cache!.cost.optimized.costs[5]!.total!;
    // A synthetic log without recorded usage: the actual figures are the simulation's, the fixes priced off them.
    const figures = { read: simulated.read, write5m: simulated.write5m, write1h: simulated.write1h, uncached: simulated.uncached };
    expect(cache).toEqual({
      basis: 'simulated',
      ...figures,
      hit: simulated.hit,
      cost: simulatedCost,
      optimizedCost: Math.max(0, simulatedCost - avoided),
      simulated: { ...figures, cost: simulatedCost },
    });
    const cost = record.totals['cost'] as Record<string, unknown>;
    expect(cost['actual']).toBeCloseTo(analysis.cache!.cost.actual.totals.total, 10);
    expect(cost['basis']).toEqual({ recordedRequests: 0, simulatedRequests: record.requests.length });
    expect(cost['savingsFraction']).toBeGreaterThan(0.1);
    expect((record['findings'] as { code: string }[]).map((f) => f.code)).toEqual(['volatile_value_in_prefix', 'missing_tail_breakpoint']);
  });

  it('keeps tool names out of the findings (they stay in the report-only detail)', async () => {
    const { analysis, record } = await recordOf('synthetic-openai-chat-tools-reordered.jsonl');
    expect(analysis.findings![0]!.detail).toContain('grep_search');
    const json = JSON.stringify(record);
    expect(json).toContain('tools_reordered');
    for (const name of ['grep_search', 'list_dir', 'read_file']) expect(json).not.toContain(name);
    expect(analysisValidator()(record)).toBe(true);
  });

  it('lists near-duplicate groups by index only', async () => {
    const { record } = await recordOf('synthetic-anthropic-file-reread.jsonl');
    expect(record['nearDuplicates']).toEqual([{ request: 9, segments: [expect.any(Number), expect.any(Number), expect.any(Number)], similarity: 1 }]);
    expect(analysisValidator()(record)).toBe(true);
  });
});
