// The analysis worker's side of a folder's pool: the ports of the session workers the page started, one task at a
// time on each; `run` resolves with the session's sums or its failure. A task asked `first` goes ahead of the
// queue (a session read again, which the ordered merge waits for). Cancelled, every task still waiting rejects.
import { TaskQueue, type RunOptions } from '../../core/folder/task-queue.ts';
import type { ReadProgress } from '../../core/input/index.ts';
import type { FromPool, PoolTask } from './protocol.ts';

export type PoolResult = Extract<FromPool, { done: unknown }> | Extract<FromPool, { failed: unknown }>;

export class PortPool {
  private readonly tasks: TaskQueue<MessagePort, PoolTask, PoolResult, ReadProgress>;
  private nextId = 0;

  constructor(
    private readonly ports: readonly MessagePort[],
    signal: AbortSignal,
  ) {
    this.tasks = new TaskQueue(ports, (port, task) => port.postMessage(task));
    for (const port of ports) {
      port.addEventListener('message', (event: MessageEvent<FromPool>) => this.message(port, event.data));
      port.start();
    }
    signal.addEventListener('abort', () => this.tasks.fail(signal.reason ?? new Error('Cancelled.')), { once: true });
  }

  get size(): number {
    return this.ports.length;
  }

  run(task: Omit<PoolTask, 'id'>, options: RunOptions<ReadProgress> = {}): Promise<PoolResult> {
    return this.tasks.run({ ...task, id: this.nextId++ }, options);
  }

  /** Closes the ports (the page terminates the workers behind them). */
  close(): void {
    for (const port of this.ports) port.close();
  }

  private message(port: MessagePort, message: FromPool): void {
    // An answer to a task this port no longer holds (the folder was cancelled) is dropped.
    if (message.id !== this.tasks.taskOn(port)?.id) return;
    if ('progress' in message) this.tasks.progress(port, message.progress);
    // Anything but a read's failure fails the folder, every task in flight with it.
    else if ('crashed' in message) this.tasks.fail(new Error(`A session worker failed: ${message.crashed}`));
    else this.tasks.settle(port, message);
  }
}
