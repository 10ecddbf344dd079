// Worker side of the Duplicates panel: the ctxray.dupes/1 record for the loaded input, or for a file dropped on
// the panel (an envelope, an adapter envelope, a ConeReplay trace or another log). Text-free answer.
import { dupesRecordForRequests, dupesRecordForRequestsInSlices, evaluateDupesInput, type DupesRecord } from '../../core/dupes/index.ts';
import type { Conversations } from '../../core/cache/conversations.ts';
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

/** The cache analysis's conversations, when it ran: the record reuses them instead of finding them again. */
function conversationsOf(session: WorkerSession): Conversations | undefined {
  const found = session.sections['conversations'] as Conversations | undefined;
  return found !== undefined && found.conversationOf.length === session.requests.length ? found : undefined;
}

/** Blocks measured between two yields to the worker's queue: a few ms of hashing, so queries wait no longer. */
const SLICE_BLOCKS = 1000;

const yieldToQueue = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Starts measuring the loaded log's record in the background (slices, yielding to the page's questions between
 * them), so a first visit to the Duplicates panel finds it ready. A file-only input (an envelope opened as the
 * main input, no requests) is measured on demand instead. `signal` stops it when the session is replaced.
 */
export function precomputeDupes(session: WorkerSession, signal: AbortSignal): void {
  if (session.requests.length === 0) return;
  const pending = dupesRecordForRequestsInSlices(session.requests, readErrorCount(session.analysis), {
    conversations: conversationsOf(session),
    sliceBlocks: SLICE_BLOCKS,
    pause: yieldToQueue,
    signal,
  });
  // A replaced session's measurement stops; nobody waits for it.
  pending.catch(() => undefined);
  session.dupes = pending;
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
        : await (session.dupes ?? dupesRecordForRequests(session.requests, readErrorCount(session.analysis), conversationsOf(session)));
  }
  return { source, record };
}
