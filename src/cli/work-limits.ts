// The work-limit flags shared by `analyze` and `dupes` (--max-records, …): each raises one limit of
// src/core/input/limits.ts, never lowers it, and the message for a read that reached one.
import { DEFAULT_LIMITS, type InputLimits, type WorkLimitError } from '../core/input/index.ts';

type WorkLimitKey = 'maxRecords' | 'maxBlankLines' | 'maxRequests' | 'maxSegments' | 'maxDistinctTexts';

/** Flag → limit, in the order the help lists them. */
export const WORK_LIMIT_FLAGS: Readonly<Record<string, WorkLimitKey>> = {
  '--max-records': 'maxRecords',
  '--max-blank-lines': 'maxBlankLines',
  '--max-requests': 'maxRequests',
  '--max-segments': 'maxSegments',
  '--max-texts': 'maxDistinctTexts',
};

const FLAG_OF_CODE: Readonly<Record<WorkLimitError['code'], string>> = {
  LIMIT_RECORDS: '--max-records',
  LIMIT_BLANK_LINES: '--max-blank-lines',
  LIMIT_REQUESTS: '--max-requests',
  LIMIT_SEGMENTS: '--max-segments',
  LIMIT_TEXTS: '--max-texts',
};

const grouped = (n: number) => n.toLocaleString('en-US');

/** Help lines for the flags, with their defaults. */
export const WORK_LIMIT_HELP = [
  `  --max-records <n>      records per file (default ${grouped(DEFAULT_LIMITS.maxRecords)})`,
  `  --max-blank-lines <n>  blank lines per file (default ${grouped(DEFAULT_LIMITS.maxBlankLines)})`,
  `  --max-requests <n>     requests over all inputs (default ${grouped(DEFAULT_LIMITS.maxRequests)})`,
  `  --max-segments <n>     segments over all inputs, an eighth of them built anew (default ${grouped(DEFAULT_LIMITS.maxSegments)})`,
  `  --max-texts <n>        distinct texts over all inputs (default ${grouped(DEFAULT_LIMITS.maxDistinctTexts)})`,
].join('\n');

/**
 * Sets the limit a work-limit flag names into `limits`, or returns why the value is refused. Returns null when
 * `flag` is not one of these flags' names.
 */
export function applyWorkLimitFlag(flag: string, value: string | undefined, limits: Partial<InputLimits>): { error: string | null } | null {
  const key = WORK_LIMIT_FLAGS[flag];
  if (key === undefined) return null;
  if (value === undefined || !/^[0-9][0-9_,]*$/.test(value)) return { error: `${flag} needs a whole number` };
  const n = Number(value.replace(/[_,]/g, ''));
  const floor = DEFAULT_LIMITS[key];
  if (!Number.isSafeInteger(n)) return { error: `${flag} needs a whole number` };
  if (n < floor) return { error: `${flag} can only raise the limit of ${grouped(floor)}` };
  limits[key] = n;
  // The segments a read may build anew are an eighth of those it may hold (limits.ts), raised with them.
  if (key === 'maxSegments') limits.maxBuiltSegments = Math.max(DEFAULT_LIMITS.maxBuiltSegments, Math.floor(n / 8));
  return { error: null };
}

/** One line for a read stopped by a work limit: code, where, the limit, and the flag that raises it. */
export function workLimitMessage(error: WorkLimitError, fileName: string): string {
  const where = error.line > 0 ? `${fileName}, line ${error.line}` : fileName;
  const message = error.message.startsWith(`${error.code}: `) ? error.message.slice(error.code.length + 2) : error.message;
  return `${error.code} at ${where}: ${message} (raise it with ${FLAG_OF_CODE[error.code]})`;
}
