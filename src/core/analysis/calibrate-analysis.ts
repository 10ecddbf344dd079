// Applies a calibration factor to a whole analysis: every Claude request's estimated counts (segments, overhead
// parts, totals, per-category sums) are multiplied and rounded, the file and input totals are recomputed, and
// the factor is recorded so every view can say the counts were calibrated. OpenAI counts are left as they are.

import { recountTotals } from './totals.ts';
import type { Analysis } from './types.ts';
import type { Category, ParsedRequest } from '../model.ts';
import type { RequestTokens } from '../tokens/counter.ts';
import { isClaudeEstimate, type Calibration } from '../cache/calibrate.ts';

function scaleRequestTokens(request: ParsedRequest, tokens: RequestTokens, factor: number): RequestTokens {
  const segments = tokens.segments.map((t) => Math.round(t * factor));
  const overhead = {
    framing: Math.round(tokens.overhead.framing * factor),
    toolsPreamble: Math.round(tokens.overhead.toolsPreamble * factor),
    toolUseSystem: Math.round(tokens.overhead.toolUseSystem * factor),
  };
  const overheadTotal = overhead.framing + overhead.toolsPreamble + overhead.toolUseSystem;
  const framing = scaledFraming(tokens, factor);
  const byCategory: Partial<Record<Category, number>> = {};
  let segmentSum = 0;
  segments.forEach((t, i) => {
    const category = request.segments[i]?.category ?? 'other';
    byCategory[category] = (byCategory[category] ?? 0) + t;
    segmentSum += t;
  });
  return { ...tokens, segments, overhead, overheadTotal, framing, total: segmentSum + overheadTotal, byCategory };
}

/**
 * The framing each block carries, scaled by rounding its running sum (from the framing before the first block), so
 * the parts still add up to the rounded `overhead.framing` and a block's share depends only on the blocks before it.
 */
function scaledFraming(tokens: RequestTokens, factor: number): number[] {
  let attributed = 0;
  for (const part of tokens.framing) attributed += part;
  let running = tokens.overhead.framing - attributed;
  let previous = Math.round(running * factor);
  return tokens.framing.map((part) => {
    running += part;
    const rounded = Math.round(running * factor);
    const scaled = rounded - previous;
    previous = rounded;
    return scaled;
  });
}

/** The analysis with Claude estimates rescaled by `calibration.factor`; the input analysis is not changed. */
export function calibrateAnalysis(analysis: Analysis, calibration: Calibration): Analysis {
  const tokens = analysis.tokens.map((counted, i) => {
    const request = analysis.requests[i];
    return request !== undefined && isClaudeEstimate(request)
      ? scaleRequestTokens(request, counted, calibration.factor)
      : counted;
  });
  return {
    ...analysis,
    ...recountTotals(analysis, tokens),
    tokens,
    segmentTokens: tokens.map((t) => t.segments),
    overheadTokens: tokens.map((t) => t.overheadTotal),
    calibration,
  };
}
