// The step after reading that the CLI and the library share: which calibration a finished analysis gets. By
// default Claude estimates are rescaled by the log's recorded usage (offline); `count_tokens` asks Anthropic for
// one exact count instead (the one network call); `none` keeps the plain estimates.
import { usageCalibratedAnalysis } from '../core/analysis/attach.ts';
import type { Analysis } from '../core/analysis/types.ts';
import type { Calibration } from '../core/cache/calibrate.ts';
import { calibratedAnalysis, type CountTokensCalibration } from './calibrate.ts';

export type CalibrationMode = 'usage' | 'count_tokens' | 'none';

export interface CalibratedAnalysis {
  analysis: Analysis;
  /** The factor taken from recorded usage (mode `usage`, when the log records any). */
  fromUsage: Calibration | null;
  /** The exact count behind the factor (mode `count_tokens`). */
  counted: CountTokensCalibration | null;
}

/** The analysis calibrated as `mode` says; `count_tokens` reads ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL from `env`. */
export async function calibrated(analysis: Analysis, mode: CalibrationMode, env: Record<string, string | undefined> = {}): Promise<CalibratedAnalysis> {
  if (mode === 'none') return { analysis, fromUsage: null, counted: null };
  if (mode === 'count_tokens') {
    const result = await calibratedAnalysis(analysis, env);
    return { analysis: result.analysis, fromUsage: null, counted: result.counted };
  }
  const usage = usageCalibratedAnalysis(analysis);
  return { analysis: usage.analysis, fromUsage: usage.calibration, counted: null };
}

/** The CLI's flags and the library's options, as one mode. */
export function calibrationMode(options: { countTokens: boolean; usageCalibration: boolean }): CalibrationMode {
  if (options.countTokens) return 'count_tokens';
  return options.usageCalibration ? 'usage' : 'none';
}
