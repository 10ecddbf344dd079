// One folder session read, calibrated on its own recorded usage and folded (src/core/folder/session.ts), the step
// the CLI's folder run and the app's folder drop share. Input: a SYNTHETIC gateway capture.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { emptyFolder, foldSession } from '../../src/core/folder/index.ts';
import { InputError } from '../../src/core/input/index.ts';

const request = { model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'Synthetic question about caching. '.repeat(30) }] };
const capture = `${JSON.stringify({ request, response: { usage: { input_tokens: 300, output_tokens: 4 } } })}\n`;
const files = () => [{ name: 'synthetic-capture.jsonl', bytes: new TextEncoder().encode(capture) }];

describe('foldSession', () => {
  it('folds the session calibrated on its recorded usage, and returns it as read with the rows it added', async () => {
    const folder = emptyFolder('ctxray test', '2026-12-01');
    const { analysis, parts } = await foldSession(folder, files());
    const plain = await analyzeInput(files());
    expect(analysis.tokens.map((t) => t.total)).toEqual(plain.tokens.map((t) => t.total));
    expect(folder.analyses).toBe(1);
    expect(folder.calibrated).toBe(1);
    expect(folder.requests).toBe(1);
    expect(parts).toEqual(folder.parts);
    expect(parts).toHaveLength(1);
    // Calibrated (×300/178, inside the 0.5–2× band): the folder's token sum is the recorded 300, not the plain estimate.
    expect(plain.totals.tokens).not.toBe(300);
    expect(folder.totals.tokens).toBe(300);
  });

  it('keeps the plain estimates when usage calibration is off', async () => {
    const folder = emptyFolder('ctxray test', '2026-12-01');
    await foldSession(folder, files(), { usageCalibration: false });
    const plain = await analyzeInput(files());
    expect(folder.calibrated).toBe(0);
    expect(folder.totals.tokens).toBe(plain.totals.tokens);
  });

  it('folds nothing when the read fails', async () => {
    const folder = emptyFolder('ctxray test', '2026-12-01');
    await expect(foldSession(folder, files(), { limits: { maxRecords: 0 } })).rejects.toBeInstanceOf(InputError);
    expect(folder.analyses).toBe(0);
    expect(folder.parts).toEqual([]);
  });
});
