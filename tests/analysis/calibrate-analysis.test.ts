// Calibrating a whole analysis (synthetic two-request input: one Claude, one OpenAI request).
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { calibrateAnalysis } from '../../src/core/analysis/calibrate-analysis.ts';
import { analysisValidator } from './schema.ts';

const claude = {
  model: 'claude-sonnet-4-5',
  max_tokens: 10,
  system: 'You are a synthetic test assistant.',
  messages: [{ role: 'user', content: 'Count these words, please, for the calibration test.' }],
};
const openai = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Synthetic OpenAI request text.' }] };

describe('calibrateAnalysis', () => {
  it('rescales Claude estimates and their totals, leaves exact OpenAI counts alone', async () => {
    const claudeFile = { name: 'claude.jsonl', bytes: new TextEncoder().encode(JSON.stringify(claude) + '\n') };
    const openaiFile = { name: 'openai.jsonl', bytes: new TextEncoder().encode(JSON.stringify(openai) + '\n') };
    const analysis = await analyzeInput([claudeFile, openaiFile]);
    const calibration = { factor: 2, source: 'count-tokens' as const, requests: 1 };
    const calibrated = calibrateAnalysis(analysis, calibration);

    const before = analysis.tokens[0]!;
    const after = calibrated.tokens[0]!;
    expect(after.segments).toEqual(before.segments.map((t) => t * 2));
    expect(after.overheadTotal).toBe(before.overheadTotal * 2);
    expect(after.total).toBe(before.total * 2);
    expect(calibrated.tokens[1]).toBe(analysis.tokens[1]);
    expect(calibrated.segmentTokens[0]).toEqual(after.segments);
    expect(calibrated.overheadTokens[0]).toBe(after.overheadTotal);
    expect(calibrated.totals.tokens).toBe(after.total + analysis.tokens[1]!.total);
    expect(calibrated.files[0]!.totals.tokens).toBe(after.total);
    expect(calibrated.files[1]!.totals).toEqual(analysis.files[1]!.totals);
    expect(calibrated.calibration).toEqual(calibration);
    // The analysis given is not changed.
    expect(analysis.tokens[0]).toBe(before);
    expect(analysis.calibration).toBeUndefined();
    // The JSON record says the counts were calibrated, and still validates.
    const record = buildRecord(calibrated);
    expect(record['calibration']).toEqual(calibration);
    expect('calibration' in buildRecord(analysis)).toBe(false);
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
  });
});
