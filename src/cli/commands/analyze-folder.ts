// `ctxray analyze <folder>`: every session below the folder read on its own — a Claude Code session with its
// subagents' transcripts, a Cline task's two parts, any other file alone (src/core/folder/groups.ts) — and folded
// into the folder's sums before the next is read, so memory is bounded by the largest session, not by the folder.
// By default from recorded usage alone (folder-usage-run.ts); --deep, --json and --fail-on analyse every session in
// full (folder-deep.ts). Files given beside the folder are sessions too (with their companions).
import fs from 'node:fs';
import path from 'node:path';
import { MAX_FOLDER_FILES, companionFiles, listFolderSessions, describeFsError, skipCauses, type FolderFile } from '../fs/folder-inputs.ts';
import { configFolderSessions } from '../agent-folders.ts';
import type { CliIO } from '../io.ts';
import type { AnalyzeArgs } from './analyze-args.ts';
import type { FolderRun, SessionInput } from './folder-run.ts';

export type { FolderRun } from './folder-run.ts';
import { usageFolder } from './folder-usage-run.ts';

/** Raised for what the folder run refuses before reading (exit 1, the message said). */
export class FolderUsageError extends Error {}

function sessionInputs(args: AnalyzeArgs, io: CliIO, skipped: string[]): SessionInput[] {
  const sessions: SessionInput[] = [];
  const given = new Set(args.inputs.filter((input) => input !== '-').map((input) => path.resolve(io.cwd, input)));
  for (const input of args.inputs) {
    if (input === '-') throw new FolderUsageError('- (stdin) cannot be read with a folder: give the folder alone');
    const full = path.resolve(io.cwd, input);
    let stats: fs.Stats;
    try {
      stats = fs.statSync(full);
      if (!stats.isDirectory()) fs.accessSync(full, fs.constants.R_OK);
    } catch (error) {
      throw new FolderUsageError(`cannot read ${input}: ${describeFsError(error)}`);
    }
    if (stats.isDirectory()) {
      // An agent's config folder (~/.claude): its sessions folder alone; the rest is settings, history, credentials.
      const config = configFolderSessions(full);
      if (config !== null) io.stderr(`ctxray analyze: ${input} is ${config.agent}'s config folder: reading the sessions in its ${config.name}/ only\n`);
      const shown = config === null ? input : path.join(input, config.name);
      const listing = config === null ? listFolderSessions(full, input) : listFolderSessions(config.sessions, shown);
      skipped.push(...listing.skipped);
      if (listing.leftOut > 0) skipped.push(`${shown}: ${listing.leftOut} more file(s) beyond the first ${MAX_FOLDER_FILES} left unread`);
      if (listing.sessions.length === 0) {
        const causes = listing.skipped.length > 0 ? ` (skipped: ${skipCauses(listing.skipped)})` : '';
        throw new FolderUsageError(`cannot read ${shown}: no readable .jsonl, .json or .gz file in it${causes}`);
      }
      for (const group of listing.sessions) sessions.push({ files: group.map((file) => ({ ...file, inFolder: true })) });
      continue;
    }
    const size = stats.size;
    const companions = companionFiles(full, input).filter((companion) => !given.has(companion.full));
    const relative = (file: FolderFile) => path.relative(path.dirname(full), file.full).split(path.sep).join('/');
    sessions.push({
      files: [
        { name: input, full, size, folderPath: path.basename(full), inFolder: false },
        ...companions.map((companion) => ({ ...companion, folderPath: relative(companion), inFolder: true })),
      ],
    });
  }
  return sessions;
}

/** Reads every session; returns the exit status (a work limit or unreadable named input: 1, said on stderr). */
export async function analyzeFolderInputs(args: AnalyzeArgs, run: FolderRun): Promise<number> {
  const skipped: string[] = [];
  const sessions = sessionInputs(args, run.io, skipped);
  args.folderFiles = sessions.flatMap((session) => session.files.flatMap((file) => (file.inFolder ? [file.full] : [])));
  const names = sessions.flatMap((session, s) => session.files.map((file) => `[${(s + 1).toLocaleString('en-US')}/${sessions.length.toLocaleString('en-US')}] ${file.name}`));
  const loop = { io: run.io, signal: run.signal, sessions, progress: run.progress(names), skipped };
  // The record, --fail-on and --deep need each session's full analysis; the summary alone is recorded usage.
  if (!needsDeep(args)) return usageFolder(args, run, loop);
  // Loaded only here: the summary starts without the full analysis' modules.
  const { deepFolder } = await import('./folder-deep.ts');
  return deepFolder(args, run, loop);
}

export const needsDeep = (args: AnalyzeArgs): boolean => args.deep === true || args.json !== null || args.failOn !== undefined;

/** Whether the inputs hold a folder (then every input is read one session at a time). */
export function hasFolderInput(args: AnalyzeArgs, io: CliIO): boolean {
  return args.inputs.some((input) => {
    if (input === '-') return false;
    try {
      return fs.statSync(path.resolve(io.cwd, input)).isDirectory();
    } catch {
      return false;
    }
  });
}
