// Messages between the analysis worker and the session workers of a folder's pool (./session-worker.ts), over the
// MessagePort the page gave each pair: one session's files in, its sums read apart out (src/core/folder/apart.ts),
// or the located failure a serial read of that session would have met.
import type { SessionApart } from '../../core/folder/index.ts';
import type { ReadProgress } from '../../core/input/index.ts';
import type { InputBlob } from '../inputs.ts';

export interface PoolTask {
  id: number;
  /** The session's files, its own file first (Blobs are cloned without their bytes being read). */
  inputs: InputBlob[];
  /** Keys of calls earlier sessions counted: their copies here are dropped (SessionOrder.settle). */
  claimed?: string[];
}

/** A read the app lists and goes past: the message, its line, and which of the session's files stopped it. */
export interface PoolFailure {
  message: string;
  line: number;
  file: number;
}

export type FromPool =
  | { id: number; progress: ReadProgress }
  | { id: number; done: SessionApart }
  | { id: number; failed: PoolFailure }
  /** Anything but a read's failure (a bug, memory): the folder fails as a serial read would. */
  | { id: number; crashed: string };

/** The first message a session worker gets on its own global: the port it serves tasks on. */
export interface PoolHello {
  type: 'pool-port';
  port: MessagePort;
}
