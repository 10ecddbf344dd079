// Messages between `ctxray analyze <folder>` and its session workers (session-worker.ts): one session's files in,
// its sums folded into an empty folder out (src/core/folder), or the failure a serial read would have reported.
import type { SessionApart, SessionFiles } from '../../core/folder/index.ts';
import type { UsageApart } from '../../core/folder/usage-folder.ts';
import type { Window } from '../../core/period/index.ts';
import type { WireFormat } from '../../core/model.ts';
import type { InputLimits, ReadProgress, WorkLimitCode } from '../../core/input/index.ts';
import type { PriceOverrides } from '../../core/pricing/overrides.ts';
import type { SessionFile } from '../fs/folder-inputs.ts';

export interface SessionTask {
  id: number;
  files: SessionFile[];
  options: {
    format: WireFormat | 'auto';
    model: string | null;
    prices: PriceOverrides | null;
    usageCalibration: boolean;
    limits?: Partial<InputLimits>;
  };
  /** Keys of calls earlier sessions counted (SeenCalls): their copies here are dropped, as a serial read drops them. */
  claimed?: string[];
  /** The folder summary: the session read from its recorded usage (usage-folder.ts), requests sent in `window` kept. */
  usage?: { window: Window | null };
}

export type TaskFailure =
  | { kind: 'work-limit'; code: WorkLimitCode; limit: number; line: number; file: number; message: string }
  | { kind: 'input'; line: number; message: string };

/** A session read: its sums folded into an empty folder, its files for the checks, the keys of every call it holds. */
export type SessionDone = SessionApart;
export type { SessionFiles, UsageApart };

/** What a worker posts; `done` is a SessionDone, or a UsageApart for a `usage` task. */
export type WorkerMessage<Done = SessionDone> =
  | { id: number; progress: ReadProgress }
  | { id: number; done: Done }
  | { id: number; failed: TaskFailure };
