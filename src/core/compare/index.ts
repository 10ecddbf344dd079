// Comparing two analyses (`ctxray compare`, the app's "compare with"): records in, figures before → after out.
export { compareSideOf, CompareInputError, isAnalysisRecordHead, RECORD_HEAD_BYTES, type CompareSide } from './side.ts';
export {
  change,
  compareSides,
  COMPARE_METRICS,
  metricOf,
  worseMetrics,
  type CategoryRow,
  type Change,
  type CompareMetric,
  type Comparison,
  type FindingRow,
  type MetricRow,
  type MissRow,
  type Unit,
  type Verdict,
} from './compare.ts';
export { COMPARE_SCHEMA, compareRecord, type CompareRecord, type SideRecord } from './record.ts';

import { compareSides, type Comparison } from './compare.ts';
import { compareSideOf, type CompareSide } from './side.ts';

/** Two analysis records (parsed JSON) compared: their sides and the comparison; throws CompareInputError. */
export function compareRecords(before: unknown, after: unknown): { before: CompareSide; after: CompareSide; comparison: Comparison } {
  const b = compareSideOf(before, 'before');
  const a = compareSideOf(after, 'after');
  return { before: b, after: a, comparison: compareSides(b, a) };
}
