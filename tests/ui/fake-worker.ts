// A stand-in Worker for the page-side worker client tests.
import type { FromWorker, ToWorker } from '../../src/worker/protocol.ts';
import { ANALYSIS_STALL_MS, WorkerClient } from '../../src/ui/worker-client.ts';

/** A stand-in Worker: records what the page posts and lets the test answer or crash. */
export class FakeWorker extends EventTarget {
  readonly posted: ToWorker[] = [];
  terminated = false;
  postMessage(message: ToWorker): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(message: FromWorker): void {
    this.dispatchEvent(new MessageEvent('message', { data: message }));
  }
  crash(text: string): void {
    const event = new Event('error', { cancelable: true }) as Event & { message: string };
    event.message = text;
    this.dispatchEvent(event);
  }
}

/** A WorkerClient over FakeWorkers, recording the workers it started, its crash reports and start generations. */
export function clientWithFakes(stallMs = ANALYSIS_STALL_MS) {
  const workers: FakeWorker[] = [];
  const crashes: string[] = [];
  const generations: number[] = [];
  const client = new WorkerClient(
    () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker as unknown as Worker;
    },
    (error) => crashes.push(error.message),
    (generation) => generations.push(generation),
    stallMs,
  );
  return { client, workers, crashes, generations };
}
