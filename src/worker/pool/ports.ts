// The analysis worker's side of a folder's pool: the ports of the session workers the page started, one task at a
// time on each; `run` resolves with the session's sums or its failure. A task asked `first` goes ahead of the
// queue (a session read again, which the ordered merge waits for). Cancelled, every task still waiting rejects.
import type { ReadProgress } from '../../core/input/index.ts';
import type { FromPool, PoolTask } from './protocol.ts';

export type PoolResult = Extract<FromPool, { done: unknown }> | Extract<FromPool, { failed: unknown }>;

interface Pending {
  task: PoolTask;
  resolve: (result: PoolResult) => void;
  reject: (error: unknown) => void;
  onProgress: ((progress: ReadProgress) => void) | undefined;
}

export class PortPool {
  private readonly idle: MessagePort[];
  private readonly queue: Pending[] = [];
  private readonly busy = new Map<MessagePort, Pending>();
  private nextId = 0;
  private failure: unknown = null;

  constructor(
    private readonly ports: readonly MessagePort[],
    signal: AbortSignal,
  ) {
    this.idle = [...ports];
    for (const port of ports) {
      port.addEventListener('message', (event: MessageEvent<FromPool>) => this.message(port, event.data));
      port.start();
    }
    signal.addEventListener('abort', () => this.fail(signal.reason ?? new Error('Cancelled.')), { once: true });
  }

  get size(): number {
    return this.ports.length;
  }

  run(task: Omit<PoolTask, 'id'>, options: { onProgress?: (progress: ReadProgress) => void; first?: boolean } = {}): Promise<PoolResult> {
    return new Promise<PoolResult>((resolve, reject) => {
      if (this.failure !== null) {
        reject(this.failure);
        return;
      }
      const pending = { task: { ...task, id: this.nextId++ }, resolve, reject, onProgress: options.onProgress };
      if (options.first === true) this.queue.unshift(pending);
      else this.queue.push(pending);
      this.next();
    });
  }

  /** Closes the ports (the page terminates the workers behind them). */
  close(): void {
    for (const port of this.ports) port.close();
  }

  private next(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const port = this.idle.pop()!;
      const pending = this.queue.shift()!;
      this.busy.set(port, pending);
      port.postMessage(pending.task);
    }
  }

  private message(port: MessagePort, message: FromPool): void {
    const pending = this.busy.get(port);
    if (pending === undefined || message.id !== pending.task.id) return;
    if ('progress' in message) {
      pending.onProgress?.(message.progress);
      return;
    }
    if ('crashed' in message) {
      this.fail(new Error(`A session worker failed: ${message.crashed}`));
      return;
    }
    this.busy.delete(port);
    this.idle.push(port);
    pending.resolve(message);
    this.next();
  }

  /** Fails every task in flight and queued: the folder stops as a serial read stopped by that error would. */
  private fail(error: unknown): void {
    this.failure ??= error;
    for (const pending of [...this.busy.values(), ...this.queue.splice(0)]) pending.reject(error);
    this.busy.clear();
  }
}
