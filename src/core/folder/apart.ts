// A session read apart from the others, on a worker of a pool (the CLI's threads, the app's Web Workers): folded
// into an empty folder with a registry of calls of its own, and handed back with the keys of every call it holds.
// `SessionOrder` settles such sessions in the serial order: a session holding a call an earlier one counted is
// read again holding those keys, so the sums merged in order (mergeFolder) are a serial read's, byte for byte.
import type { ReadError } from '../model.ts';
import type { AnalysisFile } from '../analysis/types.ts';
import { GENERATED_BY } from '../analysis/version.ts';
import { PRICED_ON } from '../pricing/table.ts';
import type { InputFile } from '../input/index.ts';
import { SeenCalls, type DroppedCalls } from '../input/seen-calls.ts';
import { emptyFolder, type FolderAnalysis } from './accumulate.ts';
import { foldSession, type SessionOptions } from './session.ts';

/** What the caller checks of a session as read (unreadable and empty files), without its requests. */
export interface SessionFiles {
  files: Pick<AnalysisFile, 'name' | 'requests' | 'errors' | 'envelope' | 'format'>[];
  errors: ReadError[];
  /** Calls dropped as copies of calls counted before (the session's own file indices). */
  duplicateCalls?: DroppedCalls[];
}

/** A session read apart: its sums folded into an empty folder, its files for the checks, the keys of every call it holds. */
export interface SessionApart {
  folder: FolderAnalysis;
  session: SessionFiles;
  keys: string[];
}

/**
 * Reads one session on its own. `claimed`: keys of calls earlier sessions counted (SessionOrder.settle), whose
 * copies here are dropped as a serial read drops them. Throws what foldSession throws.
 */
export async function foldSessionApart(files: InputFile[], options: SessionOptions & { claimed?: readonly string[] } = {}): Promise<SessionApart> {
  const { claimed = [], ...sessionOptions } = options;
  const folder = emptyFolder(GENERATED_BY, PRICED_ON);
  const seenCalls = SeenCalls.holding(claimed);
  const { analysis } = await foldSession(folder, files, { ...sessionOptions, seenCalls });
  const fileChecks = analysis.files.map(({ name, requests, errors, envelope, format }) => ({ name, requests, errors, envelope, format }));
  const session = { files: fileChecks, errors: analysis.errors, ...(analysis.duplicateCalls !== undefined && { duplicateCalls: analysis.duplicateCalls }) };
  return { folder, session, keys: seenCalls.claimedKeys() };
}

/** The calls counted so far by the sessions settled in order. */
export class SessionOrder {
  private readonly seen = new SeenCalls();

  /**
   * The next session in order, read apart with the keys `keys`: the ones an earlier session counted (none: its
   * sums stand as read; else read it again with `claimed` set to them). Its calls are counted from now on.
   */
  settle(keys: readonly string[]): string[] {
    const claimed = this.seen.heldOf(keys);
    this.seen.claimAll(keys);
    return claimed;
  }
}
