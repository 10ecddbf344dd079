// The versioned JSON record of an analysis (`--json`), described by docs/analysis.schema.json.
// It carries counts, codes, JSON paths and hashes only: never request text, tool names or ids, and file names only
// as paths relative to the folder given (sessions[].file), never absolute ones.
import type { DroppedCalls } from '../input/seen-calls.ts';
import { unrecordedParts, type UnrecordedPart } from '../cache/unrecorded-setup.ts';
import { recordedPromptTokens, type CacheMarker, type Category, type ParsedRequest, type RecordedUsage, type WireFormat } from '../model.ts';
import type { OverheadTokens, RequestTokens, Tokenizer } from '../tokens/counter.ts';
import type { Analysis, AnalysisFile, ModelUse, ResolvedModel } from './types.ts';
import {
  costTotalsRecord,
  findingsRecord,
  missesRecord,
  nearDuplicatesRecord,
  requestCacheRecord,
  type RequestCacheRecord,
} from '../cache/record.ts';
import { sessionsRecord, summaryRecord, transcriptsRecord } from '../transcripts/index.ts';
import { isoTime } from '../transcripts/time.ts';

export const ANALYSIS_SCHEMA = 'ctxray.analysis/2';

export interface SegmentRecord {
  category: Category;
  path: string;
  tokens: number;
  bytes: number;
  hash: string;
  cacheMarker: CacheMarker['ttl'] | null;
}

export interface RequestRecord {
  index: number;
  line: number;
  file: number;
  format: WireFormat;
  model: string | null;
  modelSource: ResolvedModel['source'];
  modelKnown: boolean;
  pricedAs: string | null;
  /** Sent through a Batch API: priced at half the list price. Present only then. */
  batch?: true;
  tokens: {
    total: number;
    exact: boolean;
    /** Claude: the estimate's relative half-width where its shape misses the held-out target (RequestTokens.band). */
    band?: number;
    tokenizer: Tokenizer;
    byCategory: Partial<Record<Category, number>>;
    overhead: OverheadTokens & { total: number };
  };
  segments: SegmentRecord[];
  notes: string[];
  /** What `tokens.byCategory.setup_inferred` stands for (unrecorded-setup.ts); empty where the log records it all. */
  unrecorded: UnrecordedPart[];
  recorded: (RecordedUsage & { prompt: number }) | null;
  /** When the request was sent (ISO 8601, UTC), when the log records it. */
  timestamp: string | null;
}

/** A file as the record names it: by its index, never by its name. */
export interface FileRecord extends Pick<AnalysisFile, 'format' | 'envelope' | 'layout' | 'records' | 'requests' | 'errors' | 'totals'> {
  index: number;
}

export interface ErrorRecord {
  file: number;
  line: number;
  message: string;
}

/** One top-level key of the record. Returning undefined leaves the key out (an optional section). */
export type RecordSection = (analysis: Analysis) => unknown;

/**
 * The record's sections after `schema`, `generatedBy` and `pricedOn`, in output order. Adding a section
 * (cache, conversations, findings) is one line here plus its part of docs/analysis.schema.json.
 */
export const RECORD_SECTIONS: ReadonlyArray<readonly [key: string, build: RecordSection]> = [
  ['files', filesSection],
  ['models', modelsSection],
  ['totals', (analysis) => (analysis.cache ? { ...analysis.totals, cost: costTotalsRecord(analysis.cache) } : analysis.totals)],
  ['calibration', (analysis) => analysis.calibration],
  ['calibrationRefused', (analysis) => analysis.calibrationRefused],
  ['usageWarnings', (analysis) => analysis.usageWarnings?.map((w) => ({ file: w.file, line: w.line, request: w.request, field: w.field, value: w.value, reason: w.reason }))],
  ['requests', requestsSection],
  ['findings', (analysis) => (analysis.cache ? findingsRecord(analysis.cache) : undefined)],
  ['misses', (analysis) => (analysis.cache ? missesRecord(analysis.cache) : undefined)],
  ['nearDuplicates', (analysis) => (analysis.cache ? nearDuplicatesRecord(analysis.cache) : undefined)],
  ['nearDuplicatesCut', (analysis) => (analysis.cache?.nearDuplicatesCut ? { ...analysis.cache.nearDuplicatesCut } : undefined)],
  ['transcripts', transcriptsRecord],
  ['summary', summaryRecord],
  ['sessions', sessionsRecord],
  ['duplicates', (analysis) => duplicatesRecord(analysis.duplicateCalls ?? [])],
  ['errors', errorsSection],
];

