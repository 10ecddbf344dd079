// `ctxray analyze <folder>` by default: the folder's summary from recorded usage alone (src/core/folder/usage-
// folder.ts), each session read once in turn with one registry of the calls counted (a copy in a later file is
// dropped), so it runs at the speed of reading. --since / --until keep the requests sent in the window; -v and
// --by print every table, each session's row streamed as it settles; the default is one screen.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import type { InputFile } from '../../core/input/index.ts';
import { lazyFileStream } from '../fs/folder-inputs.ts';
import type { FastLines } from '../../core/folder/claude-line.ts';
import { emptyUsageFolder, foldSessionUsage, type UsageFolder } from '../../core/folder/usage-folder.ts';
import { SeenCalls } from '../../core/input/seen-calls.ts';
import { wallText } from '../../core/period/index.ts';
import { PRICED_ON } from '../../core/pricing/table.ts';
import { renderUsageFolderBrief } from '../report/folder-usage-brief.ts';
import { renderUsageFolderReport } from '../report/folder-usage.ts';
import { periodOf, type AnalyzeArgs } from './analyze-args.ts';
import { caught, noRequestFound, type FolderRun, eachSession, sessionOptions, streamRows, type LoopBase, type SessionInput } from './folder-run.ts';

/** Node's UTF-8 check and Latin-1 decoding, for the Claude Code lines the usage pass reads without decoding them. */
export const NODE_FAST_LINES: FastLines = {
  validUtf8: (bytes) => isUtf8(bytes),
  latin1: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'),
};

/** Files up to this size are read in one call when the pass reaches them (fewer, larger chunks); larger ones are streamed. */
const WHOLE_FILE_BYTES = 32 * 1024 * 1024;

/** One stream chunk: the whole file, read when first pulled; unreadable reads as empty, as lazyFileStream has it. */
function wholeFile(full: string): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let bytes: Buffer | null = null;
      try {
        bytes = fs.readFileSync(full);
      } catch {
        // Gone or unreadable since it was listed: no bytes, reported as the streamed read reports it.
      }
      // The Buffer itself: its indexOf (the line splitter's search for line feeds) is native, a plain Uint8Array's is not.
      if (bytes !== null && bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** The session's files, each opened when the read reaches it. */
const usageInputs = (session: SessionInput): InputFile[] =>
  session.files.map((file) => ({ name: file.name, bytes: file.size <= WHOLE_FILE_BYTES ? wholeFile(file.full) : lazyFileStream(file.full), size: file.size, folderPath: file.folderPath }));

/** Reads every session's recorded usage; returns the exit status. */
export async function usageFolder(args: AnalyzeArgs, run: FolderRun, loop: LoopBase): Promise<number> {
  const folder = emptyUsageFolder();
  const seenCalls = new SeenCalls();
  const period = periodOf(args);
  const window = period.since === null && period.until === null ? null : { since: period.since, until: period.until };
  const full = args.verbose || period.by !== null;
  const status = await eachSession<null>(
    {
      ...loop,
      ahead: 1,
      start: async (session, onProgress) => {
        try {
          const read = await foldSessionUsage(folder, () => usageInputs(session), { ...sessionOptions(args), seenCalls, window, signal: run.signal, onProgress, fastLines: NODE_FAST_LINES });
          return { value: null, session: read.read, parts: read.parts };
        } catch (error) {
          return caught(error, session, run.signal);
        }
      },
      fold: () => undefined,
      ...(full && { onRows: (parts) => streamRows(run.io, parts) }),
    },
    loop.skipped,
  );
  return status ?? usageReport(args, run, { folder, skipped: loop.skipped });
}

/** The window as the brief says it, in the zone of the report. */
function windowText(args: AnalyzeArgs): string | null {
  const { since, until, zone } = periodOf(args);
  if (since === null && until === null) return null;
  const from = since === null ? '' : `from ${wallText(since, zone)}`;
  const to = until === null ? '' : `before ${wallText(until, zone)}`;
  return `${[from, to].filter((part) => part !== '').join(' ')} (${zone})`;
}

function usageReport(args: AnalyzeArgs, run: FolderRun, result: { folder: UsageFolder; skipped: readonly string[] }): number {
  const { io } = run;
  const { folder, skipped } = result;
  if (skipped.length > 0) io.stderr(`ctxray analyze: skipped in folder input:\n${skipped.map((line) => `  ${line}`).join('\n')}\n`);
  if (folder.requests === 0) {
    const window = windowText(args);
    return noRequestFound(io, folder.errors, (file) => folder.files[file]?.name ?? `file ${file + 1}`, window === null ? '' : ` sent ${window}`);
  }
  const period = periodOf(args);
  if (args.verbose || period.by !== null) io.stdout(renderUsageFolderReport(folder, { color: run.color, pricedOn: PRICED_ON }));
  else io.stdout(renderUsageFolderBrief(folder, { color: run.color, zone: period.zone, pricedOn: PRICED_ON, window: windowText(args) }));
  return 0;
}
