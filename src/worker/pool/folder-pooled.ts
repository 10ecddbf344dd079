// A dropped folder read on the page's pool of session workers: whole sessions go out to the workers (./ports.ts),
// up to two per worker in flight, and are settled here in session order as the CLI's --jobs settles them
// (src/core/folder/apart.ts: a session holding a call an earlier one counted is read again holding its key;
// mergeFolder folds the sums), so the rows and the record are the serial read's (../folder.ts), byte for byte.
// Meanwhile this worker reads each Claude Code session's recorded usage alone (src/core/folder/usage-pass.ts: no
// tokenizing), in order, so the page gets rows at once: a view is posted as the folder fills in, each session's
// usage row replaced by its full analysis' row once that is settled.
import { emptyFolder, folderRecord, mergeFolder, SessionOrder } from '../../core/folder/index.ts';
import { readSessionUsage } from '../../core/folder/usage-pass.ts';
import { usageParts } from '../../core/folder/usage-folder.ts';
import { GENERATED_BY } from '../../core/analysis/version.ts';
import { PRICED_ON } from '../../core/pricing/table.ts';
import { SeenCalls } from '../../core/input/seen-calls.ts';
import { recordJson } from '../../core/text/json-safe.ts';
import { APP_LIMITS } from '../limits.ts';
import { emptyFilesOf, failedSessionLine, folderGroups, folderViewOf, inputFiles, pathOf, type FolderOptions, type FolderView, type ShownSession } from '../folder.ts';
import type { InputBlob } from '../inputs.ts';
import { PortPool, type PoolResult } from './ports.ts';

export interface PooledFolderOptions extends Omit<FolderOptions, 'into'> {
  /** One port to each session worker of the pool. */
  ports: readonly MessagePort[];
  /** A view of the rows so far (FolderView.progress set), at most every VIEW_INTERVAL_MS. */
  onView: (view: FolderView) => void;
}

/** Views of a folder filling in are posted at most this often (ms); the first at once. */
const VIEW_INTERVAL_MS = 250;
/** The full analyses wait at most this long (ms) for the first usage rows. */
const FIRST_ROWS_WAIT_MS = 1500;

