// A pool of worker threads for `ctxray analyze <folder> --jobs N`: each runs session-worker.ts and takes one
// session at a time; `run` resolves with the session's sums or its failure. From the sources (tsx) each worker
// registers tsx before loading the worker module; from the built package it loads the .js beside this file.
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadProgress } from '../../core/input/index.ts';
import type { SessionDone, SessionTask, TaskFailure, WorkerMessage } from './protocol.ts';

export type TaskResult = { done: SessionDone } | { failed: TaskFailure };

/** One worker per core the process may use (the default of --jobs). */
export const defaultJobs = (): number => Math.max(1, availableParallelism());

interface Pending {
  task: SessionTask;
  resolve: (result: TaskResult) => void;
  reject: (error: unknown) => void;
  onProgress: ((progress: ReadProgress) => void) | undefined;
}

function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  const ext = extname(here);
  const module = new URL(`./session-worker${ext}`, import.meta.url).href;
  if (ext === '.js') return new Worker(new URL(module));
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(module)}); });`;
  return new Worker(boot, { eval: true });
}

export class SessionPool {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: Pending[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private failure: unknown = null;

  constructor(size: number) {
    for (let i = 0; i < size; i++) {
      const worker = startWorker();
      worker.on('message', (message: WorkerMessage) => this.message(worker, message));
      worker.on('error', (error) => this.crash(worker, error));
      worker.on('exit', (code) => {
        if (this.busy.has(worker)) this.crash(worker, new Error(`a session worker exited (code ${code}) before it answered`));
      });
      this.all.push(worker);
      this.idle.push(worker);
    }
  }

  /** `first`: ahead of the queued tasks (a session read again, which the loop waits for before any other). */
  run(task: SessionTask, options: { onProgress?: (progress: ReadProgress) => void; first?: boolean } = {}): Promise<TaskResult> {
    return new Promise<TaskResult>((resolve, reject) => {
      if (this.failure !== null) {
        reject(this.failure);
        return;
      }
      const pending = { task, resolve, reject, onProgress: options.onProgress };
      if (options.first === true) this.queue.unshift(pending);
      else this.queue.push(pending);
      this.next();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((worker) => worker.terminate()));
  }

  private next(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const pending = this.queue.shift()!;
      this.busy.set(worker, pending);
      worker.postMessage(pending.task);
    }
  }

  private message(worker: Worker, message: WorkerMessage): void {
    const pending = this.busy.get(worker);
    if (pending === undefined) return;
    if ('progress' in message) {
      pending.onProgress?.(message.progress);
      return;
    }
    this.busy.delete(worker);
    this.idle.push(worker);
    pending.resolve('done' in message ? { done: message.done } : { failed: message.failed });
    this.next();
  }

  /** A worker that failed unexpectedly fails its task and every queued one: the run stops as a serial one would. */
  private crash(worker: Worker, error: unknown): void {
    this.failure ??= error;
    this.busy.get(worker)?.reject(error);
    this.busy.delete(worker);
    for (const pending of this.queue.splice(0)) pending.reject(error);
  }
}
