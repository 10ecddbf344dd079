// What the files of one read share while each is read (file-reader.ts), and the event-loop turns it takes.
import type { ParsedRequest, ReadError, WireFormat } from '../model.ts';
import type { TextStore } from '../text/store.ts';
import type { WorkBudget } from './budget.ts';
import { throwIfAborted } from './errors.ts';
import type { InputLimits } from './limits.ts';
import type { ReadOptions } from './read-types.ts';
import type { ResentJsonParser } from './resent-json.ts';
import type { SeenCalls } from './seen-calls.ts';

/** A batch output record waiting for the request with its custom_id. */
export interface PendingOutput {
  file: number;
  line: number;
  customId: string;
  usage: unknown;
  /** What the output line says of its call: a read of output files alone makes them usage-only requests. */
  format: WireFormat;
  model: string | null;
  timestamp: number | null;
}

/** Longest stretch of reading without giving the event loop a turn (ms). */
const TURN_INTERVAL_MS = 50;

/**
 * A read of in-memory bytes runs on promises alone, which never let the event loop take a message: a worker could
 * not receive "cancel" until the read ended. Every TURN_INTERVAL_MS the read yields one macrotask turn.
 */
export class EventLoopTurns {
  private last = performance.now();

  async take(signal: AbortSignal | undefined): Promise<void> {
    if (performance.now() - this.last < TURN_INTERVAL_MS) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.last = performance.now();
    throwIfAborted(signal);
  }
}

export interface ReadState {
  limits: InputLimits;
  /** Every file name of the read (TranscriptContext.readFiles). */
  readFiles: readonly string[];
  store: TextStore;
  /** Parses JSONL lines reusing array items earlier lines sent (resent-json.ts). */
  resent: ResentJsonParser;
  requests: ParsedRequest[];
  errors: ReadError[];
  outputs: PendingOutput[];
  options: ReadOptions;
  turns: EventLoopTurns;
  /** Requests, segments and distinct texts of the whole read, against their limits. */
  budget: WorkBudget;
  /** Files an importer holds until their partner file is read (TranscriptContext.companions). */
  companions: Map<string, unknown>;
  seenCalls: SeenCalls;
}
