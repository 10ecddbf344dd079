// Worker side of the Duplicates panel: the ctxray.dupes/1 record for the loaded input, or for a file dropped on
// the panel (an envelope, an adapter envelope, a ConeReplay trace or another log). Text-free answer.
import { dupesRecordForRequests, evaluateDupesInput, type DupesRecord } from '../../core/dupes/index.ts';
import { QueryError, type WorkerSession } from '../session.ts';

export interface DupesParams {
  /** A file to evaluate on its own; absent: the loaded input. */
  file?: Blob;
  /** Its name (only used to recognize `.gz`). */
  name?: string;
}

export interface DupesAnswer {
  /** Where the blocks came from: the analysis already loaded, or a file given to the panel. */
  source: 'loaded-input' | 'file';
  /** The full record; the page renders its JSON and markdown views only when the user saves one. */
  record: DupesRecord;
}

function readParams(params: unknown): DupesParams {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object') throw new QueryError('dupes takes an optional { file, name } param.');
  const { file, name } = params as { file?: unknown; name?: unknown };
  if (file !== undefined && !(file instanceof Blob)) throw new QueryError('dupes: `file` must be a File or Blob.');
  if (name !== undefined && typeof name !== 'string') throw new QueryError('dupes: `name` must be a string.');
  return { ...(file !== undefined && { file }), ...(name !== undefined && { name }) };
}

async function evaluateBlob(blob: Blob, name: string, signal: AbortSignal): Promise<DupesRecord> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  signal.throwIfAborted();
  return evaluateDupesInput({ name, bytes }, { signal });
}

function readErrorCount(analysis: unknown): number {
  const errors = typeof analysis === 'object' && analysis !== null ? (analysis as { errors?: unknown }).errors : undefined;
  return Array.isArray(errors) ? errors.length : 0;
}

export async function dupesQuery(session: WorkerSession | null, params: unknown, signal: AbortSignal): Promise<DupesAnswer> {
  const { file, name } = readParams(params);
  let record: DupesRecord;
  let source: DupesAnswer['source'];
  if (file !== undefined) {
    source = 'file';
    record = await evaluateBlob(file, name ?? (file instanceof File ? file.name : 'input'), signal);
  } else {
    if (session === null) throw new QueryError('Load an input, or drop an envelope on the Duplicates panel.');
    source = 'loaded-input';
    const single = session.inputs.length === 1 ? session.inputs[0] : undefined;
    // An envelope or trace opened as the main input yields no requests: evaluate its bytes under the contract.
    record =
      session.requests.length === 0 && single !== undefined
        ? await evaluateBlob(single.blob, single.name, signal)
        : dupesRecordForRequests(session.requests, readErrorCount(session.analysis));
  }
  return { source, record };
}
