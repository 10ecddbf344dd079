// Reads one pi session file (text) into a validated entry tree, or says why the journal is skipped.
// Versions 2 and 3 are read natively; version 1 gets the same in-memory migration pi applies on load
// (linear parent chain, compaction index → entry id), with ids derived from the entry position so runs are
// deterministic. Rules and their observable triggers are documented in docs/clearing/journals.md.

import type { JournalSkipReason } from '../codes.ts';
import { JOURNAL_ENTRY_LIMIT } from '../thresholds.ts';
import { nestingOverflowOffset } from '../../input/depth.ts';
import { MAX_NESTING_DEPTH } from '../../input/limits.ts';

export type Json = Record<string, unknown>;

export interface JournalEntry {
  id: string;
  parentId: string | null;
  type: string;
  /** 1-based line in the file, for located errors. */
  line: number;
  raw: Json;
}

export interface ParsedJournal {
  sessionId: string;
  version: 1 | 2 | 3;
  /** Entries in file order (header excluded). */
  entries: JournalEntry[];
  byId: Map<string, JournalEntry>;
}

/** A skip with where it was detected: a line number and a fixed field name, never file content. */
export interface JournalSkip {
  reason: JournalSkipReason;
  line: number | null;
  field: string | null;
}

export type ParseOutcome = { ok: true; journal: ParsedJournal } | { ok: false; skip: JournalSkip };

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function skip(reason: JournalSkipReason, line: number | null, field: string | null): ParseOutcome {
  return { ok: false, skip: { reason, line, field } };
}

/** Splits JSONL text into non-blank lines with their 1-based numbers (CRLF tolerated). */
function nonBlankLines(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let start = 0;
  let line = 1;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    let content = text.slice(start, end);
    if (content.endsWith('\r')) content = content.slice(0, -1);
    if (content.trim() !== '') out.push({ text: content, line });
    start = end + 1;
    line++;
  }
  return out;
}

export interface JournalHeaderFacts {
  sessionId: string;
  version: number;
  imported: boolean;
  inherited: boolean;
}

/** Reads only the first non-blank line; used for the duplicate-session pre-pass and cheap header skips. */
export function readHeader(text: string): JournalHeaderFacts | null {
  const newline = text.indexOf('\n');
  const first = (newline === -1 ? text : text.slice(0, newline)).trim();
  let header: unknown;
  try {
    header = JSON.parse(first);
  } catch {
    return null;
  }
  return headerFacts(header);
}

/** The facts of a parsed header line, or null when it is not a session header. */
export function headerFacts(header: unknown): JournalHeaderFacts | null {
  if (!isObject(header) || header.type !== 'session' || typeof header.id !== 'string' || header.id === '') {
    return null;
  }
  const version = header.version === undefined ? 1 : header.version;
  return {
    sessionId: header.id,
    version: typeof version === 'number' ? version : NaN,
    imported: header.imported === true || typeof header.importedFrom === 'string',
    inherited:
      (typeof header.parentSession === 'string' && header.parentSession !== '') ||
      (typeof header.branchedFrom === 'string' && header.branchedFrom !== ''),
  };
}

/** Header-only verdict, in the documented order: invalid header, unsupported, imported, inherited. */
export function headerSkip(header: JournalHeaderFacts | null): JournalSkip | null {
  if (header === null) return { reason: 'invalid', line: 1, field: 'header' };
  if (header.version !== 1 && header.version !== 2 && header.version !== 3) {
    return { reason: 'unsupported', line: 1, field: 'version' };
  }
  if (header.imported) return { reason: 'imported', line: 1, field: 'imported' };
  if (header.inherited) return { reason: 'inherited', line: 1, field: 'parentSession_or_branchedFrom' };
  return null;
}

/** v1 ids: the entry's index in pi's entry array (header = 0), as 8 hex digits. */
function v1Id(index: number): string {
  return index.toString(16).padStart(8, '0');
}

/** One parsed line of a journal with its 1-based line number. */
export interface JournalRecord {
  line: number;
  value: unknown;
}

export function parseJournal(text: string): ParseOutcome {
  const records: JournalRecord[] = [];
  for (const { text: lineText, line } of nonBlankLines(text)) {
    // Bounded before parsing: replay walks entries recursively, and a line nested past the stack would abort it
    // without saying where.
    if (nestingOverflowOffset(lineText, MAX_NESTING_DEPTH) >= 0) {
      return records.length === 0 ? { ok: false, skip: headerSkip(null) as JournalSkip } : skip('invalid', line, 'depth');
    }
    try {
      records.push({ line, value: JSON.parse(lineText) });
    } catch {
      // An unreadable header is an invalid header; any later line is an invalid entry.
      return records.length === 0 ? { ok: false, skip: headerSkip(null) as JournalSkip } : skip('invalid', line, 'json');
    }
  }
  return parseJournalRecords(records);
}

/**
 * The entry tree of already-parsed lines. The transcript importer reads pi sessions through this too, with
 * `readForks`: a forked or imported session is skipped by the clearing analysis but is still a transcript to show.
 */
