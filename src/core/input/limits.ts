// Central input limits. Every reader checks against these, so a hostile or broken file fails with a located
// error instead of exhausting memory or the call stack. Tests may pass smaller values through ReadOptions.limits.

export interface InputLimits {
  /**
   * Most bytes one file may decompress to. Guards against gzip bombs; JSONL is streamed record by record, so this
   * bounds work, not memory.
   */
  maxDecompressedBytes: number;
  /**
   * Most bytes of a whole-document file (one pretty-printed body, a JSON array, a batch API body): those need their
   * whole text in memory at once, and JavaScript strings stop at about 2^29 characters.
   */
  maxDocumentBytes: number;
  /** Most bytes of one JSONL record (line). A longer line is reported and skipped without being buffered. */
  maxRecordBytes: number;
  /**
   * Deepest JSON nesting accepted. Checked by a linear scan before JSON.parse and before any recursive walk, so a
   * 10,000-deep document is a located error, not a stack overflow. Real request bodies stay far below 64.
   */
  maxNestingDepth: number;
  /**
   * Most errors listed per file; later ones are counted and summed up in one last error. A file of ten million
   * broken lines must not turn into ten million error objects.
   */
  maxErrorsPerFile: number;
}

/** 8 GiB: a month of gateway logs fits; a crafted 1 KB → 100 GB gzip does not. */
export const MAX_DECOMPRESSED_BYTES = 8 * 1024 * 1024 * 1024;
/** 512 MiB: just under V8's longest string (2^29 − 24 UTF-16 units) for ASCII text. */
export const MAX_DOCUMENT_BYTES = 512 * 1024 * 1024;
/** 256 MiB: a request body with dozens of inline screenshots is tens of MB; leave wide headroom. */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;
/** 512 levels of arrays/objects. */
export const MAX_NESTING_DEPTH = 512;

/** 1,000 listed errors per file. */
export const MAX_ERRORS_PER_FILE = 1000;

export const DEFAULT_LIMITS: Readonly<InputLimits> = Object.freeze({
  maxDecompressedBytes: MAX_DECOMPRESSED_BYTES,
  maxDocumentBytes: MAX_DOCUMENT_BYTES,
  maxRecordBytes: MAX_RECORD_BYTES,
  maxNestingDepth: MAX_NESTING_DEPTH,
  maxErrorsPerFile: MAX_ERRORS_PER_FILE,
});

export function resolveLimits(overrides: Partial<InputLimits> | undefined): InputLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

/** "512 MiB"-style size for error messages. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && Number.isInteger(value / 1024)) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString('en-US')} ${units[unit]}`;
}
