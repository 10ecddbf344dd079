// The system prompt and tools a transcript does not record are one part of each request's count
// (`setup_inferred`): recorded prompt − reconstructed, so a request with recorded usage totals the provider's
// count, and the cache simulation sends those same tokens once (as the prefix), not twice. Synthetic sessions.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import type { Analysis } from '../../src/core/analysis/types.ts';
import { withCacheAnalysis } from '../../src/core/analysis/attach.ts';
import { calibrateAnalysis } from '../../src/core/analysis/calibrate-analysis.ts';
import { calibrationFromCount, calibrationFromUsage } from '../../src/core/cache/calibrate.ts';
import { reconstructedTokens } from '../../src/core/cache/unrecorded-setup.ts';
import { withUnrecordedSetup } from '../../src/core/analysis/with-unrecorded-setup.ts';
import { agreementOf } from '../../src/core/transcripts/index.ts';
import { buildView } from '../../src/worker/view.ts';
import { renderHtmlReport } from '../../src/render/report/html.ts';
import { syntheticClaudeCodeSession } from '../transcripts/claude-code-session.ts';
import { analysisValidator } from './schema.ts';

const encode = (text: string) => new TextEncoder().encode(text);

// Recorded prompts (input + cache read + cache write): 3 + 8,997 = 9,000, then 3 + 8,997 + 26 = 9,026, then
// 3 + 9,023 + 26 = 9,052: each turn adds what its two short messages cost, the rest is the unrecorded setup.
const SESSION = syntheticClaudeCodeSession('synthetic-setup', '2026-03-01T10:00:00.000Z', [
  { input: 3, read: 0, write5m: 8997, output: 40 },
  { input: 3, read: 8997, write5m: 26, output: 40 },
  { input: 3, read: 9023, write5m: 26, output: 40 },
]);
const RECORDED_PROMPTS = [9000, 9026, 9052];

/** Σ segments + overhead: what the transcript itself accounts for. */
const rebuilt = (analysis: Analysis, r: number) => analysis.tokens[r]!.segments.reduce((a, b) => a + b, 0) + analysis.tokens[r]!.overheadTotal;

