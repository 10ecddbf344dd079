// The page's pool of session workers for a dropped folder: one module worker per core (navigator.hardwareConcurrency,
// at least 1, at most MAX_POOL; `?jobs=N` in the page's address sets it, as --jobs does for the CLI), each started
// as the analysis worker is (src/ui/worker-factory.ts, under the page's CSP) and joined to the analysis worker by a
// MessageChannel: the analysis worker sends them whole sessions and merges what they answer in session order
// (src/worker/pool/). The page only starts them and terminates them: when the folder is read, cancelled (a new drop,
// leaving the folder) or one of them fails.
import { startSessionWorker } from './worker-factory.ts';

export const MAX_POOL = 8;

/** Workers for a folder of `sessions` files: one per core, never more than there are files to read. */
export function poolSize(files: number, search: string = location.search, cores: number = navigator.hardwareConcurrency): number {
  const asked = Number(new URLSearchParams(search).get('jobs'));
  const wanted = Number.isInteger(asked) && asked > 0 ? asked : cores || 1;
  return Math.max(1, Math.min(MAX_POOL, wanted, files));
}

export interface FolderPool {
  /** The analysis worker's ends of the channels (transferred to it with the folder). */
  readonly ports: MessagePort[];
  /** Stops every worker of the pool (safe to call more than once). */
  terminate(): void;
}

/** Starts `size` session workers; `onFailure` is told when one of them dies (a script error, out of memory). */
export function startFolderPool(size: number, onFailure: (message: string) => void, start: () => Worker = startSessionWorker): FolderPool {
  const workers: Worker[] = [];
  const ports: MessagePort[] = [];
  for (let i = 0; i < size; i++) {
    const worker = start();
    const channel = new MessageChannel();
    worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault();
      onFailure(`A session worker stopped (${event.message || 'script error'}).`);
    });
    worker.postMessage({ type: 'pool-port', port: channel.port1 }, [channel.port1]);
    workers.push(worker);
    ports.push(channel.port2);
  }
  document.body.setAttribute('data-folder-pool', String(size));
  return {
    ports,
    terminate() {
      for (const worker of workers.splice(0)) worker.terminate();
      document.body.setAttribute('data-folder-pool', '0');
    },
  };
}