/** Calls dropped as copies of calls counted in an earlier file: how many, and how many per file (by index). */
export function duplicatesRecord(dropped: readonly DroppedCalls[]): { calls: number; byFile: DroppedCalls[] } | undefined {
  if (dropped.length === 0) return undefined;
  return { calls: dropped.reduce((sum, d) => sum + d.calls, 0), byFile: dropped.map((d) => ({ file: d.file, calls: d.calls })) };
}

export function buildRecord(
  analysis: Analysis,
  sections: ReadonlyArray<readonly [string, RecordSection]> = RECORD_SECTIONS,
): Record<string, unknown> {
  const record: Record<string, unknown> = {
    schema: ANALYSIS_SCHEMA,
    generatedBy: analysis.generatedBy,
    pricedOn: analysis.pricedOn,
  };
  for (const [key, build] of sections) {
    const value = build(analysis);
    if (value !== undefined) record[key] = value;
  }
  return record;
}

function filesSection(analysis: Analysis): FileRecord[] {
  return analysis.files.map(fileRecord);
}

/** A file's entry in the record (its name is never written). */
export function fileRecord(file: AnalysisFile, index: number): FileRecord {
  return {
    index,
    format: file.format,
    envelope: file.envelope,
    layout: file.layout,
    records: file.records,
    requests: file.requests,
    errors: file.errors,
    totals: file.totals,
  };
}

function modelsSection(analysis: Analysis): ModelUse[] {
  return analysis.modelUse;
}

function requestsSection(analysis: Analysis): (RequestRecord | (RequestRecord & RequestCacheRecord))[] {
  return analysis.requests.map((request, i) => {
    const tokens = analysis.tokens[i];
    const model = analysis.models[i];
    if (!tokens || !model) throw new Error(`analysis is missing token counts for request ${i}`);
    const base = requestRecord(request, tokens, model);
    return analysis.cache ? { ...base, ...requestCacheRecord(analysis.cache, i) } : base;
  });
}

export function requestRecord(request: ParsedRequest, tokens: RequestTokens, model: ResolvedModel): RequestRecord {
  return {
    index: request.index,
    line: request.line,
    file: request.file,
    format: request.format,
    model: model.id,
    modelSource: model.source,
    modelKnown: model.pricing !== null,
    pricedAs: model.pricing?.id ?? null,
    ...(request.batch === true && { batch: true as const }),
    tokens: {
      total: tokens.total,
      exact: tokens.exact,
      ...(tokens.band === undefined ? {} : { band: tokens.band }),
      tokenizer: tokens.tokenizer,
      byCategory: tokens.byCategory,
      overhead: { ...tokens.overhead, total: tokens.overheadTotal },
    },
    segments: request.segments.map((segment, s) => ({
      category: segment.category,
      path: segment.path,
      tokens: tokens.segments[s] ?? 0,
      bytes: segment.bytes,
      hash: segment.hash,
      cacheMarker: segment.cacheMarker?.ttl ?? null,
    })),
    notes: noteCodes(request, tokens),
    unrecorded: unrecordedParts(request),
    recorded: request.recorded ? { ...request.recorded, prompt: recordedPromptTokens(request.recorded) } : null,
    timestamp: isoTime(request.timestamp),
  };
}

/** Fixed codes only: the request's notes (never their messages), token-count notes, unknown shapes. */
function noteCodes(request: ParsedRequest, tokens: RequestTokens): string[] {
  const codes = new Set<string>(request.notes.map((note) => note.code));
  for (const code of tokens.notes) codes.add(code);
  if (request.unknownShapes.length > 0) codes.add('unknown_shapes');
  return [...codes].sort();
}

function errorsSection(analysis: Analysis): ErrorRecord[] {
  return analysis.errors.map((error) => ({ file: error.file, line: error.line, message: error.message }));
}
