// Worker side of the Duplicates panel: the ctxray.dupes/1 record for the loaded input, or for a file dropped on
// the panel (an envelope, an adapter envelope, a ConeReplay trace or another log). Text-free answer. The record of
// a long log holds every block (56,000 at 28k requests): the page gets its verdict, totals and the groups it lists,
// and asks for the whole record as JSON or markdown only when the user saves it (`dupes-export`).
import {
  dupesMarkdown,
  dupesRecordForRequests,
  dupesRecordForRequestsInSlices,
  dupesRecordJson,
  evaluateDupesInput,
  type BlockOrigin,
  type DuplicateGroup,
  type DupesRecord,
} from '../../core/dupes/index.ts';
import type { Conversations } from '../../core/cache/conversations.ts';
import { QueryError, type WorkerSession } from '../session.ts';

export interface DupesParams {
  /** A file to evaluate on its own; absent: the loaded input. */
  file?: Blob;
  /** Its name (only used to recognize `.gz`). */
  name?: string;
}

/** Groups the panel lists; the saved record keeps every group. */
export const SHOWN_GROUPS = 200;

/** A listed group, with where its first block and its first copy sit. */
export interface ShownGroup extends DuplicateGroup {
  first: BlockOrigin | null;
  firstCopy: BlockOrigin | null;
}

export interface DupesAnswer {
  /** Where the blocks came from: the analysis already loaded, or a file given to the panel. */
  source: 'loaded-input' | 'file';
  /** The record's verdict, labels and totals: every field but the per-block list and the groups. */
  record: Omit<DupesRecord, 'blocks' | 'duplicates'>;
  /** How many groups (repeated content hashes) the record holds. */
  groupCount: number;
  /** The costliest groups first (`rankGroups`), at most SHOWN_GROUPS. */
  groups: ShownGroup[];
}

/** Groups that cost the most first: the table answers "what should I stop resending?". */
export function rankGroups(groups: readonly DuplicateGroup[]): DuplicateGroup[] {
  return [...groups].sort((a, b) => b.wastedBytes - a.wastedBytes || (a.indices[0] ?? 0) - (b.indices[0] ?? 0));
}

function answerOf(source: DupesAnswer['source'], full: DupesRecord): DupesAnswer {
  const { blocks, duplicates, ...record } = full;
  const originOf = (index: number | undefined): BlockOrigin | null => (index === undefined ? null : (blocks[index]?.origin ?? null));
  const groups = rankGroups(duplicates)
    .slice(0, SHOWN_GROUPS)
    .map((group) => ({ ...group, first: originOf(group.indices[0]), firstCopy: originOf(group.indices[1]) }));
  return { source, record, groupCount: duplicates.length, groups };
}

/** The last file checked on the panel, kept whole for `dupes-export` (the page holds its summary only). */
let lastFileRecord: DupesRecord | null = null;

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

/** The loaded input's whole record: measured in the background already, or now. */
async function loadedRecord(session: WorkerSession, signal: AbortSignal): Promise<DupesRecord> {
  const single = session.inputs.length === 1 ? session.inputs[0] : undefined;
  // An envelope or trace opened as the main input yields no requests: evaluate its bytes under the contract.
  if (session.requests.length === 0 && single !== undefined) return evaluateBlob(single.blob, single.name, signal);
  return session.dupes ?? dupesRecordForRequests(session.requests, readErrorCount(session.analysis), conversationsOf(session));
}

export async function dupesQuery(session: WorkerSession | null, params: unknown, signal: AbortSignal): Promise<DupesAnswer> {
  const { file, name } = readParams(params);
  if (file !== undefined) {
    const record = await evaluateBlob(file, name ?? (file instanceof File ? file.name : 'input'), signal);
    lastFileRecord = record;
    return answerOf('file', record);
  }
  if (session === null) throw new QueryError('Load an input, or drop an envelope on the Duplicates panel.');
  return answerOf('loaded-input', await loadedRecord(session, signal));
}

export interface DupesExportParams {
  /** The loaded input's record, or the last file checked on the panel. */
  of: DupesAnswer['source'];
  format: 'json' | 'markdown';
}

/** The whole record as the CLI writes it (`ctxray dupes --json` / markdown), for the panel's download buttons. */
export async function dupesExportQuery(session: WorkerSession | null, params: unknown, signal: AbortSignal): Promise<string> {
  const { of, format } = (typeof params === 'object' && params !== null ? params : {}) as Partial<DupesExportParams>;
  if ((of !== 'loaded-input' && of !== 'file') || (format !== 'json' && format !== 'markdown')) {
    throw new QueryError("dupes-export takes { of: 'loaded-input' | 'file', format: 'json' | 'markdown' }.");
  }
  let record: DupesRecord;
  if (of === 'file') {
    if (lastFileRecord === null) throw new QueryError('No file has been checked on the Duplicates panel.');
    record = lastFileRecord;
  } else {
    if (session === null) throw new QueryError('No input has been analyzed yet.');
    record = await loadedRecord(session, signal);
  }
  return format === 'json' ? dupesRecordJson(record) : dupesMarkdown(record);
}
