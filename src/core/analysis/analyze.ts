// The analysis entry point: read the files, resolve each request's model, count tokens once per distinct text,
// and total them per file and overall; then the cache analysis (conversations, simulation, findings) on top.
import { readRequests, type InputFile, type InputLimits, type ReadProgress, type ReadResult } from '../input/index.ts';
import type { WireFormat } from '../model.ts';
import { PRICED_ON } from '../pricing/table.ts';
import { withCacheAnalysis } from './attach.ts';
import { TokenCounter } from '../tokens/counter.ts';
import { modelUseOf, resolveModel } from './models.ts';
import { addRequest, emptyTotals } from './totals.ts';
import type { PriceOverrides } from '../pricing/overrides.ts';
import type { SeenCalls } from '../input/seen-calls.ts';
import type { Analysis, AnalysisFile, ResolvedModel } from './types.ts';
import { GENERATED_BY } from './version.ts';

export interface AnalyzeOptions {
  format?: WireFormat | 'auto';
  /** Price and tokenize every request as this model id instead of the one it names. */
  model?: string | null;
  /** Negotiated rates (`--prices`), validated: they replace the table's for the models they name. */
  prices?: PriceOverrides | null;
  /** API calls counted by earlier reads (a folder's sessions), so a copy of one is dropped (input/seen-calls.ts). */
  seenCalls?: SeenCalls;
  signal?: AbortSignal;
  onProgress?: (progress: ReadProgress) => void;
  /** Lower input limits than the defaults (the web worker's tab holds far less than the CLI's process). */
  limits?: Partial<InputLimits>;
}

/** How many requests are counted between abort checks. */
const ABORT_CHECK_INTERVAL = 256;

export async function analyzeInput(files: InputFile[], options: AnalyzeOptions = {}): Promise<Analysis> {
  const read = await readRequests(files, {
    ...(options.format !== undefined && { format: options.format }),
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.onProgress !== undefined && { onProgress: options.onProgress }),
    ...(options.limits !== undefined && { limits: options.limits }),
    ...(options.seenCalls !== undefined && { seenCalls: options.seenCalls }),
  });
  const analysis = await analyzeRead(
    read,
    files.map((file) => file.name),
    options,
  );
  files.forEach((file, i) => {
    const target = analysis.files[i];
    if (target && file.folderPath !== undefined) target.folderPath = file.folderPath;
  });
  return analysis;
}

/** The analysis of requests already read (the pure half of analyzeInput; tests build ReadResults by hand). */
export async function analyzeRead(read: ReadResult, fileNames: readonly string[], options: AnalyzeOptions = {}): Promise<Analysis> {
  const override = options.model === undefined || options.model === '' ? null : options.model;
  const models = read.requests.map((request) => resolveModel(request, override, options.prices ?? null));
  // Tokenized as the model the id resolves to (`anthropic/claude-opus-4.7` counts as claude-opus-4-7).
  const tokenizeAs = (model: ResolvedModel | undefined): string | null => model?.pricing?.id ?? model?.id ?? null;
  const counter = new TokenCounter();
  await counter.prepare(read.requests, (request) => tokenizeAs(models[request.index]) ?? request.model);

  const files: AnalysisFile[] = fileNames.map((name, i) => {
    const summary = read.files[i];
    return {
      name,
      format: summary?.format ?? null,
      envelope: summary?.envelope ?? 'none',
      layout: summary?.layout ?? null,
      records: summary?.records ?? 0,
      requests: summary?.requests ?? 0,
      errors: summary?.errors ?? 0,
      totals: emptyTotals(),
      ...(summary?.session !== undefined && { session: summary.session }),
    };
  });
  const totals = emptyTotals();
  const tokens = read.requests.map((request, i) => {
    if (i % ABORT_CHECK_INTERVAL === 0) options.signal?.throwIfAborted();
    const counted = counter.count(request, tokenizeAs(models[i]));
    addRequest(totals, counted);
    const file = files[request.file];
    if (file) addRequest(file.totals, counted);
    return counted;
  });

  options.signal?.throwIfAborted();
  return withCacheAnalysis({
    generatedBy: GENERATED_BY,
    pricedOn: PRICED_ON,
    files,
    requests: read.requests,
    models,
    tokens,
    segmentTokens: tokens.map((t) => t.segments),
    overheadTokens: tokens.map((t) => t.overheadTotal),
    totals,
    modelUse: modelUseOf(models),
    errors: read.errors,
    distinctTexts: read.distinctTexts,
    ...(read.usageWarnings !== undefined && read.usageWarnings.length > 0 && { usageWarnings: read.usageWarnings }),
    ...(read.duplicateCalls !== undefined && read.duplicateCalls.length > 0 && { duplicateCalls: read.duplicateCalls }),
  });
}
