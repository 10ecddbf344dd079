// Batch output files: each output's recorded usage goes to the input request with its custom_id.
import type { ParsedRequest, ReadError } from '../model.ts';
import type { PendingOutput } from './read-state.ts';
import type { FileSummary } from './read-types.ts';
import { recordedUsage } from './usage.ts';
import { checkedRecordedUsage } from './usage-check.ts';
import type { TextStore } from '../text/store.ts';
import { WIRE_IMPORTERS } from '../formats/wire.ts';
import { note } from '../formats/notes.ts';

/**
 * Attach batch output usage to the input requests with the same custom_id; report outputs that match nothing. A
 * read of output files alone (no request at all) makes each output with usage a usage-only request instead.
 */
export function attachBatchOutputs(
  requests: ParsedRequest[],
  outputs: PendingOutput[],
  outputFiles: Set<number>,
  report: ErrorReport & { store: TextStore },
): void {
  if (outputs.length === 0 && outputFiles.size === 0) return;
  if (requests.length === 0) {
    usageOnlyOutputs(requests, outputs, report);
    return;
  }
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

/**
 * Batch outputs read without their input: each one with usage is a request with no body (`usage_only`), its model
 * and recorded usage, priced at Batch API prices, so the figures the results record (calls, tokens, cost) are shown.
 */
function usageOnlyOutputs(requests: ParsedRequest[], outputs: readonly PendingOutput[], report: ErrorReport & { store: TextStore }): void {
  for (const output of outputs) {
    const body = output.format === 'openai-responses' ? { model: output.model, input: [] } : { model: output.model, messages: [] };
    const request = WIRE_IMPORTERS[output.format](body, { store: report.store, file: output.file, line: output.line, index: requests.length });
    // Checked as the usage an output gives a matched input request is: an impossible value is rejected and noted.
    request.recorded = checkedRecordedUsage(request, output.usage, (usage) => recordedUsage(usage, output.format));
    // An output with no usage (errored, canceled, expired) was no billed call.
    if (request.recorded === null && request.rejectedUsage === undefined) continue;
    request.notes.push(note('usage_only'));
    request.customId = output.customId;
    request.timestamp = output.timestamp;
    request.batch = true;
    requests.push(request);
    const summary = report.summaries[output.file];
    if (summary) {
      summary.requests++;
      summary.format ??= output.format;
    }
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
