// Reading input for the app: a source's bytes into the worker, the messages an analysis gives (records skipped,
// nothing readable), and a dropped folder sorted into a clearing case or request logs.
import { configFolderOf } from '../core/agents/locations.ts';
import { formatCount } from '../render/format.ts';
import type { ClearingRolesAnswer } from '../worker/handlers/clearing-roles.ts';
import type { AnalyzeOptions } from '../worker/protocol.ts';
import type { InputBlob, ProgressInfo } from '../worker/inputs.ts';
import type { AnalysisView } from '../worker/view-model.ts';
import { fetchExample } from './examples.ts';
import { isLogFileName, readChosenFolder, readDroppedEntries } from './folder-drop.ts';
import { folderReadState } from './folder-open.ts';
import type { ProgressHandle } from './progress.ts';
import type { Message } from './notice.ts';
import type { Source } from './screen.ts';
import type { WorkerClient } from './worker-client.ts';

/** A dropped folder of at most this many files is checked for a clearing case (journals, sidecar, routes, ...). */
const MAX_CASE_FILES = 500;

/** The blobs a source is read from (an example is fetched first, under `signal`). */
export async function inputsOf(source: Source, progress: ProgressHandle, signal: AbortSignal): Promise<InputBlob[]> {
  if (source.kind === 'files') return source.inputs;
  if (source.kind === 'paste') return [{ name: 'pasted text', blob: new Blob([source.text], { type: 'text/plain' }) }];
  progress.phase(`Fetching examples/${source.entry.file}…`);
  return [{ name: source.entry.file, blob: await fetchExample(source.entry, signal) }];
}

export interface AnalyzeRequest {
  inputs: InputBlob[];
  options: AnalyzeOptions;
  progress: ProgressHandle;
  signal: AbortSignal;
}

export function analyzeInputs(client: WorkerClient, { inputs, options, progress, signal }: AnalyzeRequest): Promise<AnalysisView> {
  const names = inputs.map((i) => i.name);
  const onProgress = (p: ProgressInfo): void => progress.update(p, names[p.file] ?? '', p.file === names.length - 1);
  return client.analyze(inputs, options, onProgress, signal);
}

/** "file, line N: message" for each error of an analysis (the first 50, then how many more). */
export function locatedErrors(view: AnalysisView, names: readonly string[]): string[] {
  return view.errors.slice(0, 50).map((e) => {
    const file = names[e.file] ?? view.files[e.file]?.name ?? `file ${e.file + 1}`;
    // A JSON array's errors hold a record number and say "record N (line L)" themselves.
    return e.line > 0 && e.recordNumber === undefined ? `${file}, line ${e.line}: ${e.message}` : `${file}: ${e.message}`;
  }).concat(view.errors.length > 50 ? [`… and ${formatCount(view.errors.length - 50)} more`] : []);
}

/** What an analysis that opened should tell: nothing could be read, or some records were skipped; else null. */
export function openedMessage(label: string, view: AnalysisView, names: readonly string[]): Message | null {
  if (view.requests.length === 0) return { kind: 'error', text: `${label}: no request could be read.`, details: locatedErrors(view, names) };
  if (view.errors.length === 0) return null;
  const n = view.errors.length;
  return {
    kind: 'info',
    text: `${formatCount(n)} record${n === 1 ? '' : 's'} could not be read and ${n === 1 ? 'was' : 'were'} skipped; the rest is analyzed.`,
    details: locatedErrors(view, names),
  };
}

export type DroppedFolder =
  | { kind: 'clearing'; inputs: InputBlob[]; roles: ClearingRolesAnswer['roles'] }
  /** `sessions`: the sessions folder read of an agent's config folder (`projects` of a dropped ~/.claude). */
  | { kind: 'logs'; inputs: InputBlob[]; skipped: string[]; sessions?: string }
  | { kind: 'empty'; skipped: string[] };

/** A folder dropped (its entries) or chosen with the folder picker (its files, with their webkitRelativePath). */
export type FolderSource = { entries: FileSystemEntry[] } | { files: readonly File[] };

/** The folder's name on screen: the dropped entries' names, or the chosen folder's. */
export function folderLabel(source: FolderSource): string {
  if ('entries' in source) return source.entries.map((entry) => entry.name).join(', ');
  return source.files[0]?.webkitRelativePath.split('/')[0] || 'the chosen folder';
}

/**
 * A dropped or chosen folder: a clearing case (journals and a sidecar, told by content), or every log file in it,
 * recursively. What could not be read is listed, never fatal.
 */
export async function readDroppedFolder(client: WorkerClient, source: FolderSource): Promise<DroppedFolder> {
  folderReadState('listing');
  const dropped = await sortDroppedFolder(client, source);
  // A folder of logs is read next (src/ui/folder-open.ts); anything else is done with here.
  if (dropped.kind !== 'logs') folderReadState('done');
  return dropped;
}

async function sortDroppedFolder(client: WorkerClient, source: FolderSource): Promise<DroppedFolder> {
  const all = 'entries' in source ? await readDroppedEntries(source.entries, undefined, () => true) : readChosenFolder(source.files, undefined, () => true);
  if (all.inputs.length > 0 && all.inputs.length <= MAX_CASE_FILES) {
    try {
      const { roles, isCase } = await client.ask('clearing-roles', { files: all.inputs });
      if (isCase) return { kind: 'clearing', inputs: all.inputs, roles };
    } catch {
      // Not sorted by role: read the folder as request logs.
    }
  }
  const logs = all.inputs.filter((input) => isLogFileName(input.name));
  const oneFolder = 'entries' in source ? source.entries.length === 1 : true;
  const { inputs, sessions } = oneFolder ? configSessions(logs) : { inputs: logs, sessions: null };
  if (inputs.length === 0) return { kind: 'empty', skipped: all.skipped };
  return { kind: 'logs', inputs, skipped: all.skipped, ...(sessions !== null && { sessions }) };
}

/**
 * An agent's config folder (~/.claude, CODEX_HOME: core/agents/locations.ts) read as its sessions folder alone, as
 * the CLI reads it: the rest is settings, prompt history and credentials. `folderPath` is then the path below it.
 */
function configSessions(inputs: InputBlob[]): { inputs: InputBlob[]; sessions: string | null } {
  const topLevel = new Set(inputs.map((input) => (input.folderPath ?? input.name).split('/')[0]!));
  const config = configFolderOf(topLevel);
  if (config === null) return { inputs, sessions: null };
  const prefix = `${config.sessions}/`;
  const kept = inputs.flatMap((input) => (input.folderPath?.startsWith(prefix) ? [{ ...input, folderPath: input.folderPath.slice(prefix.length) }] : []));
  return { inputs: kept, sessions: config.sessions };
}
