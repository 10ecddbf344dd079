/// <reference lib="webworker" />
// A session worker of a folder's pool: the page starts one per core (src/ui/folder-pool.ts) and hands it a port to
// the analysis worker, which sends it whole sessions, one at a time; each is read apart (src/core/folder/apart.ts:
// the step the CLI's --jobs threads take) with the app's work limits, and its sums posted back.
import { foldSessionApart } from '../../core/folder/index.ts';
import { InputError, WorkLimitError, type InputFile, type ReadProgress } from '../../core/input/index.ts';
import { APP_LIMITS } from '../limits.ts';
import type { FromPool, PoolFailure, PoolHello, PoolTask } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

/** Progress is posted at most this often (ms). */
const PROGRESS_INTERVAL_MS = 100;

function failureOf(error: unknown): PoolFailure | null {
  if (!(error instanceof InputError)) return null;
  return { message: error.message, line: error.line, file: error instanceof WorkLimitError ? error.file : 0 };
}

export async function runPoolTask(task: PoolTask, post: (message: FromPool) => void): Promise<void> {
  const files: InputFile[] = task.inputs.map((input) => ({ name: input.name, bytes: input.blob.stream(), size: input.blob.size, folderPath: input.folderPath ?? input.name }));
  let last = 0;
  const onProgress = (progress: ReadProgress): void => {
    const now = performance.now();
    if (now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    post({ id: task.id, progress });
  };
  try {
    const done = await foldSessionApart(files, { limits: APP_LIMITS, onProgress, ...(task.claimed !== undefined && { claimed: task.claimed }) });
    post({ id: task.id, done });
  } catch (error) {
    const failed = failureOf(error);
    post(failed === null ? { id: task.id, crashed: error instanceof Error ? error.message : String(error) } : { id: task.id, failed });
  }
}

if (typeof self !== 'undefined' && typeof self.addEventListener === 'function') {
  self.addEventListener('message', (event: MessageEvent<PoolHello>) => {
    if (event.data?.type !== 'pool-port') return;
    const port = event.data.port;
    const post = (message: FromPool): void => port.postMessage(message);
    // One task at a time: the analysis worker sends the next only when this one has answered.
    port.addEventListener('message', (task: MessageEvent<PoolTask>) => void runPoolTask(task.data, post));
    port.start();
  });
}
