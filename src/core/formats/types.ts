// The importer contracts (types only): what a wire importer and a transcript importer take and give. Kept apart
// from the registry's tables (registry.ts, wire.ts) so an importer can name them without importing the table that
// lists it.

import type { ParsedRequest, ReadError } from '../model.ts';
import type { JsonObject } from '../input/json-value.ts';
import type { ImportContext } from './segment-builder.ts';
import type { TextStore } from '../text/store.ts';
import type { WorkBudget } from '../input/budget.ts';
import type { SeenCalls } from '../input/seen-calls.ts';
import type { ListLines } from '../input/list-lines.ts';

export type WireImporter = (body: JsonObject, ctx: ImportContext) => ParsedRequest;

/** One parsed record of a transcript file (JSONL line, 1-based). */
export interface TranscriptRecord {
  line: number;
  value: unknown;
  /** The document breaks before its end (its error is already reported): its last entry may be incomplete. */
  cut?: boolean;
  /** Where the items of a document's lists start (input/list-lines.ts): an entry's own line. */
  listLines?: ListLines;
}

export interface TranscriptContext {
  store: TextStore;
  file: number;
  fileName: string;
  signal?: AbortSignal;
  /** The read's work limits: every rebuilt request is counted as it is made (input/budget.ts). */
  budget?: WorkBudget;
  /**
   * Shared by every file of one read: an importer whose requests need two files (a Cline task's history and UI
   * log) holds the first here until the second arrives. Keys are prefixed with the importer's id.
   */
  companions?: Map<string, unknown>;
  /** The names of every file of this read, so an importer can tell a partner file that will not come. */
  readFiles?: readonly string[];
  /** API calls already counted by earlier files (input/seen-calls.ts): an importer drops its copies of them. */
  seenCalls?: SeenCalls;
}

export interface TranscriptImport {
  /** `index` is assigned by the reader; set it to 0. `line` is the record the request was rebuilt at. */
  requests: ParsedRequest[];
  errors: ReadError[];
  /** Which agent session the file belongs to, when the transcript says (folder tables, subagent linking). */
  session?: SessionLink;
}

/** How a transcript file sits among an agent's sessions. Ids are for matching only; never written to reports. */
export interface SessionLink {
  /** The session id the records carry (a subagent's records carry its parent session's). */
  sessionId: string | null;
  /** Set on a subagent (sidechain) transcript: its agent id. */
  agentId: string | null;
  /** On a subagent: the tool_use id of the Task call in the parent session that started it, once linked. */
  startedBy: string | null;
  /** On a main session: agent id → tool_use id of the Task call that started that subagent. */
  subagentTasks: Record<string, string>;
  /**
   * The file is one piece of a session spread over many files (opencode: one file per message): every file of the
   * format with this session id is one row of the session tables, not a subagent of the first.
   */
  shared?: boolean;
  /** The project the session belongs to, when the agent names it in the file rather than by folder (opencode's projectID). */
  project?: string;
}

export interface TranscriptImporter {
  /** Short stable id, reported as the file's format (e.g. 'pi-session'). */
  id: string;
  /** Cheap check on the file name alone (e.g. `rollout-*.jsonl`); true claims the file without looking further. */
  matchesName(fileName: string): boolean;
  /** Check on the first parsed records (at most FIRST_RECORDS_FOR_DETECTION) when the name did not decide. */
  matchesRecords(first: readonly TranscriptRecord[]): boolean;
  /**
   * The format writes a record where the agent compacted the history, and the importer marks the call after it
   * (`transcript_compacted`): its compactions come from those records, never from a shrinking prompt.
   */
  recordsCompactions?: boolean;
  /**
   * Rebuild the requests. Gets every record of the file, in order; broken lines are already reported. May be
   * async, to give the event loop turns (and check ctx.signal) while rebuilding a long session.
   */
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport | Promise<TranscriptImport>;
  /** After the read's last file: report what is still held in `companions` (a part whose partner never came). */
  finishRead?(companions: Map<string, unknown>): ReadError[];
}