describe('the unrecorded setup as a part of the request (synthetic Claude Code session)', async () => {
  const analysis = await analyzeInput([{ name: 'synthetic-setup.jsonl', bytes: encode(SESSION) }]);

  it('totals each request at its recorded prompt, the setup being recorded − reconstructed', () => {
    expect(analysis.requests).toHaveLength(3);
    RECORDED_PROMPTS.forEach((prompt, r) => {
      const tokens = analysis.tokens[r]!;
      expect(tokens.total).toBe(prompt);
      expect(tokens.byCategory.setup_inferred).toBe(prompt - rebuilt(analysis, r));
      expect(tokens.byCategory.setup_inferred).toBeGreaterThan(8000);
      expect(reconstructedTokens(tokens)).toBe(rebuilt(analysis, r));
      // The cache analysis inferred the same size: one source of the number.
      expect(analysis.cache!.inferred.setupTokens[r]).toBe(tokens.byCategory.setup_inferred);
    });
    expect(analysis.totals.tokens).toBe(9000 + 9026 + 9052);
    expect(analysis.files[0]!.totals.tokens).toBe(9000 + 9026 + 9052);
    expect(analysis.totals.byCategory.setup_inferred).toBe(
      RECORDED_PROMPTS.reduce((sum, prompt, r) => sum + prompt - rebuilt(analysis, r), 0),
    );
  });

  it('is simulated once: the simulated prompt is the recorded one, not the recorded one plus the setup', () => {
    RECORDED_PROMPTS.forEach((prompt, r) => {
      const simulated = analysis.cache!.cost.actual.simulation.requests[r]!;
      expect(simulated.promptTokens).toBe(prompt);
      expect(simulated.read + simulated.write5m + simulated.write1h + simulated.uncached).toBe(prompt);
    });
  });

  it('leaves the transcript agreement on the reconstructed count', () => {
    const agreement = agreementOf(analysis)!;
    expect(agreement.requests.map((row) => row.reconstructed)).toEqual([0, 1, 2].map((r) => rebuilt(analysis, r)));
  });

  it('is no measure of the estimator, and stays the provider count when a calibration re-runs the analysis', () => {
    // Every request's recorded prompt holds the setup the estimate lacks: calibrating on it would scale the rest up.
    expect(calibrationFromUsage(analysis.requests, analysis.segmentTokens, analysis.overheadTokens)).toBeNull();
    // An exact count (e.g. count_tokens) doubling the estimates: the rebuilt part doubles, the setup shrinks by as much.
    const calibrated = withCacheAnalysis(calibrateAnalysis(analysis, calibrationFromCount(2, 1)!));
    expect(calibrated.tokens.map((t) => t.total)).toEqual(RECORDED_PROMPTS);
    expect(calibrated.totals.tokens).toBe(9000 + 9026 + 9052);
    RECORDED_PROMPTS.forEach((prompt, r) => {
      expect(rebuilt(calibrated, r)).toBeGreaterThan(rebuilt(analysis, r));
      expect(calibrated.tokens[r]!.byCategory.setup_inferred).toBe(prompt - rebuilt(calibrated, r));
    });
  });

  it('is a documented category of the record, with no segment and no text', () => {
    const record = buildRecord(analysis) as { requests: { tokens: { total: number; byCategory: Record<string, number> }; segments: { category: string }[]; recorded: { prompt: number } }[] };
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    record.requests.forEach((request, r) => {
      expect(request.tokens.total).toBe(request.recorded.prompt);
      expect(request.tokens.byCategory['setup_inferred']).toBe(RECORDED_PROMPTS[r]! - rebuilt(analysis, r));
      expect(request.segments.some((segment) => segment.category === 'setup_inferred')).toBe(false);
    });
  });

  it('is the last segment of the app view, pathless and textless, and the view total is the provider count', () => {
    const view = buildView(analysis);
    view.requests.forEach((request, r) => {
      expect(request.total).toBe(request.recordedPrompt);
      const last = request.segments.at(-1)!;
      expect(last).toMatchObject({ category: 'setup_inferred', path: '', bytes: 0, hash: '', toolName: null });
      expect(last.tokens).toBe(RECORDED_PROMPTS[r]! - rebuilt(analysis, r));
      expect(request.segments.filter((segment) => segment.category === 'setup_inferred')).toHaveLength(1);
      expect(request.segments.reduce((sum, segment) => sum + segment.tokens, 0) + request.overhead).toBe(request.total);
    });
  });

  it('is one rectangle of the HTML report treemap, named and sized, without text', () => {
    const html = renderHtmlReport(analysis, analysis.cache!, { content: false });
    const setup = analysis.tokens[2]!.byCategory.setup_inferred!;
    expect(html).toContain(`Tokens of request 3 (the largest, ≈9,052 tokens)`);
    // One rectangle in each of the two layouts (wide and narrow), the same block.
    expect(html.match(/<rect class="f-setup_inferred"/g)).toHaveLength(2);
    expect(html).toContain(`<title>system prompt and tools, not recorded, ≈${setup.toLocaleString('en-US')} inferred from recorded usage</title>`);
  });
});

