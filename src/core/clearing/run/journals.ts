// The journal pass: journals read one at a time (a duplicate session id is found from the headers first, so a
// skipped journal's body is never read), each replayed whole or skipped with a located reason, its boundaries
// marked skipped or evaluated, its results matched against the sidecar.
import {
  BOUNDARY_SKIP_REASONS,
  JOURNAL_SKIP_REASONS,
  type BoundarySkipReason,
  type JournalSkipReason,
} from '../codes.ts';
import { headerSkip, parseJournal, readHeader, type JournalHeaderFacts, type JournalSkip } from '../journal/parse.ts';
import { ReplayError, replayJournal, type JournalReplay } from '../journal/replay.ts';
import { SidecarQueryError, type SidecarReader } from '../sidecar.ts';
import type { SimBoundary } from '../simulate.ts';
import { pendingResults, type Contribution, type PendingResult } from './pending.ts';

/**
 * A journal read on demand, so only one journal's text is in memory at a time: the header line for the
 * duplicate pre-pass, then the whole text when its turn comes. null = could not be read.
 */
export interface JournalSource {
  firstLine(): string | null;
  text(): string | null;
}

/** A located note for the terminal: which journal (1-based position), line and field; never content. */
export interface JournalDiagnostic {
  journal: number;
  reason: JournalSkipReason;
  line: number | null;
  field: string | null;
}

/** What the journal pass found: the contributing journals and the counts of what was skipped and why. */
export interface JournalPass {
  contributions: Contribution[];
  diagnostics: JournalDiagnostic[];
  skippedJournals: Record<JournalSkipReason, number>;
  skippedBoundaries: Record<BoundarySkipReason, number>;
  boundaryTotal: number;
  checkpointed: number;
  keepAllConversations: number;
}

function zeroCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const key of keys) out[key] = 0;
  return out;
}

/** The pass over no journal (also what remains when the sidecar fails under a query: nothing read counts). */
export function emptyJournalPass(): JournalPass {
  return {
    contributions: [],
    diagnostics: [],
    skippedJournals: zeroCounts(JOURNAL_SKIP_REASONS),
    skippedBoundaries: zeroCounts(BOUNDARY_SKIP_REASONS),
    boundaryTotal: 0,
    checkpointed: 0,
    keepAllConversations: 0,
  };
}

type Source = string | null | JournalSource;

/** Every journal's header, and how many journals carry each session id. */
function readHeaders(journals: readonly Source[]): { headers: (JournalHeaderFacts | null)[]; idCounts: Map<string, number> } {
  const headers = journals.map((source) => {
    const line = source === null || typeof source === 'string' ? source : source.firstLine();
    return line === null ? null : readHeader(line);
  });
  const idCounts = new Map<string, number>();
  for (const header of headers) {
    if (header !== null) idCounts.set(header.sessionId, (idCounts.get(header.sessionId) ?? 0) + 1);
  }
  return { headers, idCounts };
}

/** One journal replayed with its results matched, or why it is skipped. Throws SidecarQueryError. */
function replayOne(text: string, sidecar: SidecarReader): { replay: JournalReplay; results: PendingResult[] } | { skip: JournalSkip } {
  const parsed = parseJournal(text);
  if (!parsed.ok) return { skip: parsed.skip };
  try {
    const replay = replayJournal(parsed.journal);
    return { replay, results: pendingResults(replay, sidecar) };
  } catch (error) {
    if (error instanceof SidecarQueryError) throw error;
    if (error instanceof ReplayError) return { skip: { reason: error.reason, line: error.line, field: error.field } };
    return { skip: { reason: 'invalid', line: null, field: 'replay' } };
  }
}

/**
 * Reads the journals in order. `routed` says whether an API has a route. Throws SidecarQueryError when the
 * sidecar fails under a query (the caller then counts nothing read).
 */
export function readJournals(journals: readonly Source[], sidecar: SidecarReader, routed: (api: string) => boolean): JournalPass {
  const pass = emptyJournalPass();
  const { headers, idCounts } = readHeaders(journals);
  const boundaryOwner = new Map<string, number>();
  journals.forEach((source, index) => {
    const header = headers[index] ?? null;
    const recordSkip = (found: JournalSkip) => {
      pass.skippedJournals[found.reason]++;
      pass.diagnostics.push({ journal: index + 1, ...found });
    };
    // Header-only skips first, so a skipped journal's body is never read.
    const early = headerSkip(header);
    if (early) return recordSkip(early);
    if ((idCounts.get(header?.sessionId ?? '') ?? 0) > 1) return recordSkip({ reason: 'duplicate', line: 1, field: 'id' });
    const text = source === null || typeof source === 'string' ? source : source.text();
    if (text === null) return recordSkip({ reason: 'invalid', line: null, field: 'unreadable' });
    const replayed = replayOne(text, sidecar);
    if ('skip' in replayed) return recordSkip(replayed.skip);
    const { replay, results } = replayed;
    // Boundary skips are decided only now, after the whole replay succeeded.
    const boundaries = markBoundaries(replay, { owner: boundaryOwner, routed });
    for (const boundary of boundaries) {
      pass.boundaryTotal++;
      if (boundary.skip !== null) pass.skippedBoundaries[boundary.skip]++;
      if (!boundaryOwner.has(boundary.key)) boundaryOwner.set(boundary.key, index);
    }
    const keepAll = sidecar.policy(replay.sessionId) === 'keep_all';
    if (keepAll) pass.keepAllConversations++;
    if (sidecar.checkpoints(replay.sessionId) > 0) pass.checkpointed++;
    const { results: _dropped, ...rest } = replay;
    pass.contributions.push({ ordinal: pass.contributions.length, replay: rest, results, boundaries, keepAll });
  });
  return pass;
}

/** Each boundary of a replay with why it is skipped (no owner, no route, first owned by an earlier journal) or null. */
function markBoundaries(
  replay: JournalReplay,
  seen: { owner: ReadonlyMap<string, number>; routed: (api: string) => boolean },
): SimBoundary[] {
  const localKeys = new Set<string>();
  return replay.boundaries.map((boundary) => {
    let skip: BoundarySkipReason | null = null;
    if (boundary.api === null) skip = 'owner_missing';
    else if (!seen.routed(boundary.api)) skip = 'unsupported_api';
    else if (!localKeys.has(boundary.key) && seen.owner.has(boundary.key)) skip = 'duplicate';
    localKeys.add(boundary.key);
    return { ...boundary, skip };
  });
}
