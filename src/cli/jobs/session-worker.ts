// A worker thread of `ctxray analyze <folder> --jobs N`: reads and analyses the sessions it is sent, one at a
// time, each folded into an empty folder whose sums it posts back (src/core/folder/apart.ts, the step the app's
// pool takes too). Work limits and unreadable input are posted as failures, so the caller reports the first one in
// session order exactly as a serial read would; anything else ends the worker with its error.
import { parentPort } from 'node:worker_threads';
import { foldSessionApart } from '../../core/folder/index.ts';
import { foldUsageApart } from '../../core/folder/usage-folder.ts';
import { InputError, WorkLimitError, type ReadProgress } from '../../core/input/index.ts';
import { lazyInputs } from '../fs/folder-inputs.ts';
import { NODE_FAST_LINES, usageInputs } from '../fs/usage-inputs.ts';
import type { SessionTask, TaskFailure, WorkerMessage } from './protocol.ts';

/** Progress is posted at most this often (ms): a session reads in 64 KB chunks. */
const PROGRESS_INTERVAL_MS = 100;

function failureOf(error: unknown): TaskFailure | null {
  if (error instanceof WorkLimitError) return { kind: 'work-limit', code: error.code, limit: error.limit, line: error.line, file: error.file, message: error.message };
  if (error instanceof InputError) return { kind: 'input', line: error.line, message: error.message };
  return null;
}

/** The session read as the task asks: from its recorded usage (the folder summary) or in full. */
function readTask(task: SessionTask, onProgress: (progress: ReadProgress) => void): Promise<unknown> {
  const claimed = task.claimed !== undefined ? { claimed: task.claimed } : {};
  if (task.usage !== undefined) return foldUsageApart(usageInputs(task.files), { ...task.options, ...claimed, window: task.usage.window, fastLines: NODE_FAST_LINES, onProgress });
  return foldSessionApart(lazyInputs(task.files), { ...task.options, ...claimed, onProgress });
}

async function runTask(task: SessionTask, post: (message: WorkerMessage<unknown>) => void): Promise<void> {
  let last = 0;
  const onProgress = (progress: ReadProgress) => {
    const now = Date.now();
    if (now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    post({ id: task.id, progress });
  };
  try {
    post({ id: task.id, done: await readTask(task, onProgress) });
  } catch (error) {
    const failed = failureOf(error);
    if (failed === null) throw error;
    post({ id: task.id, failed });
  }
}

const port = parentPort;
if (port !== null) {
  const post = (message: WorkerMessage<unknown>) => port.postMessage(message);
  // One task at a time: the pool sends the next only when this one has answered.
  port.on('message', (task: SessionTask) => {
    runTask(task, post).catch((error: unknown) => {
      setImmediate(() => {
        throw error;
      });
    });
  });
}
