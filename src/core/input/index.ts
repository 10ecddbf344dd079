// Public entry of input reading: files (bytes or streams) → ParsedRequest[] + located errors.
// Pipeline per file: raw chunks → gunzip → text lines → JSON records → envelope → wire importer (or a whole-file
// transcript importer). JSONL is processed record by record and never needs the file's whole text.

//
// One file is read by file-reader.ts (request logs through wire-records.ts); the files' shared state is in
// read-state.ts, the public shapes in read-types.ts.

import type { ParsedRequest, ReadError } from '../model.ts';
import { TRANSCRIPT_IMPORTERS } from '../formats/registry.ts';
import { TextStore } from '../text/store.ts';
import { attachBatchOutputs, reportFileError } from './batch-outputs.ts';
import { WorkBudget } from './budget.ts';
import { isOutputKind, type EnvelopeKind } from './envelope.ts';
import { FileReader } from './file-reader.ts';
import { resolveLimits } from './limits.ts';
import { EventLoopTurns, type PendingOutput } from './read-state.ts';
import type { FileSummary, InputFile, ReadOptions, ReadResult } from './read-types.ts';
import { ResentJsonParser } from './resent-json.ts';
import { rejectImpossibleUsage } from './usage-check.ts';
import { SeenCalls } from './seen-calls.ts';
import { linkSubagents } from './subagent-links.ts';

export { DEFAULT_LIMITS, type InputLimits } from './limits.ts';
export { InputError, WorkLimitError, type WorkLimitCode } from './errors.ts';
export type { FileSummary, InputFile, ReadOptions, ReadProgress, ReadResult } from './read-types.ts';

export async function readRequests(files: InputFile[], options: ReadOptions = {}): Promise<ReadResult> {
  const limits = resolveLimits(options.limits);
  const store = new TextStore();
  const resent = new ResentJsonParser();
  const requests: ParsedRequest[] = [];
  const errors: ReadError[] = [];
  const summaries: FileSummary[] = [];
  const outputs: PendingOutput[] = [];
  const outputFiles = new Set<number>();
  const turns = new EventLoopTurns();
  const budget = new WorkBudget(limits, store);
  const companions = new Map<string, unknown>();
  const readFiles = files.map((file) => file.name);
  const seenCalls = options.seenCalls ?? new SeenCalls();
  for (let f = 0; f < files.length; f++) {
    const reader = new FileReader(files[f]!, f, { readFiles, limits, store, resent, requests, errors, outputs, options, turns, budget, companions, seenCalls });
    const summary = await reader.read();
    if (isOutputKind(summary.envelope as EnvelopeKind)) outputFiles.add(f);
    summaries.push(summary);
  }
  const report = { errors, summaries };
  attachBatchOutputs(requests, outputs, outputFiles, { ...report, store });
  for (const importer of options.transcriptImporters ?? TRANSCRIPT_IMPORTERS) {
    for (const error of importer.finishRead?.(companions) ?? []) reportFileError(report, error);
  }
  linkSubagents(summaries);
  requests.forEach((request, i) => {
    request.index = i;
  });
  const usageWarnings = rejectImpossibleUsage(requests);
  return { requests, errors, files: summaries, distinctTexts: store.distinctTexts, usageWarnings, duplicateCalls: seenCalls.takeDropped() };
}

export { linkSubagents };
