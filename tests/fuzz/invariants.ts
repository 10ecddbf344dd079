// What every reader promises on any input, as checks that return a violation (a short sentence) or null.
// A refusal must be located and coded the way its module defines it: input read errors carry a file index and a
// line; dupes refusals a reason code and index-only detail; clearing input errors an input name, a reason and a
// JSON location; journal skips a reason, a line and a fixed field name.
import { CATEGORIES, type ReadError } from '../../src/core/model.ts';
import type { ReadResult } from '../../src/core/input/index.ts';
import { REASON_CODES } from '../../src/core/dupes/codes.ts';
import type { DupesRecord } from '../../src/core/dupes/record.ts';
import { API_CODES, GLOBAL_CODES, INPUT_ERROR_REASONS, INPUT_NAMES, JOURNAL_SKIP_REASONS } from '../../src/core/clearing/codes.ts';

const HASH16 = /^[0-9a-f]{16}$/;
/** Locations are made of the modules' own field names and indexes: nothing else may appear in them. */
const LOCATION = /^[A-Za-z0-9_.[\]-]*$/;
/** Longest error message we accept: a message that long is probably quoting the input. */
const MAX_MESSAGE = 600;

const isIndex = (value: unknown, min = 0) => typeof value === 'number' && Number.isInteger(value) && value >= min;

export function readErrorViolation(error: ReadError, fileCount: number): string | null {
  if (!isIndex(error.file) || error.file >= fileCount) return `read error with file ${String(error.file)}`;
  if (!isIndex(error.line)) return `read error with line ${String(error.line)}`;
  if (typeof error.message !== 'string' || error.message.trim() === '') return 'read error without a message';
  if (error.message.length > MAX_MESSAGE) return `read error message of ${error.message.length} characters`;
  return null;
}

export function readResultViolation(result: ReadResult, fileCount: number): string | null {
  if (result.files.length !== fileCount) return `${result.files.length} file summaries for ${fileCount} files`;
  for (const error of result.errors) {
    const problem = readErrorViolation(error, fileCount);
    if (problem) return problem;
  }
  for (let f = 0; f < fileCount; f++) {
    const own = result.errors.filter((e) => e.file === f).length;
    if (result.files[f]!.errors !== own) return `file ${f} summary counts ${result.files[f]!.errors} errors, ${own} reported`;
  }
  for (const request of result.requests) {
    if (!isIndex(request.line, 1)) return `request with line ${request.line}`;
    if (!isIndex(request.file) || request.file >= fileCount) return `request with file ${request.file}`;
    for (const segment of request.segments) {
      if (!(CATEGORIES as readonly string[]).includes(segment.category)) return `segment category ${String(segment.category)}`;
      if (typeof segment.text !== 'string' || typeof segment.wire !== 'string') return 'segment without text or wire';
      if (!isIndex(segment.bytes)) return `segment bytes ${segment.bytes}`;
      if (!HASH16.test(segment.hash)) return 'segment hash is not 16 hex digits';
    }
  }
  return null;
}

const DETAIL_NUMBERS = new Set(['blockIndex', 'messageIndex', 'partIndex', 'eventIndex', 'byteOffset', 'limit', 'actual', 'skippedRecords']);
const DETAIL_FIELDS = new Set(['suite', 'adapter', 'blocks', 'text', 'messages', 'content', 'trace', 'events', 'inputs', 'outputs']);

export function dupesRecordViolation(record: DupesRecord): string | null {
  if (!['pass', 'fail', 'unknown'].includes(record.result)) return `dupes result ${String(record.result)}`;
  if (record.result === 'unknown') {
    if (record.reason === null || !(REASON_CODES as readonly string[]).includes(record.reason)) return `unknown without a reason code (${String(record.reason)})`;
    if (record.detail === null || typeof record.detail !== 'object') return 'unknown without detail';
    for (const [key, value] of Object.entries(record.detail)) {
      if (key === 'field') {
        if (!DETAIL_FIELDS.has(value as string)) return `detail field ${String(value)}`;
      } else if (!DETAIL_NUMBERS.has(key) || !isIndex(value)) return `detail ${key}=${String(value)}`;
    }
  } else if (record.reason !== null && record.reason !== undefined) return `${record.result} with reason ${record.reason}`;
  if (record.result === 'pass' && record.duplicates.length > 0) return 'pass with duplicates';
  if (record.result === 'fail' && record.duplicates.length === 0) return 'fail without duplicates';
  return null;
}

export function clearingInputErrorViolation(error: { input: string; reason: string; at: string }): string | null {
  if (!(INPUT_NAMES as readonly string[]).includes(error.input)) return `input error names input ${error.input}`;
  if (!(INPUT_ERROR_REASONS as readonly string[]).includes(error.reason)) return `input error reason ${error.reason}`;
  if (typeof error.at !== 'string' || !LOCATION.test(error.at) || error.at.length > 200) return 'input error location is not a JSON path';
  return null;
}

export function journalSkipViolation(skip: { reason: string; line: number | null; field: string | null }): string | null {
  if (!(JOURNAL_SKIP_REASONS as readonly string[]).includes(skip.reason)) return `journal skip reason ${skip.reason}`;
  if (skip.line !== null && !isIndex(skip.line, 1)) return `journal skip line ${skip.line}`;
  if (skip.field !== null && (!LOCATION.test(skip.field) || skip.field.length > 80)) return 'journal skip field is not a fixed name';
  return null;
}

const CLEARING_CODES = new Set<string>([...GLOBAL_CODES, ...API_CODES]);

export function clearingRecordViolation(record: {
  codes: string[];
  verdict: string;
  inputErrors: { input: string; reason: string; at: string }[];
  apis?: { codes: string[]; verdict: string }[];
}): string | null {
  if (!['BUILD', 'DEFER', 'STOP'].includes(record.verdict)) return `verdict ${record.verdict}`;
  for (const code of record.codes) if (!CLEARING_CODES.has(code)) return `code ${code}`;
  for (const error of record.inputErrors) {
    const problem = clearingInputErrorViolation(error);
    if (problem) return problem;
  }
  for (const api of record.apis ?? []) for (const code of api.codes) if (!CLEARING_CODES.has(code)) return `api code ${code}`;
  return null;
}
