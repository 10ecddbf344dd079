// Analysis entry point and its JSON record.
export { analyzeInput, analyzeRead } from './analyze.ts';
export type { AnalyzeOptions } from './analyze.ts';
export { ANALYSIS_SCHEMA, RECORD_SECTIONS, buildRecord } from './record.ts';
export type { ErrorRecord, FileRecord, RecordSection, RequestRecord, SegmentRecord } from './record.ts';
export type { Analysis, AnalysisFile, ModelUse, ResolvedModel, TokenTotals } from './types.ts';
export { CTXRAY_VERSION, GENERATED_BY } from './version.ts';
