// The versioned machine-readable record `ctxray.dupes/1` (schema: docs/dupes.schema.json) and its verdict.
import type { ReasonCode, RefusalDetail } from './codes.ts';
import { measureBlocks, type DuplicateGroup, type DupesTotals, type MeasuredBlock, type Measurement } from './measure.ts';
import type { AdapterName, MappingName, SourceOutcome } from './types.ts';
import { WHITESPACE_TOKENIZER } from '../tokens/whitespace.ts';

export const DUPES_SCHEMA = 'ctxray.dupes/1';

export type DupesResult = 'pass' | 'fail' | 'unknown';

/** What the measurement deliberately does not claim; fixed values, stated in every record. */
export const DUPES_CLAIMS = {
  notClaimed: [
    'provider-model-tokens',
    'billing-estimate',
    'substring-repetition',
    'semantic-duplication',
    'context-truncation',
    'blocks-transmitted-to-provider',
  ],
  hashes: 'guessable-pseudonyms-not-anonymization',
  evaluation: 'static-no-execution-no-network',
  disclosure: 'owner-review-required',
} as const;

export interface DupesRecord {
  schema: typeof DUPES_SCHEMA;
  /** The block-contract suite this record is evaluated under. */
  suite: 'v1';
  adapter: AdapterName | null;
  /** The rule that turned the input into blocks, or null when the input was refused before one applied. */
  mapping: MappingName | null;
  tokenizer: typeof WHITESPACE_TOKENIZER;
  hash: 'sha256';
  result: DupesResult;
  reason: ReasonCode | null;
  /** Where an `unknown` came from: codes and indices only. Null for pass and fail. */
  detail: RefusalDetail | null;
  /** Content out of measurement scope (non-text parts, media), counted. */
  ignoredParts: number;
  /** Request logs: records that could not be read. Always 0 for envelopes. */
  skippedRecords: number;
  blocks: MeasuredBlock[];
  duplicates: DuplicateGroup[];
  totals: DupesTotals;
  claims: typeof DUPES_CLAIMS;
}

const EMPTY_TOTALS: DupesTotals = { blocks: 0, bytes: 0, tokens: 0, duplicateBlocks: 0, wastedBytes: 0, wastedTokens: 0 };

export interface RecordOptions {
  /** Records of a request log that could not be read: a run without duplicates is then `unknown`, not `pass`. */
  skippedRecords?: number;
  /** The outcome's blocks measured already, in their order (a `BlockMeasurer` run in slices); else measured here. */
  measured?: Measurement;
}

/**
 * Outcome → record. Verdict: a refusal or zero blocks is `unknown`; any duplicate is `fail` (even when some
 * records were skipped — the copies found are real); no duplicate is `pass` only when nothing was skipped.
 */
export function buildDupesRecord(outcome: SourceOutcome, options: RecordOptions = {}): DupesRecord {
  const skippedRecords = options.skippedRecords ?? 0;
  const labels = (adapter: AdapterName | null, mapping: MappingName | null) =>
    ({ schema: DUPES_SCHEMA, suite: 'v1', adapter, mapping, tokenizer: WHITESPACE_TOKENIZER, hash: 'sha256' }) as const;
  if (!outcome.ok) {
    return {
      ...labels(outcome.adapter, outcome.mapping),
      result: 'unknown',
      reason: outcome.refusal.reason,
      detail: outcome.refusal.detail,
      ignoredParts: 0,
      skippedRecords,
      blocks: [],
      duplicates: [],
      totals: { ...EMPTY_TOTALS },
      claims: DUPES_CLAIMS,
    };
  }
  const { adapter, mapping, blocks, ignoredParts } = outcome.source;
  const measured = options.measured ?? measureBlocks(blocks);
  let result: DupesResult;
  let reason: ReasonCode | null = null;
  let detail: RefusalDetail | null = null;
  if (measured.totals.blocks === 0) {
    result = 'unknown';
    reason = 'NO_BLOCKS';
    detail = skippedRecords > 0 ? { skippedRecords } : {};
  } else if (measured.duplicates.length > 0) {
    result = 'fail';
  } else if (skippedRecords > 0) {
    result = 'unknown';
    reason = 'INCOMPLETE_INPUT';
    detail = { skippedRecords };
  } else {
    result = 'pass';
  }
  return {
    ...labels(adapter, mapping),
    result,
    reason,
    detail,
    ignoredParts,
    skippedRecords,
    ...measured,
    claims: DUPES_CLAIMS,
  };
}

/** The contract's exit codes: 0 pass, 1 fail, 2 unknown. */
export function exitCodeOf(result: DupesResult): 0 | 1 | 2 {
  return result === 'pass' ? 0 : result === 'fail' ? 1 : 2;
}

/**
 * The default JSON view: two-space indentation, except that each entry of `blocks` and `duplicates` is one compact
 * line — a resent-history log has a hundred thousand blocks, and one line per block keeps the record readable and
 * about a third the size of fully indented JSON. Ends with one newline.
 */
export function dupesRecordJson(record: DupesRecord): string {
  const lines: string[] = [];
  const entries = Object.entries(record);
  entries.forEach(([key, value], i) => {
    const comma = i < entries.length - 1 ? ',' : '';
    const name = JSON.stringify(key);
    if (Array.isArray(value) && (key === 'blocks' || key === 'duplicates') && value.length > 0) {
      // Entries hold numbers, hashes and fixed names only, so "},{" + the first key marks an entry boundary.
      const firstKey = key === 'blocks' ? '{"index":' : '{"hash":';
      const compact = JSON.stringify(value);
      const body = compact.slice(1, -1).split(`},${firstKey}`).join(`},\n    ${firstKey}`);
      lines.push(`  ${name}: [\n    ${body}\n  ]${comma}`);
    } else {
      lines.push(`  ${name}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}${comma}`);
    }
  });
  return `{\n${lines.join('\n')}\n}\n`;
}
