// The app's "compare with": two sides, each the session on screen, files (a log, or one saved `analyze --json`
// record) or a folder's files, made into analysis records the way `ctxray compare` makes them (analysed as
// `analyze --json` does, with its default usage calibration; a folder's record as `analyze <folder> --json`
// writes it), then compared by src/core/compare. The answer is the ctxray.compare/1 record the CLI writes.
import { usageCalibratedAnalysis } from '../../core/analysis/attach.ts';
import { analyzeInput } from '../../core/analysis/analyze.ts';
import { buildRecord } from '../../core/analysis/record.ts';
import type { Analysis } from '../../core/analysis/types.ts';
import { unreadableFiles } from '../../core/analysis/unreadable.ts';
import { GENERATED_BY } from '../../core/analysis/version.ts';
import { CompareInputError, compareRecord, compareSideOf, compareSides, isAnalysisRecordHead, RECORD_HEAD_BYTES, type CompareRecord } from '../../core/compare/index.ts';
import { emptyFolder, folderRecord } from '../../core/folder/index.ts';
import { InputError, WorkLimitError } from '../../core/input/index.ts';
import { PRICED_ON } from '../../core/pricing/table.ts';
import { APP_LIMITS } from '../limits.ts';
import { analyzeFolder } from '../folder.ts';
import type { InputBlob } from '../inputs.ts';
import { QueryError, requireSession, type WorkerSession } from '../session.ts';

/** One side: the analysed input on screen, files to analyse (or one saved record to read), or a folder's files. */
export type CompareSideInput = { kind: 'session' } | { kind: 'files'; inputs: InputBlob[] } | { kind: 'folder'; inputs: InputBlob[] };

export interface CompareParams {
  before: CompareSideInput;
  after: CompareSideInput;
}

export interface CompareAnswer {
  record: CompareRecord;
}

const isBlobInput = (value: unknown): value is InputBlob =>
  typeof value === 'object' && value !== null && typeof (value as InputBlob).name === 'string' && (value as InputBlob).blob instanceof Blob;

function checkSide(value: unknown, which: string): CompareSideInput {
  const side = value as { kind?: unknown; inputs?: unknown } | null;
  if (typeof side !== 'object' || side === null) throw new QueryError(`compare: \`${which}\` must be an object.`);
  if (side.kind === 'session') return { kind: 'session' };
  if (side.kind !== 'files' && side.kind !== 'folder') throw new QueryError(`compare: \`${which}.kind\` must be session, files or folder.`);
  if (!Array.isArray(side.inputs) || side.inputs.length === 0 || !side.inputs.every(isBlobInput)) {
    throw new QueryError(`compare: \`${which}.inputs\` must be a non-empty list of { name, blob }.`);
  }
  return { kind: side.kind, inputs: side.inputs };
}

const nameOf = (inputs: readonly InputBlob[]): string => (inputs.length === 1 && inputs[0] ? inputs[0].name : `${inputs.length} files`);

/** The record of an analysis as `analyze --json` writes it: calibrated on its recorded usage, as the CLI's default. */
const analysisRecord = (analysis: Analysis): unknown => buildRecord(usageCalibratedAnalysis(analysis).analysis);

/** A saved record as it is, or a log analysed; an input nothing could be read from is refused, located. */
async function filesRecord(inputs: InputBlob[], signal: AbortSignal): Promise<unknown> {
  const [only] = inputs;
  if (inputs.length === 1 && only && isAnalysisRecordHead(await only.blob.slice(0, RECORD_HEAD_BYTES).text())) {
    try {
      return JSON.parse(await only.blob.text()) as unknown;
    } catch (error) {
      throw new QueryError(`${only.name}: not a readable analysis record: ${(error as Error).message}`);
    }
  }
  const files = inputs.map((input) => ({ name: input.name, bytes: input.blob.stream(), size: input.blob.size }));
  let analysis: Analysis;
  try {
    analysis = await analyzeInput(files, { signal, limits: APP_LIMITS });
  } catch (error) {
    if (signal.aborted || !(error instanceof InputError)) throw error;
    const name = inputs[error instanceof WorkLimitError ? error.file : 0]?.name ?? nameOf(inputs);
    throw new QueryError(`${name}${error.line > 0 ? `, line ${error.line}` : ''}: ${error.message}`);
  }
  const unreadable = unreadableFiles(analysis);
  if (unreadable.length > 0) throw new QueryError(`Unreadable input: ${unreadable.slice(0, 5).join('; ')}${unreadable.length > 5 ? ` (and ${unreadable.length - 5} more)` : ''}`);
  if (analysis.requests.length === 0) throw new QueryError(`${nameOf(inputs)}: no request could be read.`);
  return analysisRecord(analysis);
}

async function folderSideRecord(inputs: InputBlob[], signal: AbortSignal): Promise<unknown> {
  const folder = emptyFolder(GENERATED_BY, PRICED_ON);
  const view = await analyzeFolder(inputs, { signal, onProgress: () => undefined, limits: APP_LIMITS, into: folder });
  if (view.sessions.length === 0) throw new QueryError(`The folder holds no session with a request${view.skipped[0] ? ` (${view.skipped.slice(0, 3).join('; ')})` : ''}.`);
  return folderRecord(folder);
}

function sideRecord(side: CompareSideInput, session: WorkerSession | null, signal: AbortSignal): Promise<unknown> | unknown {
  if (side.kind === 'session') return analysisRecord(requireSession(session).analysis as Analysis);
  return side.kind === 'files' ? filesRecord(side.inputs, signal) : folderSideRecord(side.inputs, signal);
}

const sideName = (side: CompareSideInput, session: WorkerSession | null): string =>
  side.kind === 'session' ? nameOf(session?.inputs ?? []) : nameOf(side.inputs);

/** Compares two sides; the worker's session (the input on screen) is read, never replaced. */
export async function compareQuery(session: WorkerSession | null, params: unknown, signal: AbortSignal): Promise<CompareAnswer> {
  const given = (params ?? {}) as { before?: unknown; after?: unknown };
  const before = checkSide(given.before, 'before');
  const after = checkSide(given.after, 'after');
  const records = { before: await sideRecord(before, session, signal), after: await sideRecord(after, session, signal) };
  signal.throwIfAborted();
  try {
    const sides = { before: compareSideOf(records.before, sideName(before, session)), after: compareSideOf(records.after, sideName(after, session)) };
    return { record: compareRecord({ generatedBy: GENERATED_BY, ...sides, comparison: compareSides(sides.before, sides.after) }) };
  } catch (error) {
    if (error instanceof CompareInputError) throw new QueryError(error.message);
    throw error;
  }
}
