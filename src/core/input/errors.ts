// A problem with the input that has a place: the file as a whole (line 0) or one record.
// Messages never contain payload text or file paths, so they can go into machine-readable reports as they are.

export class InputError extends Error {
  /** 1-based line / record number, or 0 when the problem concerns the whole file. */
  readonly line: number;

  constructor(message: string, line = 0) {
    super(message);
    this.name = 'InputError';
    this.line = line;
  }
}

/** Which work limit a read reached (limits.ts); public codes, printed by the CLI and the app. */
export type WorkLimitCode = 'LIMIT_RECORDS' | 'LIMIT_BLANK_LINES' | 'LIMIT_REQUESTS' | 'LIMIT_SEGMENTS' | 'LIMIT_TEXTS';

/**
 * A work limit was reached: the read stops as a whole (unlike a broken record, nothing after it is read), so the
 * run ends in bounded time and memory. `file` is the index of the file being read, `line` where it stopped.
 */
export class WorkLimitError extends InputError {
  readonly code: WorkLimitCode;
  readonly limit: number;
  file: number;

  /** `what`: what the limit counts, in words; `at`: where the read stopped (file 0 unless given). */
  constructor(code: WorkLimitCode, what: string, limit: number, at: { line: number; file?: number }) {
    super(`${code}: more than ${limit.toLocaleString('en-US')} ${what}; reading stopped here`, at.line);
    this.name = 'WorkLimitError';
    this.code = code;
    this.limit = limit;
    this.file = at.file ?? 0;
  }
}

/** The abort reason of a signal as a throwable value (a DOMException AbortError unless the caller gave one). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The read was aborted', 'AbortError');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}
