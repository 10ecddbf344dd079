// The page's handle on the analysis worker. It matches answers to requests by id, forwards progress, cancels, and
// survives a worker crash: every pending request is rejected with the error and the next call starts a fresh worker.
// A watchdog replaces a worker that stops reporting while it analyzes an input.
import { isFromWorker, type AnalyzeOptions, type FromWorker, type ToWorker } from '../worker/protocol.ts';
import type { InputBlob, ProgressInfo } from '../worker/inputs.ts';
import type { AnalysisView } from '../worker/view-model.ts';
import type { FolderView } from '../worker/folder.ts';
import type { AnswerOf, Ask, ParamsOf, ParamsTuple, QueryName } from '../worker/queries.ts';

export class WorkerFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'cancelled' | 'input' | 'crash' | 'query' | 'unresponsive',
  ) {
    super(message);
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: WorkerFailure) => void;
  onProgress?: (progress: ProgressInfo) => void;
  /** A folder read on a pool: its rows so far. */
  onView?: (view: FolderView) => void;
}

/** A folder read on the page's pool of session workers (src/ui/folder-pool.ts): their ports, and the views as it fills in. */
export interface FolderPoolLink {
  ports: MessagePort[];
  onView: (view: FolderView) => void;
}

/** Starts a worker (src/ui/worker-factory.ts in the app; a stand-in in tests). */
export type WorkerFactory = () => Worker;

/**
 * An analysis that sends nothing for this long is taken as hung (a stuck synchronous step, an endless loop) and
 * its worker is replaced. Reading reports progress at least every few hundred records or raw chunks; the longest
 * silent stretch measured is the analysis after reading, about 3 s for a 200 MB log (docs/performance.md).
 */
export const ANALYSIS_STALL_MS = 30_000;

