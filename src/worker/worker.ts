/// <reference lib="webworker" />
// The analysis worker: reads and analyzes input off the main thread, keeps the result (with its text) as the
// session, and answers the page's queries. One analysis runs at a time; a new one replaces the session.
import { analyzeInput } from '../core/analysis/analyze.ts';
import type { InputFile } from '../core/input/index.ts';
import { QUERY_HANDLERS } from './handlers.ts';
import type { FromWorker, ProgressInfo, ToWorker, WorkerError } from './protocol.ts';
import { QueryError, type WorkerSession } from './session.ts';
import { buildView, sectionsOf } from './view.ts';
import { analyzeFolder } from './folder.ts';

declare const self: DedicatedWorkerGlobalScope;

/** Progress messages at most this often: a 500 MB file must not flood the page with messages. */
const PROGRESS_INTERVAL_MS = 80;

/**
 * Most bytes one file may decompress to in the app: 2 GiB instead of the CLI's 8 GiB. A browser tab has far less
 * memory and patience than a CLI process, and a gzip bomb must reach its limit in seconds, after which the page
 * replaces this worker (src/ui/app.ts). Larger logs are for `ctxray analyze`.
 */
const APP_MAX_DECOMPRESSED_BYTES = 2 * 1024 * 1024 * 1024;

let session: WorkerSession | null = null;
const running = new Map<number, AbortController>();

function post(message: FromWorker): void {
  self.postMessage(message);
}

function failure(error: unknown, signal: AbortSignal): WorkerError {
  if (signal.aborted) return { kind: 'cancelled', message: 'Cancelled.' };
  if (error instanceof QueryError) return { kind: 'unknown-query', message: error.message };
  // A work limit (LIMIT_RECORDS, …) is a refusal of the input like any other located input error.
  if (error instanceof Error && (error.name === 'InputError' || error.name === 'WorkLimitError')) return { kind: 'input', message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'internal', message: `Internal error in the analysis: ${message}` };
}

/** Posts progress for request `id`, at most every PROGRESS_INTERVAL_MS. */
function progressPoster(id: number): (progress: ProgressInfo) => void {
  let lastProgress = 0;
  return (progress) => {
    const now = performance.now();
    if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    post({ type: 'progress', id, progress });
  };
}

async function analyze(message: Extract<ToWorker, { type: 'analyze' }>, signal: AbortSignal): Promise<void> {
  const files: InputFile[] = message.inputs.map((input) => ({ name: input.name, bytes: input.blob.stream(), size: input.blob.size }));
  const onProgress = progressPoster(message.id);
  // Drop the previous session first so its memory can be reclaimed while the new input is read.
  session = null;
  const analysis = await analyzeInput(files, {
    ...(message.options.format !== undefined && { format: message.options.format }),
    ...(message.options.model !== undefined && { model: message.options.model }),
    signal,
    onProgress,
    limits: { maxDecompressedBytes: APP_MAX_DECOMPRESSED_BYTES },
  });
  signal.throwIfAborted();
  session = { requests: analysis.requests, sections: sectionsOf(analysis), analysis, inputs: message.inputs };
  post({ type: 'analyzed', id: message.id, view: buildView(analysis) });
}

/** A folder's table: the session on screen stays (the table opens sessions as new analyses). */
async function analyzeFolderMessage(message: Extract<ToWorker, { type: 'analyze-folder' }>, signal: AbortSignal): Promise<void> {
  const folder = await analyzeFolder(message.inputs, { signal, onProgress: progressPoster(message.id), limits: { maxDecompressedBytes: APP_MAX_DECOMPRESSED_BYTES } });
  signal.throwIfAborted();
  post({ type: 'folder-analyzed', id: message.id, folder });
}

async function query(message: Extract<ToWorker, { type: 'query' }>, signal: AbortSignal): Promise<void> {
  const handler = Object.hasOwn(QUERY_HANDLERS, message.name) ? QUERY_HANDLERS[message.name] : undefined;
  if (!handler) throw new QueryError(`Unknown query "${message.name}".`);
  const value = await handler(session, message.params, signal);
  post({ type: 'answer', id: message.id, value });
}

self.addEventListener('message', (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === 'cancel') {
    running.get(message.id)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(message.id, controller);
  const work =
    message.type === 'analyze'
      ? analyze(message, controller.signal)
      : message.type === 'analyze-folder'
        ? analyzeFolderMessage(message, controller.signal)
        : query(message, controller.signal);
  work
    .catch((error: unknown) => post({ type: 'failed', id: message.id, error: failure(error, controller.signal) }))
    .finally(() => running.delete(message.id));
});
