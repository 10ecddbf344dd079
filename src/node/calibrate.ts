// `--calibrate` (CLI only, opt-in): one exact count of the largest Claude request from Anthropic's free
// count_tokens endpoint, turned into a factor that rescales every Claude estimate. Reads ANTHROPIC_API_KEY (and
// ANTHROPIC_BASE_URL when set); the key is sent only in the x-api-key header of this one request.

import {
  CALIBRATION_BAND,
  calibrationFromCount,
  inCalibrationBand,
  countTokensBody,
  estimatedPrompt,
  largestClaudeRequest,
  type Calibration,
} from '../core/cache/calibrate.ts';
import type { ParsedRequest } from '../core/model.ts';
import type { Analysis } from '../core/analysis/types.ts';
import { calibrateAnalysis } from '../core/analysis/calibrate-analysis.ts';
import { withCacheAnalysis } from '../core/analysis/attach.ts';

export const ANTHROPIC_VERSION = '2023-06-01';
const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const TIMEOUT_MS = 30_000;

export class CalibrationError extends Error {
  override readonly name = 'CalibrationError';
}

export interface CountTokensTarget {
  apiKey: string;
  baseUrl: string;
}

/** Where to send the count and with which key; an error saying what is missing when there is no key. */
export function countTokensTarget(env: Record<string, string | undefined>): CountTokensTarget {
  const apiKey = env['ANTHROPIC_API_KEY']?.trim() ?? '';
  if (apiKey === '') throw new CalibrationError('--calibrate needs ANTHROPIC_API_KEY in the environment');
  const baseUrl = (env['ANTHROPIC_BASE_URL']?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { apiKey, baseUrl };
}

/** POSTs one body to /v1/messages/count_tokens and returns its `input_tokens`. */
export async function countTokens(body: Record<string, unknown>, target: CountTokensTarget): Promise<number> {
  const url = `${target.baseUrl}/v1/messages/count_tokens`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': target.apiKey,
        'anthropic-version': ANTHROPIC_VERSION,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CalibrationError(`count_tokens request to ${url} failed: ${reason}`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CalibrationError(`count_tokens answered HTTP ${response.status} with a body that is not JSON`);
  }
  if (!response.ok) {
    // The error type is a fixed code; the message may echo input, so it is not repeated.
    const type = errorType(parsed);
    throw new CalibrationError(`count_tokens answered HTTP ${response.status}${type === null ? '' : ` (${type})`}`);
  }
  const count = (parsed as { input_tokens?: unknown } | null)?.input_tokens;
  if (typeof count !== 'number' || !Number.isInteger(count) || count <= 0) {
    throw new CalibrationError('count_tokens answer has no positive integer input_tokens');
  }
  return count;
}

function errorType(parsed: unknown): string | null {
  const error = (parsed as { error?: { type?: unknown } } | null)?.error;
  return typeof error?.type === 'string' && /^[a-z_]{1,64}$/.test(error.type) ? error.type : null;
}

export interface CountTokensCalibration {
  calibration: Calibration;
  /** The request that was counted. */
  requestIndex: number;
  exact: number;
  estimated: number;
}

/** Counts the largest Claude request exactly and returns the factor exact ÷ estimate. */
export async function calibrateWithCountTokens(
  requests: readonly ParsedRequest[],
  segmentTokens: readonly (readonly number[])[],
  overheadTokens: readonly number[],
  env: Record<string, string | undefined>,
): Promise<CountTokensCalibration> {
  const target = countTokensTarget(env);
  const index = largestClaudeRequest(requests, segmentTokens, overheadTokens);
  if (index === null) throw new CalibrationError('--calibrate found no Claude request with a model to count');
  const request = requests[index]!;
  const body = countTokensBody(request);
  if (body === null) throw new CalibrationError(`--calibrate: the request at line ${request.line} names no model`);
  const estimated = estimatedPrompt(segmentTokens[index] ?? [], overheadTokens[index] ?? 0);
  const exact = await countTokens(body, target);
  const calibration = calibrationFromCount(exact, estimated);
  if (calibration === null) {
    throw new CalibrationError(`--calibrate: the request at line ${request.line} has no estimated tokens`);
  }
  if (!inCalibrationBand(calibration.factor)) {
    throw new CalibrationError(
      `--calibrate: count_tokens gave ${exact} for the request at line ${request.line}, estimated ${estimated}: a factor of ×${calibration.factor.toPrecision(3)} is outside ${CALIBRATION_BAND.min}–${CALIBRATION_BAND.max}×, refused (the estimates stand)`,
    );
  }
  return { calibration, requestIndex: index, exact, estimated };
}

/** --calibrate on a finished analysis: the count, and the analysis with the cache figures rebuilt on the calibrated counts. */
export async function calibratedAnalysis(
  analysis: Analysis,
  env: Record<string, string | undefined>,
): Promise<{ analysis: Analysis; counted: CountTokensCalibration }> {
  const counted = await calibrateWithCountTokens(analysis.requests, analysis.segmentTokens, analysis.overheadTokens, env);
  return { analysis: withCacheAnalysis(calibrateAnalysis(analysis, counted.calibration)), counted };
}
