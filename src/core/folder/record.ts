// The JSON record of a folder read one session at a time (schema ctxray.analysis/2, docs/analysis.schema.json):
// the sections a folder's sums give — files, models, totals with cost, misses by cause, the summary, sessions[] and
// unreadable records — with `requests` empty (per-request rows are what bounded memory leaves out; `folder` says
// how many there were) and no per-request sections (findings with request indices, near-duplicates, the
// per-request agreement). A session's full record is that of its own file.
import { ANALYSIS_SCHEMA, duplicatesRecord } from '../analysis/record.ts';
import { sessionRecordRow, sessionTableOf } from '../transcripts/index.ts';
import { folderSummary, type FolderAnalysis } from './accumulate.ts';

export function folderRecord(folder: FolderAnalysis): Record<string, unknown> {
  const record: Record<string, unknown> = {
    schema: ANALYSIS_SCHEMA,
    generatedBy: folder.generatedBy,
    pricedOn: folder.pricedOn,
    files: folder.files,
    models: folder.models,
    totals: folder.cost === null ? folder.totals : { ...folder.totals, cost: folder.cost },
    requests: [],
  };
  if (folder.cost !== null) record['misses'] = folder.misses;
  const summary = folderSummary(folder);
  if (summary !== null) record['summary'] = summary;
  if (folder.requests > 0) record['sessions'] = sessionTableOf(folder.parts).sessions.map(sessionRecordRow);
  const duplicates = duplicatesRecord(folder.duplicateCalls);
  if (duplicates !== undefined) record['duplicates'] = duplicates;
  record['errors'] = folder.errors.map((error) => ({ file: error.file, line: error.line, message: error.message }));
  record['folder'] = { analyses: folder.analyses, requests: folder.requests, calibrated: folder.calibrated };
  return record;
}
