// One task at a time on each of a fixed set of channels (worker threads in the CLI, MessagePorts in the app's
// worker): tasks wait in order, a task asked `first` goes ahead of the queue (a session read again, which the
// ordered merge waits for), and a failure rejects what it reaches and every task after it, as a serial read
// stopped by that error would. The channel and its messages are the caller's; this holds only the order.

export interface RunOptions<P> {
  onProgress?: (progress: P) => void;
  /** Ahead of the queued tasks. */
  first?: boolean;
}

interface Pending<T, R, P> {
  task: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
  onProgress: ((progress: P) => void) | undefined;
}

export class TaskQueue<C, T, R, P> {
  private readonly idle: C[];
  private readonly queue: Pending<T, R, P>[] = [];
  private readonly busy = new Map<C, Pending<T, R, P>>();
  private failure: unknown = null;

  /** `post` hands a task to a free channel; the caller reports back with progress / settle / fail. */
  constructor(
    channels: readonly C[],
    private readonly post: (channel: C, task: T) => void,
  ) {
    this.idle = [...channels];
  }

  run(task: T, options: RunOptions<P> = {}): Promise<R> {
    return new Promise<R>((resolve, reject) => {
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

  /** The task on `channel`, or undefined when the channel is free. */
  taskOn(channel: C): T | undefined {
    return this.busy.get(channel)?.task;
  }

  progress(channel: C, progress: P): void {
    this.busy.get(channel)?.onProgress?.(progress);
  }

  /** The task on `channel` answered: the channel takes the next one. */
  settle(channel: C, result: R): void {
    const pending = this.busy.get(channel);
    if (pending === undefined) return;
    this.busy.delete(channel);
    this.idle.push(channel);
    pending.resolve(result);
    this.next();
  }

  /**
   * Rejects the task on `channel` (every task in flight when no channel is named) and every queued one; later
   * `run`s reject with the first such error.
   */
  fail(error: unknown, channel?: C): void {
    this.failure ??= error;
    const reached = channel === undefined ? [...this.busy.keys()] : [channel];
    for (const key of reached) {
      this.busy.get(key)?.reject(error);
      this.busy.delete(key);
    }
    for (const pending of this.queue.splice(0)) pending.reject(error);
  }

  private next(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const channel = this.idle.pop()!;
      const pending = this.queue.shift()!;
      this.busy.set(channel, pending);
      this.post(channel, pending.task);
    }
  }
}
