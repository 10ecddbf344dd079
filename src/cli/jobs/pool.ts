// A pool of worker threads for `ctxray analyze <folder> --jobs N`: each runs session-worker.ts and takes one
// session at a time; `run` resolves with the session's sums or its failure. From the sources (tsx) each worker
// registers tsx before loading the worker module; from the built package it loads the .js beside this file.
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TaskQueue, type RunOptions } from '../../core/folder/task-queue.ts';
import type { ReadProgress } from '../../core/input/index.ts';
import type { SessionDone, SessionTask, TaskFailure, WorkerMessage } from './protocol.ts';

export type TaskResult<Done = SessionDone> = { done: Done } | { failed: TaskFailure };

/** One worker per core the process may use (the default of --jobs). */
export const defaultJobs = (): number => Math.max(1, availableParallelism());

function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  const ext = extname(here);
  const module = new URL(`./session-worker${ext}`, import.meta.url).href;
  if (ext === '.js') return new Worker(new URL(module));
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(module)}); });`;
  return new Worker(boot, { eval: true });
}

/** `Done`: what the tasks give (SessionDone, or UsageApart for the summary's `usage` tasks). */
export class SessionPool<Done = SessionDone> {
  private readonly all: Worker[] = [];
  private readonly tasks: TaskQueue<Worker, SessionTask, TaskResult<Done>, ReadProgress>;

  constructor(size: number) {
    for (let i = 0; i < size; i++) this.all.push(startWorker());
    this.tasks = new TaskQueue(this.all, (worker, task) => worker.postMessage(task));
    for (const worker of this.all) {
      worker.on('message', (message: WorkerMessage<Done>) => this.message(worker, message));
      // A worker that failed unexpectedly fails its task and every queued one: the run stops as a serial one would.
      worker.on('error', (error) => this.tasks.fail(error, worker));
      worker.on('exit', (code) => {
        if (this.tasks.taskOn(worker) !== undefined) this.tasks.fail(new Error(`a session worker exited (code ${code}) before it answered`), worker);
      });
    }
  }

  /** `first`: ahead of the queued tasks (a session read again, which the loop waits for before any other). */
  run(task: SessionTask, options: RunOptions<ReadProgress> = {}): Promise<TaskResult<Done>> {
    return this.tasks.run(task, options);
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((worker) => worker.terminate()));
  }

  private message(worker: Worker, message: WorkerMessage<Done>): void {
    if ('progress' in message) this.tasks.progress(worker, message.progress);
    else this.tasks.settle(worker, 'done' in message ? { done: message.done } : { failed: message.failed });
  }
}
