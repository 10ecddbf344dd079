// The importer registry. Two kinds of importer:
//  - wire importers turn ONE request body into one ParsedRequest (a record of a log, a batch line, ...);
//  - transcript importers turn a WHOLE file (an agent's session log) into the request sequence it implies.
// The reader asks the transcript importers first (by file name, then by the structure of the first records) and
// falls back to wire records. To add a transcript format: write `src/core/formats/<name>.ts` exporting a
// TranscriptImporter and append it to TRANSCRIPT_IMPORTERS below; nothing else changes.

import type { ParsedRequest, ReadError, WireFormat } from '../model.ts';
import type { JsonObject } from '../input/json-value.ts';
import { importAnthropicMessages } from './anthropic-messages.ts';
import { importOpenAiChat } from './openai-chat.ts';
import { importOpenAiResponses } from './openai-responses.ts';
import type { ImportContext, TextStore } from './segments.ts';
import type { WorkBudget } from '../input/budget.ts';
import { claudeCodeImporter } from './claude-code.ts';
import { codexRolloutImporter } from './codex-rollout.ts';
import { geminiCliImporter } from './gemini-cli.ts';
import { clineTaskImporter } from './cline-task.ts';
import { piSessionImporter } from './pi-session.ts';

export type WireImporter = (body: JsonObject, ctx: ImportContext) => ParsedRequest;

/** `--format` values as the CLI and the library spell them, and the wire format each names ('auto': detect). */
export type FormatOption = 'anthropic' | 'anthropic-messages' | 'openai' | 'openai-chat' | 'openai-responses' | 'auto';
export const FORMAT_OPTIONS: Readonly<Record<FormatOption, WireFormat | 'auto'>> = {
  anthropic: 'anthropic-messages',
  'anthropic-messages': 'anthropic-messages',
  openai: 'openai-chat',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  auto: 'auto',
};

/** The wire format a `--format` value names, or undefined for a value that is none of them. */
export const formatOption = (value: string): WireFormat | 'auto' | undefined =>
  Object.hasOwn(FORMAT_OPTIONS, value) ? FORMAT_OPTIONS[value as FormatOption] : undefined;

export const WIRE_IMPORTERS: Readonly<Record<WireFormat, WireImporter>> = {
  'anthropic-messages': importAnthropicMessages,
  'openai-chat': importOpenAiChat,
  'openai-responses': importOpenAiResponses,
};

/** One parsed record of a transcript file (JSONL line, 1-based). */
export interface TranscriptRecord {
  line: number;
  value: unknown;
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

export const FIRST_RECORDS_FOR_DETECTION = 8;

/** Transcript importers, asked in order. */
export const TRANSCRIPT_IMPORTERS: TranscriptImporter[] = [codexRolloutImporter, clineTaskImporter, piSessionImporter, geminiCliImporter, claudeCodeImporter];

/** Whether files of this format (`AnalysisFile.format`) record their compactions (`recordsCompactions`). */
export function recordsCompactions(format: string | null | undefined): boolean {
  return TRANSCRIPT_IMPORTERS.some((importer) => importer.id === format && importer.recordsCompactions === true);
}

export function transcriptImporterByName(fileName: string, importers: readonly TranscriptImporter[] = TRANSCRIPT_IMPORTERS): TranscriptImporter | null {
  return importers.find((importer) => importer.matchesName(fileName)) ?? null;
}

export function transcriptImporterByRecords(
  first: readonly TranscriptRecord[],
  importers: readonly TranscriptImporter[] = TRANSCRIPT_IMPORTERS,
): TranscriptImporter | null {
  return importers.find((importer) => importer.matchesRecords(first)) ?? null;
}
