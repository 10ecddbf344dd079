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
  /**
   * Work limits: the byte limits bound bytes, not work. A 6 MB gzip inflates to millions of tiny records, each of
   * which costs objects and analysis time; these stop such a read with a located WorkLimitError (errors.ts).
   * Records (non-blank lines, array elements) per file.
   */
  maxRecords: number;
  /** Blank lines per file (skipped by a byte scan, but a 4 GiB file of newlines is still four billion of them). */
  maxBlankLines: number;
  /** Requests over the whole read (all files): each is kept, tokenized and simulated. */
  maxRequests: number;
  /** Segments over the whole read: the sum of every request's segment count. */
  maxSegments: number;
  /**
   * Segments built anew over the whole read (not resent from an earlier request), the part of `maxSegments` that
   * costs memory: raised with it by `--max-segments` (an eighth of it).
   */
  maxBuiltSegments: number;
  /** Distinct interned texts over the whole read. */
  maxDistinctTexts: number;
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

/** 1,000,000 records per file. */
export const MAX_RECORDS = 1_000_000;
/** 1,000,000 blank lines per file: a log has a handful. */
export const MAX_BLANK_LINES = 1_000_000;
/** 200,000 requests per read: a year of one agent's sessions; tiny requests cost ~3.7 KB each to analyze. */
export const MAX_REQUESTS = 200_000;
/**
 * 8,000,000 segments per read (a transcript resends its history, so segments grow with turns²); a resent
 * segment costs ~3 µs of analysis, so this bounds the analysis of a read to about half a minute.
 */
export const MAX_SEGMENTS = 8_000_000;
/**
 * 1,000,000 segments built anew per read: a resent segment is a pointer to one built before, a built one ~600
 * bytes with its analysis. Real logs build about one per distinct text (a 200 MB gateway log 19,826 of its
 * 241,096); a history reshuffled on every request builds every one (100 requests of 40,000 tiny blocks:
 * 4,000,000, 2.5 GB before this limit).
 */
export const MAX_BUILT_SEGMENTS = 1_000_000;
/**
 * 1,000,000 distinct texts per read (a block's text and its wire JSON are two): a distinct block costs ~1.4 KB
 * and ~45 µs to read and analyze.
 */
export const MAX_DISTINCT_TEXTS = 1_000_000;

export const DEFAULT_LIMITS: Readonly<InputLimits> = Object.freeze({
  maxDecompressedBytes: MAX_DECOMPRESSED_BYTES,
  maxDocumentBytes: MAX_DOCUMENT_BYTES,
  maxRecordBytes: MAX_RECORD_BYTES,
  maxNestingDepth: MAX_NESTING_DEPTH,
  maxErrorsPerFile: MAX_ERRORS_PER_FILE,
  maxRecords: MAX_RECORDS,
  maxBlankLines: MAX_BLANK_LINES,
  maxRequests: MAX_REQUESTS,
  maxSegments: MAX_SEGMENTS,
  maxBuiltSegments: MAX_BUILT_SEGMENTS,
  maxDistinctTexts: MAX_DISTINCT_TEXTS,
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
