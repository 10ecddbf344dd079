// The versioned JSON record of a comparison (`ctxray compare --json`), described by docs/compare.schema.json.
// Figures, codes and the two records' versions only: no file names, no payload text.
import type { Comparison } from './compare.ts';
import type { CompareSide } from './side.ts';

export const COMPARE_SCHEMA = 'ctxray.compare/1';

export interface SideRecord {
  generatedBy: string;
  pricedOn: string;
  requests: number;
  sessions: number | null;
  /** Where the finding counts come from: every located finding, or a folder's costliest codes (summary). */
  findingsSource: CompareSide['findingsSource'];
  /** Requests whose cost is recorded usage and those the simulation priced. */
  basis: { recordedRequests: number; simulatedRequests: number } | null;
}

const sideRecord = (side: CompareSide): SideRecord => ({
  generatedBy: side.generatedBy,
  pricedOn: side.pricedOn,
  requests: side.requests,
  sessions: side.sessions,
  findingsSource: side.findingsSource,
  basis: side.cost === null ? null : { recordedRequests: side.cost.recordedRequests, simulatedRequests: side.cost.simulatedRequests },
});

/** The record `ctxray compare --json` writes and the app exports: the two sides, then the comparison's rows. */
export interface CompareRecord extends Comparison {
  schema: typeof COMPARE_SCHEMA;
  generatedBy: string;
  before: SideRecord;
  after: SideRecord;
}

export function compareRecord(options: { generatedBy: string; before: CompareSide; after: CompareSide; comparison: Comparison }): CompareRecord {
  return {
    schema: COMPARE_SCHEMA,
    generatedBy: options.generatedBy,
    before: sideRecord(options.before),
    after: sideRecord(options.after),
    ...options.comparison,
  };
}
