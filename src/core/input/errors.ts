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

/** The abort reason of a signal as a throwable value (a DOMException AbortError unless the caller gave one). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The read was aborted', 'AbortError');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}
