// Batch output files: each output's recorded usage goes to the input request with its custom_id.
import type { ParsedRequest, ReadError } from '../model.ts';
import type { PendingOutput } from './read-state.ts';
import type { FileSummary } from './read-types.ts';
import { recordedUsage } from './usage.ts';
import { checkedRecordedUsage } from './usage-check.ts';

/** Attach batch output usage to the input requests with the same custom_id; report outputs that match nothing. */
export function attachBatchOutputs(
  requests: ParsedRequest[],
  outputs: PendingOutput[],
  outputFiles: Set<number>,
  report: ErrorReport,
): void {
  if (outputs.length === 0 && outputFiles.size === 0) return;
  const byId = new Map<string, ParsedRequest[]>();
  for (const request of requests) {
    if (request.customId === null) continue;
    const list = byId.get(request.customId);
    if (list) list.push(request);
    else byId.set(request.customId, [request]);
  }
  const unmatched = new Map<number, { count: number; firstLine: number }>();
  for (const output of outputs) {
    const matches = byId.get(output.customId);
    if (!matches) {
      const entry = unmatched.get(output.file) ?? { count: 0, firstLine: output.line };
      entry.count++;
      unmatched.set(output.file, entry);
      continue;
    }
    for (const request of matches) {
      if (request.recorded === null) request.recorded = checkedRecordedUsage(request, output.usage, (usage) => recordedUsage(usage, request.format));
    }
  }
  for (const [file, entry] of unmatched) {
    reportFileError(report, {
      file,
      line: entry.firstLine,
      message: `${entry.count} batch result${entry.count === 1 ? '' : 's'} with a custom_id that no request in the input files has (give the batch input file too)`,
    });
  }
}

/** A read's errors and its files' summaries, which count the errors of each file. */
export interface ErrorReport {
  errors: ReadError[];
  summaries: FileSummary[];
}

/** Records an error of a whole read and counts it in its file's summary. */
export function reportFileError(report: ErrorReport, error: ReadError): void {
  report.errors.push(error);
  const summary = report.summaries[error.file];
  if (summary) summary.errors++;
}
