// The worker's message loop without the worker global: checks each message from the page, runs it, and posts
// exactly one reply per request (an answer, a view or a located failure). worker.ts wires it to `self`; the
// fuzzer (tests/fuzz) drives it with hostile messages in Node.
import { analyzeInput } from '../core/analysis/analyze.ts';
import { WIRE_IMPORTERS } from '../core/formats/wire.ts';
import { InputError, type InputFile } from '../core/input/index.ts';
import { QUERY_HANDLERS } from './handlers.ts';
import type { QueryName } from './queries.ts';
import { precomputeDupes } from './handlers/dupes.ts';
import type { FromWorker, ToWorker, WorkerError } from './protocol.ts';
import type { InputBlob, ProgressInfo } from './inputs.ts';
import { QueryError, quoteName, type WorkerSession } from './session.ts';
import { buildView, sectionsOf } from './view.ts';
import { analyzeFolder, type FolderView } from './folder.ts';
import { analyzeFolderPooled } from './pool/folder-pooled.ts';
import { APP_LIMITS } from './limits.ts';

export { APP_MAX_DECOMPRESSED_BYTES } from './limits.ts';

/** Progress messages at most this often: a 500 MB file must not flood the page with messages. */
const PROGRESS_INTERVAL_MS = 80;

/** The id a refusal carries when the message had no usable id of its own (the page matches no request to it). */
export const UNADDRESSED = -1;

type Checked = { ok: true; message: ToWorker } | { ok: false; id: number; message: string };

const shapeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `data` is a message of the protocol (src/worker/protocol.ts); if not, which field is wrong. */
export function checkMessage(data: unknown): Checked {
  if (!isRecord(data)) return { ok: false, id: UNADDRESSED, message: `The worker got a message that is ${shapeOf(data)}, not an object.` };
  const { id, type } = data;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
    return { ok: false, id: UNADDRESSED, message: `Message field \`id\` must be a non-negative integer (it is ${typeof id === 'number' ? String(id) : shapeOf(id)}).` };
  }
  const refuse = (message: string): Checked => ({ ok: false, id, message });
  if (type === 'cancel') return { ok: true, message: { type, id } };
  if (type === 'query') {
    if (typeof data['name'] !== 'string') return refuse(`Message field \`name\` of query ${id} must be a string (it is ${shapeOf(data['name'])}).`);
    return { ok: true, message: { type, id, name: data['name'], params: data['params'] } };
  }
  if (type !== 'analyze' && type !== 'analyze-folder') {
    return refuse(`Message field \`type\` must be analyze, analyze-folder, cancel or query (it is ${typeof type === 'string' ? quoteName(type) : shapeOf(type)}).`);
  }
  const { inputs, options } = data;
  const inputsProblem = inputsFault(inputs, `${type} ${id}`);
  if (inputsProblem) return refuse(inputsProblem);
  if (type === 'analyze-folder') {
    const ports = data['ports'];
    if (ports === undefined) return { ok: true, message: { type, id, inputs: inputs as InputBlob[] } };
    if (!Array.isArray(ports) || !ports.every((port) => typeof MessagePort !== 'undefined' && port instanceof MessagePort)) return refuse(`Message field \`ports\` of analyze-folder ${id} must be a list of MessagePorts.`);
    return { ok: true, message: { type, id, inputs: inputs as InputBlob[], ports: ports as MessagePort[] } };
  }
  const optionsProblem = optionsFault(options, id);
  if (optionsProblem) return refuse(optionsProblem);
  return { ok: true, message: data as unknown as ToWorker };
}

/** What is wrong with a message's `inputs` (`of` names the message: "analyze 3"), or null. */
function inputsFault(inputs: unknown, of: string): string | null {
  if (!Array.isArray(inputs)) return `Message field \`inputs\` of ${of} must be a list (it is ${shapeOf(inputs)}).`;
  for (let i = 0; i < inputs.length; i++) {
    const input: unknown = inputs[i];
    if (!isRecord(input) || typeof input['name'] !== 'string') return `Message field \`inputs[${i}].name\` of ${of} must be a string.`;
    if (!(input['blob'] instanceof Blob)) return `Message field \`inputs[${i}].blob\` of ${of} must be a File or Blob.`;
    if (input['folderPath'] !== undefined && typeof input['folderPath'] !== 'string') return `Message field \`inputs[${i}].folderPath\` of ${of} must be a string.`;
  }
  return null;
}