export class WorkerClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Workers started so far: 1 for the first, +1 for each replacement. */
  private started = 0;
  /** Told how many calls await an answer whenever that changes (the browser bench waits for 0). */
  onPendingChange: (count: number) => void = () => {};

  /**
   * @param onCrash called whenever a worker dies, even with nothing pending: the worker's session (the analyzed
   *   input) is gone with it, so the app must read the input again before asking for content.
   * @param onStarted called with the count of workers started so far, each time one starts.
   * @param stallMs the watchdog's silence limit for an analysis.
   */
  constructor(
    private readonly factory: WorkerFactory,
    private readonly onCrash: (error: WorkerFailure) => void = () => {},
    private readonly onStarted: (generation: number) => void = () => {},
    private readonly stallMs = ANALYSIS_STALL_MS,
  ) {}

  analyze(inputs: InputBlob[], options: AnalyzeOptions, onProgress: (p: ProgressInfo) => void, signal: AbortSignal): Promise<AnalysisView> {
    return this.watched<AnalysisView>((id) => ({ type: 'analyze', id, inputs, options }), onProgress, signal);
  }

  /**
   * A dropped folder's sessions: the rows of its folder table. Analysed one at a time in the worker, or with
   * `pool` on the session workers behind its ports (handed to the worker), with views as the folder fills in.
   */
  analyzeFolder(inputs: InputBlob[], onProgress: (p: ProgressInfo) => void, signal: AbortSignal, pool?: FolderPoolLink): Promise<FolderView> {
    if (pool === undefined) return this.watched<FolderView>((id) => ({ type: 'analyze-folder', id, inputs }), onProgress, signal);
    return this.watched<FolderView>((id) => ({ type: 'analyze-folder', id, inputs, ports: pool.ports }), onProgress, signal, pool);
  }

  /** Sends a long analysis under the watchdog: every message for it (progress, a view, the answer) resets it; silence replaces the worker. */
  private watched<T>(build: (id: number) => ToWorker, onProgress: (p: ProgressInfo) => void, signal: AbortSignal, pool?: FolderPoolLink): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const seconds = Math.round(this.stallMs / 1000);
        this.replace(new WorkerFailure(`The analysis sent no progress for ${seconds} s, so its worker was stopped and replaced.`, 'unresponsive'));
      }, this.stallMs);
    };
    arm();
    const watched = (progress: ProgressInfo): void => {
      arm();
      onProgress(progress);
    };
    const link = pool && {
      transfer: pool.ports,
      onView: (view: FolderView): void => {
        arm();
        pool.onView(view);
      },
    };
    const result = this.send<T>(build, signal, watched, link);
    return result.finally(() => clearTimeout(timer));
  }

  /**
   * Stops the worker, fails whatever it had pending with `failure`, and starts a fresh one at once (ready for the
   * next input). Unlike a crash this never calls onCrash: the app asked for it and must not read the input again.
   */
  replace(failure: WorkerFailure): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll(failure);
    this.ensureWorker();
  }

  /** A named question (src/worker/queries.ts): the name picks the params it takes and the answer it gives. */
  ask<N extends QueryName>(name: N, params: ParamsOf<N>, signal?: AbortSignal): Promise<AnswerOf<N>> {
    return this.send<AnswerOf<N>>((id) => ({ type: 'query', id, name, params }), signal);
  }

  /** `ask` under one signal, as panels and workspaces get it. */
  asker(signal: AbortSignal): Ask {
    return <N extends QueryName>(name: N, ...params: ParamsTuple<N>) => this.ask(name, params[0] as ParamsOf<N>, signal);
  }

  /** Stops the worker outright (used when a cancelled analysis must not keep a core busy). */
  terminate(reason: string): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll(new WorkerFailure(reason, 'cancelled'));
  }

  private send<T>(build: (id: number) => ToWorker, signal?: AbortSignal, onProgress?: (p: ProgressInfo) => void, link?: { transfer: Transferable[]; onView: (view: FolderView) => void }): Promise<T> {
    if (signal?.aborted) return Promise.reject(new WorkerFailure('Cancelled.', 'cancelled'));
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { resolve: resolve as (value: unknown) => void, reject };
      if (onProgress) entry.onProgress = onProgress;
      if (link) entry.onView = link.onView;
      this.pending.set(id, entry);
      this.onPendingChange(this.pending.size);
      signal?.addEventListener(
        'abort',
        () => {
          if (!this.pending.has(id)) return;
          worker.postMessage({ type: 'cancel', id } satisfies ToWorker);
        },
        { once: true },
      );
      worker.postMessage(build(id), link?.transfer ?? []);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.factory();
    this.started++;
    this.onStarted(this.started);
    worker.addEventListener('message', (event: MessageEvent) => {
      if (isFromWorker(event.data)) this.receive(event.data);
    });
    const crashed = (detail: string): void => {
      if (this.worker !== worker) return;
      worker.terminate();
      this.worker = null;
      const failure = new WorkerFailure(`The analysis worker stopped (${detail}).`, 'crash');
      this.failAll(failure);
      this.onCrash(failure);
    };
    worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault();
      crashed(event.message || 'script error');
    });
    worker.addEventListener('messageerror', () => crashed('a message could not be decoded'));
    this.worker = worker;
    return worker;
  }

  private receive(message: FromWorker): void {
    const entry = this.pending.get(message.id);
    if (!entry) return;
    if (message.type !== 'progress' && message.type !== 'folder-view') queueMicrotask(() => this.onPendingChange(this.pending.size));
    switch (message.type) {
      case 'progress':
        entry.onProgress?.(message.progress);
        return;
      case 'folder-view':
        entry.onView?.(message.folder);
        return;
      case 'analyzed':
        this.pending.delete(message.id);
        entry.resolve(message.view);
        return;
      case 'folder-analyzed':
        this.pending.delete(message.id);
        entry.resolve(message.folder);
        return;
      case 'answer':
        this.pending.delete(message.id);
        entry.resolve(message.value);
        return;
      case 'failed': {
        this.pending.delete(message.id);
        const kind = message.error.kind === 'cancelled' ? 'cancelled' : message.error.kind === 'input' ? 'input' : 'query';
        entry.reject(new WorkerFailure(message.error.message, kind));
        return;
      }
    }
  }

  private failAll(error: WorkerFailure): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    this.onPendingChange(0);
    for (const entry of entries) entry.reject(error);
  }
}