export function parseJournalRecords(records: readonly JournalRecord[], options: { readForks?: boolean } = {}): ParseOutcome {
  const header = records.length > 0 ? headerFacts(records[0]!.value) : null;
  const headerProblem = options.readForks && header !== null ? headerSkip({ ...header, imported: false, inherited: false }) : headerSkip(header);
  if (headerProblem) return { ok: false, skip: headerProblem };
  const { sessionId, version } = header as JournalHeaderFacts;

  if (records.length - 1 > JOURNAL_ENTRY_LIMIT) return skip('invalid', null, 'entry_limit');
  const entries: JournalEntry[] = [];
  const byId = new Map<string, JournalEntry>();
  const reading: EntryReading = { version, recordCount: records.length, previousId: null, byId };

  for (let index = 1; index < records.length; index++) {
    const entry = parseEntry(reading, records[index] as JournalRecord, index);
    if (isFailure(entry)) return entry.outcome;
    entries.push(entry);
    byId.set(entry.id, entry);
    reading.previousId = entry.id;
  }

  for (const entry of entries) {
    if (entry.parentId !== null && !byId.has(entry.parentId)) return skip('invalid', entry.line, 'parentId');
  }
  return { ok: true, journal: { sessionId, version: version as 1 | 2 | 3, entries, byId } };
}

/** What reading one entry needs from the journal around it. */
interface EntryReading {
  version: number;
  recordCount: number;
  previousId: string | null;
  byId: ReadonlyMap<string, JournalEntry>;
}

/** Why an entry is refused; a class, so it is never mistaken for a parsed line's own object. */
class Failure {
  constructor(readonly outcome: ParseOutcome) {}
}

function isFailure<T>(value: T | Failure): value is Failure {
  return value instanceof Failure;
}

function failure(reason: JournalSkipReason, line: number | null, field: string | null): Failure {
  return new Failure(skip(reason, line, field));
}

/** One entry line after the header, checked and brought to the current version's shape. */
function parseEntry(reading: EntryReading, record: JournalRecord, index: number): JournalEntry | Failure {
  const { value, line } = record;
  if (!isObject(value) || typeof value.type !== 'string') return failure('invalid', line, 'type');
  if (value.type === 'session') return failure('invalid', line, 'second_header');
  const ids = entryIds(reading, value, index, line);
  if (isFailure(ids)) return ids;
  if (reading.byId.has(ids.id)) return failure('invalid', line, 'id');
  let raw: Json | Failure = value;
  if (raw.type === 'message') raw = upgradedMessage(raw, reading.version, line);
  else if (raw.type === 'compaction') raw = upgradedCompaction(raw, reading, line);
  if (isFailure(raw)) return raw;
  return { id: ids.id, parentId: ids.parentId, type: raw.type as string, line, raw };
}

/** A v1 entry's id is its index and its parent the entry before it; later versions name both. */
function entryIds(reading: EntryReading, raw: Json, index: number, line: number): { id: string; parentId: string | null } | Failure {
  if (reading.version === 1) return { id: v1Id(index), parentId: reading.previousId };
  if (typeof raw.id !== 'string' || raw.id === '') return failure('invalid', line, 'id');
  if (raw.parentId !== null && typeof raw.parentId !== 'string') return failure('invalid', line, 'parentId');
  return { id: raw.id, parentId: raw.parentId as string | null };
}

function upgradedMessage(raw: Json, version: number, line: number): Json | Failure {
  if (!isObject(raw.message) || typeof raw.message.role !== 'string') return failure('invalid', line, 'message.role');
  // v2 → v3: pi renamed the hookMessage role to custom.
  if (version < 3 && raw.message.role === 'hookMessage') return { ...raw, message: { ...raw.message, role: 'custom' } };
  return raw;
}

function upgradedCompaction(raw: Json, reading: EntryReading, line: number): Json | Failure {
  if (typeof raw.summary !== 'string') return failure('invalid', line, 'compaction.summary');
  if (reading.version !== 1) {
    return typeof raw.firstKeptEntryId === 'string' ? raw : failure('invalid', line, 'compaction.firstKeptEntryId');
  }
  const kept = raw.firstKeptEntryIndex;
  // pi indexes its entry array, where 0 is the header: a kept index must name a later, non-header entry.
  if (typeof kept !== 'number' || !Number.isInteger(kept) || kept < 1 || kept >= reading.recordCount) {
    return failure('invalid', line, 'compaction.firstKeptEntryIndex');
  }
  return { ...raw, firstKeptEntryId: v1Id(kept) };
}

/** The context path root → leaf, where the leaf is the last entry (as pi resumes). Null on a cycle. */
export function contextPath(journal: ParsedJournal): JournalEntry[] | null {
  const leaf = journal.entries[journal.entries.length - 1];
  if (!leaf) return [];
  const path: JournalEntry[] = [];
  const seen = new Set<string>();
  let current: JournalEntry | undefined = leaf;
  while (current) {
    if (seen.has(current.id)) return null;
    seen.add(current.id);
    path.push(current);
    current = current.parentId === null ? undefined : journal.byId.get(current.parentId);
  }
  return path.reverse();
}
