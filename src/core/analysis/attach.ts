// Adds the cache analysis to an Analysis: conversations, both simulations with their costs, near-duplicate groups
// and findings, computed from the analysis' own (possibly calibrated) token counts. Re-run it after anything that
// changes those counts (calibration), so the cache figures never lag behind the tokens they are built on. The
// setup a transcript did not record, as the analysis inferred it, joins each request's count (with-unrecorded-setup.ts).
import type { Analysis } from './types.ts';
import { recordsCompactions } from '../formats/registry.ts';
import { analyzeCache, type CacheAnalysisInput } from '../cache/index.ts';
import { withUnrecordedSetup } from './with-unrecorded-setup.ts';
import { usageCalibration, type Calibration } from '../cache/calibrate.ts';
import { calibrateAnalysis } from './calibrate-analysis.ts';

/** The cache analysis' input from an analysis' own (possibly calibrated) counts; every caller builds it here. */
export function cacheInputOf(analysis: Analysis): CacheAnalysisInput {
  return {
    requests: analysis.requests,
    segmentTokens: analysis.segmentTokens,
    overheadTokens: analysis.overheadTokens,
    framingTokens: analysis.tokens.map((t) => t.framing),
    pricingOf: (i) => analysis.models[i]?.pricing ?? null,
    // A transcript records what was said, not where the agent put cache_control.
    breakpointsUnknown: (i) => analysis.files[analysis.requests[i]?.file ?? -1]?.envelope === 'transcript',
    // Claude Code, pi and Codex write a record where they compacted: those records are the compactions there.
    compactionsRecorded: (i) => recordsCompactions(analysis.files[analysis.requests[i]?.file ?? -1]?.format),
  };
}

export function withCacheAnalysis(analysis: Analysis): Analysis {
  const cache = analyzeCache(cacheInputOf(analysis));
  return {
    ...withUnrecordedSetup(analysis, cache),
    cache,
    conversations: cache.conversations,
    findings: cache.findings,
    nearDuplicates: cache.nearDuplicates,
  };
}

/**
 * The default of `analyze` (CLI, library and the app's folder table alike): where the log records usage, the
 * Claude estimates rescaled by it, offline, with the calibration that was applied (null: none, the analysis unchanged
 * but for `calibrationRefused` when the factor fell outside CALIBRATION_BAND).
 */
export function usageCalibratedAnalysis(analysis: Analysis): { analysis: Analysis; calibration: Calibration | null } {
  const { calibration, refused } = usageCalibration(analysis.requests, analysis.segmentTokens, analysis.overheadTokens);
  if (calibration !== null) return { analysis: withCacheAnalysis(calibrateAnalysis(analysis, calibration)), calibration };
  return { analysis: refused === null ? analysis : { ...analysis, calibrationRefused: refused }, calibration };
}
