// The session loop on a pool of worker threads, for either speed of `ctxray analyze <folder>`: each session read
// apart on a worker (its own registry of calls), settled in session order; a session holding a call an earlier one
// counted is read again with those keys, ahead of the queue (core/folder/apart.ts, SessionOrder), so what is folded
// is what a serial run folds, byte for byte.
import { SessionOrder } from '../../core/folder/index.ts';
import type { ReadProgress } from '../../core/input/index.ts';
import type { SessionPart } from '../../core/transcripts/sessions.ts';
import { SessionPool } from '../jobs/pool.ts';
import type { SessionFiles, SessionTask } from '../jobs/protocol.ts';
import { eachSession, taskFailureMessage, type LoopBase, type Outcome, type SessionInput, type SessionLoop } from './folder-run.ts';

/** What a task gives back that the loop reads: the session's files for the checks, its rows, its calls' keys. */
interface ApartDone {
  session: SessionFiles;
  folder: { parts: SessionPart[] };
  keys: string[];
}

export interface PoolRun<Done extends ApartDone> {
  jobs: number;
  /** The task for a session, less its id and the keys claimed before it. */
  task: (session: SessionInput) => Omit<SessionTask, 'id' | 'claimed'>;
  fold: (done: Done) => void;
  onRows?: SessionLoop<Done>['onRows'];
}

/** Reads every session on `jobs` workers; null when all were read, else the exit status (as eachSession). */
export async function poolSessions<Done extends ApartDone>(loop: LoopBase, run: PoolRun<Done>): Promise<number | null> {
  const pool = new SessionPool<Done>(run.jobs);
  const order = new SessionOrder();
  let id = 0;
  const read = async (session: SessionInput, options: { onProgress: (p: ReadProgress) => void; claimed?: string[] }): Promise<Outcome<Done>> => {
    const claimed = options.claimed;
    const task = { ...run.task(session), id: id++, ...(claimed !== undefined && { claimed }) };
    const result = await pool.run(task, { onProgress: options.onProgress, first: claimed !== undefined });
    if ('failed' in result) return { failure: taskFailureMessage(result.failed, session) };
    return { value: result.done, session: result.done.session, parts: result.done.folder.parts };
  };
  try {
    return await eachSession<Done>(
      {
        ...loop,
        ahead: run.jobs * 2,
        start: (session, onProgress) => read(session, { onProgress }),
        // In session order: a session holding calls an earlier one counted is read again with their keys.
        reconcile: async (outcome, session, onProgress) => {
          if (!('value' in outcome)) return outcome;
          const claimed = order.settle(outcome.value.keys);
          return claimed.length === 0 ? outcome : await read(session, { onProgress, claimed });
        },
        fold: run.fold,
        ...(run.onRows !== undefined && { onRows: run.onRows }),
      },
      loop.skipped,
    );
  } finally {
    await pool.close();
  }
}

/** A session's files as a task carries them. */
export const taskFiles = (session: SessionInput): SessionTask['files'] => session.files.map(({ name, full, size, folderPath }) => ({ name, full, size, folderPath }));