/** Posts `build()` at once if the last post is VIEW_INTERVAL_MS old, else once that much time has passed. */
function throttled(post: () => void): { changed: () => void; stop: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = (): void => {
    timer = undefined;
    last = performance.now();
    post();
  };
  return {
    changed: () => {
      if (timer !== undefined) return;
      const wait = last + VIEW_INTERVAL_MS - performance.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    stop: () => clearTimeout(timer),
  };
}

/**
 * Each Claude Code session's rows from its recorded usage, in order, with one registry of calls (a copy in a
 * later session is dropped, as the full read drops it). A session this pass cannot read (another agent's, an
 * unreadable one) gets no row until its full analysis settles; so does one settled before its usage was read.
 */
async function usageRows(inputs: readonly InputBlob[], groups: readonly number[][], shown: (ShownSession | null)[], ctx: { signal: AbortSignal; changed: () => void }): Promise<void> {
  const seenCalls = new SeenCalls();
  for (const [s, group] of groups.entries()) {
    if (ctx.signal.aborted) return;
    try {
      const read = await readSessionUsage(inputFiles(inputs, group), { limits: APP_LIMITS, signal: ctx.signal, seenCalls });
      if (read === null || shown[s] !== null) continue;
      shown[s] = { parts: usageParts(read), group, usageOnly: true };
      ctx.changed();
    } catch {
      // The full analysis reports what stopped the read.
    }
  }
}

export async function analyzeFolderPooled(inputs: readonly InputBlob[], options: PooledFolderOptions): Promise<FolderView> {
  const { signal } = options;
  const groups = await folderGroups(inputs);
  const folder = emptyFolder(GENERATED_BY, PRICED_ON);
  const pool = new PortPool(options.ports, signal);
  const shown: (ShownSession | null)[] = groups.map(() => null);
  const skipped: string[] = [];
  const bytesOf = groups.map((group) => group.reduce((sum, i) => sum + inputs[i]!.blob.size, 0));
  const bytesTotal = bytesOf.reduce((a, b) => a + b, 0);
  let done = 0;
  const view = throttled(() => {
    const settled = shown.flatMap((session) => (session === null ? [] : [session]));
    options.onView(folderViewOf(settled, { files: inputs.length, skipped: [...skipped], record: '', progress: { done, total: groups.length } }));
  });
  // The usage rows stop once every session is settled in full (or the folder is given up).
  const usage = new AbortController();
  const stopUsage = (): void => usage.abort();
  signal.addEventListener('abort', stopUsage, { once: true });
  // The full analyses start once the first rows are on the page (or the usage pass gave none): on a busy machine
  // the pool's workers would otherwise take the cores the first rows wait for.
  let firstRows = (): void => {};
  const shownFirst = new Promise<void>((resolve) => (firstRows = resolve));
  const changed = (): void => {
    view.changed();
    firstRows();
  };
  const rows = usageRows(inputs, groups, shown, { signal: usage.signal, changed }).finally(firstRows);
  const inFlight = new Map<number, number>();
  let bytesDone = 0;
  let records = 0;
  const progressOf = (s: number) => (p: { file: number; bytesRead: number; records: number }): void => {
    inFlight.set(s, p.bytesRead + groups[s]!.slice(0, p.file).reduce((sum, i) => sum + inputs[i]!.blob.size, 0));
    let reading = bytesDone;
    for (const bytes of inFlight.values()) reading += bytes;
    options.onProgress({ file: groups[s]![p.file] ?? groups[s]![0]!, bytesRead: reading, bytesTotal, records: records + p.records, sessions: { done, total: groups.length } });
  };
  const run = (s: number, claimed?: string[]): Promise<PoolResult> =>
    pool.run({ inputs: groups[s]!.map((i) => inputs[i]!), ...(claimed !== undefined && { claimed }) }, { onProgress: progressOf(s), first: claimed !== undefined });
  // A settled session's entry is cleared: its result must not outlive its fold.
  const started: (Promise<PoolResult> | null)[] = [];
  const order = new SessionOrder();
  try {
    await Promise.race([shownFirst, new Promise((resolve) => setTimeout(resolve, FIRST_ROWS_WAIT_MS))]);
    for (let s = 0; s < groups.length; s++) {
      signal.throwIfAborted();
      while (started.length < Math.min(groups.length, s + pool.size * 2)) started.push(run(started.length));
      let result = await started[s]!;
      started[s] = null;
      if ('done' in result) {
        // In session order: a session holding calls an earlier one counted is read again with their keys.
        const claimed = order.settle(result.done.keys);
        if (claimed.length > 0) result = await run(s, claimed);
      }
      const paths = groups[s]!.map((i) => pathOf(inputs[i]!));
      if ('done' in result) {
        mergeFolder(folder, result.done.folder);
        for (const file of result.done.folder.files) records += file.records;
        skipped.push(...emptyFilesOf(result.done.session, paths));
        shown[s] = { parts: result.done.folder.parts, group: groups[s]! };
      } else {
        skipped.push(failedSessionLine(paths, result.failed));
        shown[s] = { parts: [], group: groups[s]! };
      }
      inFlight.delete(s);
      bytesDone += bytesOf[s]!;
      done++;
      view.changed();
    }
  } finally {
    view.stop();
    stopUsage();
    signal.removeEventListener('abort', stopUsage);
    pool.close();
    for (const pending of started) pending?.catch(() => undefined);
  }
  await rows;
  signal.throwIfAborted();
  return folderViewOf(shown as ShownSession[], { files: inputs.length, skipped, record: recordJson(folderRecord(folder)) });
}
