// Library entry of the duplicate-context contract (docs/dupes.md).
export { evaluateDupesInput, evaluateDupesInputDetailed, dupesRecordForRequests, dupesRecordForRequestsInSlices, classifyDupesInput } from './evaluate.ts';
export type { DupesEvaluation, DupesInput, DupesInputKind, EvaluateOptions, SlicedOptions } from './evaluate.ts';
export { readEnvelopeBytes, readEnvelopeValue, SUITE } from './envelope.ts';
export { BlockMeasurer, measureBlocks } from './measure.ts';
export type { DuplicateGroup, DupesTotals, MeasuredBlock, Measurement } from './measure.ts';
export { buildDupesRecord, dupesRecordJson, exitCodeOf, DUPES_SCHEMA, DUPES_CLAIMS } from './record.ts';
export type { DupesRecord, DupesResult } from './record.ts';
export { dupesMarkdown } from './markdown.ts';
export { REASON_CODES, REASON_MEANINGS } from './codes.ts';
export type { ReasonCode, RefusalDetail } from './codes.ts';
export { ADAPTERS, MAPPINGS } from './types.ts';
export type { AdapterName, MappingName, BlockOrigin } from './types.ts';
export * from './limits.ts';