describe('no unrecorded setup where nothing was recorded', () => {
  it('adds nothing to a transcript whose calls recorded no tokens', async () => {
    const aborted = syntheticClaudeCodeSession('synthetic-aborted', '2026-03-01T10:00:00.000Z', [
      { input: 0, read: 0, write5m: 0, output: 0 },
      { input: 0, read: 0, write5m: 0, output: 0 },
    ]);
    const analysis = await analyzeInput([{ name: 'synthetic-aborted.jsonl', bytes: encode(aborted) }]);
    expect(analysis.requests).toHaveLength(2);
    for (let r = 0; r < 2; r++) {
      expect(analysis.tokens[r]!.byCategory.setup_inferred).toBeUndefined();
      expect(analysis.tokens[r]!.total).toBe(rebuilt(analysis, r));
    }
    expect(analysis.totals.byCategory.setup_inferred).toBeUndefined();
    expect(buildView(analysis).requests.every((request) => request.segments.every((s) => s.category !== 'setup_inferred'))).toBe(true);
  });

  it('adds nothing to a request capture that records its own system prompt', async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, system: 'synthetic system prompt', messages: [{ role: 'user', content: 'synthetic question' }] };
    const analysis = await analyzeInput([{ name: 'synthetic-request.json', bytes: encode(JSON.stringify(body)) }]);
    expect(analysis.requests).toHaveLength(1);
    expect(analysis.tokens[0]!.byCategory.setup_inferred).toBeUndefined();
    expect(analysis.tokens[0]!.total).toBe(rebuilt(analysis, 0));
  });
});


describe('exactness with an inferred setup', () => {
  it('never leaves a total that holds the inferred setup marked exact, whatever counted the rest', async () => {
    const analysis = await analyzeInput([{ name: 'synthetic-setup.jsonl', bytes: encode(SESSION) }]);
    // As if an exact tokenizer (OpenAI's) had counted the rebuilt part.
    const counted = { ...analysis, tokens: analysis.tokens.map((tokens) => ({ ...tokens, exact: true })) };
    const withSetup = withUnrecordedSetup(counted, analysis.cache!);
    expect(withSetup.tokens.map((tokens) => [tokens.byCategory.setup_inferred! > 0, tokens.exact])).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);
  });
});

describe('what the inferred part stands for', () => {
  const line = (type: string, payload: unknown, timestamp: string) => JSON.stringify({ timestamp, type, payload });
  const tokens = (input: number, cached: number, t: string) =>
    line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: 5, reasoning_output_tokens: 0, total_tokens: input + 5 } } }, t);
  // A synthetic Codex rollout: base_instructions recorded, tools not; the second call carries encrypted reasoning.
  const rollout = [
    line('session_meta', { id: 'x', base_instructions: { text: 'You are a synthetic agent.' } }, '2026-01-01T00:00:00.000Z'),
    line('turn_context', { model: 'gpt-5.3-codex' }, '2026-01-01T00:00:00.500Z'),
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] }, '2026-01-01T00:00:01.000Z'),
    line('response_item', { type: 'reasoning', summary: [], encrypted_content: 'gAAAAsynthetic' }, '2026-01-01T00:00:02.000Z'),
    line('response_item', { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{}' }, '2026-01-01T00:00:02.100Z'),
    tokens(3000, 0, '2026-01-01T00:00:02.200Z'),
    line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'ok' }, '2026-01-01T00:00:03.000Z'),
    line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }, '2026-01-01T00:00:04.000Z'),
    tokens(6100, 2944, '2026-01-01T00:00:04.100Z'),
  ].join('\n');

  it('Claude Code: the system prompt and tools', async () => {
    const analysis = await analyzeInput([{ name: 'session.jsonl', bytes: encode(SESSION) }]);
    const record = buildRecord(analysis) as { requests: { unrecorded: string[] }[] };
    expect(record.requests.map((r) => r.unrecorded)).toEqual([['system_prompt', 'tools'], ['system_prompt', 'tools'], ['system_prompt', 'tools']]);
    expect(buildView(analysis).requests[0]!.unrecorded).toEqual(['system_prompt', 'tools']);
  });

  it('Codex: the tools, and the hidden reasoning once a call carries it; said so in the report', async () => {
    const analysis = await analyzeInput([{ name: 'rollout-2026-01-01T00-00-00-abc.jsonl', bytes: encode(rollout) }]);
    const record = buildRecord(analysis) as { requests: { unrecorded: string[] }[] };
    expect(record.requests.map((r) => r.unrecorded)).toEqual([['tools'], ['tools', 'hidden_reasoning']]);
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const html = renderHtmlReport(analysis, analysis.cache!, { content: false });
    expect(html).toContain('tools and hidden reasoning, not recorded, ≈');
  });
});
