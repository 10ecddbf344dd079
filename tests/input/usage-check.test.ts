// Impossible recorded usage is not used: a hand-made (synthetic) gateway log with negative, huge, fractional and
// non-finite usage falls back to the simulation with one located warning per bad value, never a negative cost, and
// its record validates; a calibration factor outside 0.5–2× is refused with a warning.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { usageCalibratedAnalysis } from '../../src/core/analysis/attach.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { rawUsageProblems, recordedUsageProblems } from '../../src/core/input/usage-check.ts';
import { contextWindowOf } from '../../src/core/pricing/context-window.ts';
import { usageWarningLines } from '../../src/cli/report/usage-warnings.ts';
import { analysisValidator } from '../analysis/schema.ts';

const SYSTEM = 'You are a synthetic gateway test assistant with a long, stable reference text. '.repeat(120);

function line(n: number, usage: string): string {
  const request = {
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: `synthetic question ${n}` }],
  };
  // The usage is spliced in as text so that 1e400 (Infinity once parsed) can be written.
  return `{"timestamp":"2026-11-03T14:00:${String(n * 5).padStart(2, '0')}Z","request":${JSON.stringify(request)},"response":{"type":"message","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":${usage}}}`;
}

const BAD = [
  line(1, '{"input_tokens":-5,"output_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}'),
  line(2, '{"input_tokens":20,"output_tokens":12,"cache_creation_input_tokens":300000000000000,"cache_read_input_tokens":0}'),
  line(3, '{"input_tokens":20.5,"output_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":1500}'),
  line(4, '{"input_tokens":20,"output_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":-1000000}'),
  line(5, '{"input_tokens":1e400,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}'),
];

async function analyze(lines: string[]) {
  const bytes = new TextEncoder().encode(lines.join('\n') + '\n');
  return usageCalibratedAnalysis(await analyzeInput([{ name: 'synthetic-gateway.jsonl', bytes }])).analysis;
}

describe('impossible recorded usage', () => {
  it('falls back to the simulation with one located warning per bad value; cost ≥ 0; the record validates', async () => {
    const analysis = await analyze(BAD);
    expect(analysis.usageWarnings).toEqual([
      { file: 0, line: 1, request: 0, field: 'usage.input_tokens', value: -5, reason: 'negative' },
      { file: 0, line: 2, request: 1, field: 'usage.cache_creation_input_tokens', value: 300_000_000_000_000, reason: 'over_context_window' },
      { file: 0, line: 3, request: 2, field: 'usage.input_tokens', value: 20.5, reason: 'not_integer' },
      { file: 0, line: 4, request: 3, field: 'usage.cache_read_input_tokens', value: -1_000_000, reason: 'negative' },
      { file: 0, line: 5, request: 4, field: 'usage.input_tokens', value: 'Infinity', reason: 'not_finite' },
    ]);
    for (const request of analysis.requests) {
      expect(request.recorded).toBeNull();
      expect(request.notes.map((n) => n.code)).toContain('recorded_usage_rejected');
    }
    // Nothing recorded is used: no calibration from it, every request simulated, nothing negative.
    expect(analysis.calibration).toBeUndefined();
    const cost = analysis.cache!.cost;
    expect(cost.billed.totals.recordedRequests).toBe(0);
    expect(cost.billed.totals.total).toBeGreaterThan(0);
    for (const r of cost.billed.requests) expect(r.cost.total!).toBeGreaterThanOrEqual(0);
    const record = buildRecord(analysis);
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    expect((record['usageWarnings'] as unknown[]).length).toBe(5);
    // The CLI's lines name the file, the record, the field and the value.
    expect(usageWarningLines(analysis)[0]).toBe('synthetic-gateway.jsonl:1: recorded usage not used (the simulation stands in): usage.input_tokens is -5 (negative)');
  });

  it('keeps good usage beside bad: only the bad request falls back', async () => {
    const good = line(6, '{"input_tokens":30,"output_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}');
    const analysis = await analyze([BAD[0]!, good]);
    expect(analysis.requests.map((r) => r.recorded === null)).toEqual([true, false]);
    expect(analysis.usageWarnings).toHaveLength(1);
  });

  it('checks normalized usage from any importer against the window', () => {
    const usage = { input: 10, cacheRead: 150_000, cacheWrite5m: 60_000, cacheWrite1h: 0, output: 5 };
    expect(recordedUsageProblems(usage, contextWindowOf('claude-3-5-sonnet-20241022', 'anthropic'))).toEqual([
      { field: 'recorded prompt (input + cache read + cache writes)', value: 210_010, reason: 'over_context_window' },
    ]);
    expect(recordedUsageProblems(usage, contextWindowOf('claude-sonnet-4-5', 'anthropic'))).toEqual([]);
    expect(recordedUsageProblems({ ...usage, output: -1 }, 1e6)).toEqual([{ field: 'recorded output', value: -1, reason: 'negative' }]);
    // OpenAI totals: a negative detail is caught before the subtraction would clamp it away.
    expect(rawUsageProblems({ prompt_tokens: 100, prompt_tokens_details: { cached_tokens: -50 } }, 128_000)).toEqual([
      { field: 'usage.prompt_tokens_details.cached_tokens', value: -50, reason: 'negative' },
    ]);
    expect(rawUsageProblems({ prompt_tokens: 100, completion_tokens: 3, cost: -2 }, 128_000)).toEqual([]);
  });
});

describe('a calibration factor outside 0.5–2×', () => {
  it('is refused with a warning, and the estimates stand', async () => {
    // Recorded prompts three times the estimate: valid numbers, but not a measure of this prompt.
    const lines = [1, 2, 3].map((n) => line(n, '{"input_tokens":3000,"output_tokens":5,"cache_creation_input_tokens":2000,"cache_read_input_tokens":0}'));
    const plain = await analyzeInput([{ name: 'synthetic.jsonl', bytes: new TextEncoder().encode(lines.join('\n')) }]);
    const estimate = plain.tokens[0]!.total;
    const analysis = await analyze(lines);
    expect(analysis.calibration).toBeUndefined();
    expect(analysis.calibrationRefused).toEqual({ factor: 5000 / estimate, source: 'recorded-usage', requests: 3 });
    expect(analysis.tokens[0]!.total).toBe(estimate);
    expect(usageWarningLines(analysis).at(-1)).toContain('outside 0.5–2×');
    const validate = analysisValidator();
    expect(validate(buildRecord(analysis)), JSON.stringify(validate.errors)).toBe(true);
  });
});