/** What is wrong with an analyze message's `options`, or null. */
function optionsFault(options: unknown, id: number): string | null {
  if (!isRecord(options)) return `Message field \`options\` of analyze ${id} must be an object (it is ${shapeOf(options)}).`;
  const { format, model } = options;
  if (format !== undefined && format !== 'auto' && !(typeof format === 'string' && Object.hasOwn(WIRE_IMPORTERS, format))) {
    return `Message field \`options.format\` of analyze ${id} must be auto or a wire format (it is ${typeof format === 'string' ? quoteName(format) : shapeOf(format)}).`;
  }
  if (model !== undefined && typeof model !== 'string') return `Message field \`options.model\` of analyze ${id} must be a string (it is ${shapeOf(model)}).`;
  return null;
}

function failure(error: unknown, signal: AbortSignal): WorkerError {
  if (signal.aborted) return { kind: 'cancelled', message: 'Cancelled.' };
  if (error instanceof QueryError) return { kind: 'unknown-query', message: error.message };
  // A work limit (LIMIT_RECORDS, …) is a refusal of the input like any other located input error.
  if (error instanceof InputError) return { kind: 'input', message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'internal', message: `Internal error in the analysis: ${message}` };
}

/**
 * A message handler over one worker's state (the current session and the running requests). The returned promise
 * settles once the message's reply has been posted (at once for a cancel or a refused message).
 */
export function createDispatcher(post: (message: FromWorker) => void): (data: unknown) => Promise<void> {
  let session: WorkerSession | null = null;
  /** Stops the background work of the session on screen (precomputed panel answers) when it is replaced. */
  let sessionWork: AbortController | null = null;
  const running = new Map<number, AbortController>();

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
    sessionWork?.abort();
    sessionWork = null;
    const analysis = await analyzeInput(files, {
      ...(message.options.format !== undefined && { format: message.options.format }),
      ...(message.options.model !== undefined && { model: message.options.model }),
      signal,
      onProgress,
      limits: APP_LIMITS,
    });
    signal.throwIfAborted();
    session = { requests: analysis.requests, sections: sectionsOf(analysis), analysis, inputs: message.inputs };
    post({ type: 'analyzed', id: message.id, view: buildView(analysis) });
    // Work a panel would otherwise start on its first visit, done while the user reads the first view.
    sessionWork = new AbortController();
    precomputeDupes(session, sessionWork.signal);
  }

  /** A folder's table: the session on screen stays (the table opens sessions as new analyses). */
  async function analyzeFolderMessage(message: Extract<ToWorker, { type: 'analyze-folder' }>, signal: AbortSignal): Promise<void> {
    const onProgress = progressPoster(message.id);
    const ports = message.ports ?? [];
    const onView = (folder: FolderView): void => post({ type: 'folder-view', id: message.id, folder });
    const folder = ports.length > 0 ? await analyzeFolderPooled(message.inputs, { signal, onProgress, ports, onView }) : await analyzeFolder(message.inputs, { signal, onProgress, limits: APP_LIMITS });
    signal.throwIfAborted();
    post({ type: 'folder-analyzed', id: message.id, folder });
  }

  async function query(message: Extract<ToWorker, { type: 'query' }>, signal: AbortSignal): Promise<void> {
    const handler = Object.hasOwn(QUERY_HANDLERS, message.name) ? QUERY_HANDLERS[message.name as QueryName] : undefined;
    if (!handler) throw new QueryError(`Unknown query ${quoteName(message.name)}.`);
    const value = await handler(session, message.params, signal);
    post({ type: 'answer', id: message.id, value });
  }

  return async (data) => {
    const checked = checkMessage(data);
    if (!checked.ok) {
      post({ type: 'failed', id: checked.id, error: { kind: 'protocol', message: checked.message } });
      return;
    }
    const message = checked.message;
    if (message.type === 'cancel') {
      running.get(message.id)?.abort();
      return;
    }
    // Two requests under one id could not be told apart by their replies, nor cancelled one at a time.
    if (running.has(message.id)) {
      post({ type: 'failed', id: message.id, error: { kind: 'protocol', message: `Request ${message.id} is already running; every request needs its own id.` } });
      return;
    }
    const controller = new AbortController();
    running.set(message.id, controller);
    try {
      const work =
        message.type === 'analyze'
          ? analyze(message, controller.signal)
          : message.type === 'analyze-folder'
            ? analyzeFolderMessage(message, controller.signal)
            : query(message, controller.signal);
      await work;
    } catch (error: unknown) {
      post({ type: 'failed', id: message.id, error: failure(error, controller.signal) });
    } finally {
      running.delete(message.id);
    }
  };
}
