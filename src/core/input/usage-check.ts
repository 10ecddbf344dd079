// Recorded usage that cannot be true is not used: a token count that is negative, not a whole number, not finite,
// or larger than the model's context window. The request then falls back to the simulation, and each bad value
// becomes a located warning (file, record, field, value), so a corrupt gateway log never yields a negative cost or
// a calibration factor of 10^14.
import { providerOf, recordedPromptTokens, type ParsedRequest, type RecordedUsage, type UsageProblem, type UsageProblemReason } from '../model.ts';
import { contextWindowOf } from '../pricing/context-window.ts';
import { note } from '../formats/notes.ts';
import { isObject } from './json-value.ts';

/** One refused value, located. */
export interface UsageWarning extends UsageProblem {
  file: number;
  /** 1-based JSONL line, or record number in an array (as `ParsedRequest.line`). */
  line: number;
  /** 0-based request index over the analysis. */
  request: number;
}

const DETAIL_KEYS = /_details$|^cache_creation$/;

const windowOf = (request: ParsedRequest): number => contextWindowOf(request.model, providerOf(request.format));

function problemOf(field: string, value: number): UsageProblem | null {
  if (!Number.isFinite(value)) return { field, value: String(value), reason: 'not_finite' };
  if (value < 0) return { field, value, reason: 'negative' };
  if (!Number.isInteger(value)) return { field, value, reason: 'not_integer' };
  return null;
}

/**
 * Impossible token counts among a raw usage object's `*_tokens` fields (and those of its `*_details` and
 * `cache_creation` objects), read before normalizing (which would clamp a negative difference to 0): each must be a
 * whole number from 0 to the model's context window. A number too large for a double (`1e400`) parses as Infinity.
 */
export function rawUsageProblems(usage: unknown, contextWindow: number): UsageProblem[] {
  const problems: UsageProblem[] = [];
  const walk = (object: unknown, path: string, depth: number): void => {
    if (!isObject(object)) return;
    for (const [key, value] of Object.entries(object)) {
      if (typeof value === 'number' && key.endsWith('_tokens')) {
        const field = `${path}.${key}`;
        const problem = problemOf(field, value) ?? (value > contextWindow ? { field, value, reason: 'over_context_window' as const } : null);
        if (problem) problems.push(problem);
      } else if (depth === 0 && DETAIL_KEYS.test(key)) walk(value, `${path}.${key}`, depth + 1);
    }
  };
  walk(usage, 'usage', 0);
  return problems;
}

const FIELDS: readonly Exclude<keyof RecordedUsage, 'speed'>[] = ['input', 'cacheRead', 'cacheWrite5m', 'cacheWrite1h', 'output'];

/** Impossible values in normalized usage: each field as a count, the prompt and the reply against the window. */
export function recordedUsageProblems(usage: RecordedUsage, contextWindow: number): UsageProblem[] {
  const problems: UsageProblem[] = [];
  for (const field of FIELDS) {
    const problem = problemOf(`recorded ${field}`, usage[field]);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) return problems;
  const prompt = recordedPromptTokens(usage);
  if (prompt > contextWindow) problems.push({ field: 'recorded prompt (input + cache read + cache writes)', value: prompt, reason: 'over_context_window' });
  if (usage.output > contextWindow) problems.push({ field: 'recorded output', value: usage.output, reason: 'over_context_window' });
  return problems;
}

const REASON_TEXT: Record<UsageProblemReason, string> = {
  negative: 'negative',
  not_integer: 'not a whole number',
  not_finite: 'not a finite number',
  over_context_window: "more than the model's context window",
};

export function describeUsageProblem(problem: UsageProblem): string {
  return `${problem.field} is ${problem.value} (${REASON_TEXT[problem.reason]})`;
}

/** Usage read from a raw usage object, refused (null, with the reasons on the request) when a value is impossible. */
export function checkedRecordedUsage(request: ParsedRequest, raw: unknown, read: (usage: unknown) => RecordedUsage | null): RecordedUsage | null {
  const problems = rawUsageProblems(raw, windowOf(request));
  if (problems.length === 0) return read(raw);
  request.rejectedUsage = problems;
  return null;
}

/**
 * Drops the recorded usage of every request with an impossible value (raw ones found while reading, in
 * `request.rejectedUsage`, and normalized ones checked here against the model's window), notes it on the request
 * and returns one warning per value.
 */
export function rejectImpossibleUsage(requests: readonly ParsedRequest[]): UsageWarning[] {
  const warnings: UsageWarning[] = [];
  requests.forEach((request, index) => {
    const raw = request.rejectedUsage ?? [];
    const recorded = request.recorded;
    const problems = raw.length > 0 || recorded === null ? raw : recordedUsageProblems(recorded, windowOf(request));
    if (problems.length === 0) return;
    request.recorded = null;
    request.rejectedUsage = problems;
    request.notes.push(note('recorded_usage_rejected'));
    for (const problem of problems) warnings.push({ ...problem, file: request.file, line: request.line, request: index });
  });
  return warnings;
}
