// A journal's results between replay and classification: retention looked up and sizes measured during the
// journal pass, so the result texts can be dropped right after. Identity-bearing fields live only here, in memory.
import type { JournalReplay, ResultFact } from '../journal/replay.ts';
import type { RetentionMatch, SidecarReader } from '../sidecar.ts';
import type { SimBoundary } from '../simulate.ts';
import { CLEARED_PLACEHOLDER, heuristicTokens } from '../thresholds.ts';
import { utf8Length } from '../../text/utf8.ts';

export const PLACEHOLDER_TOKENS = heuristicTokens(CLEARED_PLACEHOLDER.length);

export interface PendingResult {
  fact: Omit<ResultFact, 'text'>;
  retention: RetentionMatch | null;
  originalBytes: number;
  escapedBytes: number;
  escapedTokens: number;
  jsonEnvelope: boolean;
}

/** A journal whose whole replay succeeded, with its boundaries marked skipped or evaluated. */
export interface Contribution {
  ordinal: number;
  replay: Omit<JournalReplay, 'results'>;
  results: PendingResult[];
  boundaries: SimBoundary[];
  keepAll: boolean;
}

function isJsonEnvelope(text: string): boolean {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Retention lookups happen during the journal pass, so result texts can be dropped right after. */
export function pendingResults(replay: JournalReplay, sidecar: SidecarReader): PendingResult[] {
  return replay.results.map((result) => {
    const { text, ...fact } = result;
    if (text === null) {
      return { fact, retention: null, originalBytes: 0, escapedBytes: 0, escapedTokens: 0, jsonEnvelope: false };
    }
    const escaped = JSON.stringify(text);
    return {
      fact,
      retention: result.runId === null ? null : sidecar.match(replay.sessionId, result.runId, result.callId, text),
      originalBytes: utf8Length(text),
      escapedBytes: utf8Length(escaped),
      escapedTokens: heuristicTokens(escaped.length),
      jsonEnvelope: isJsonEnvelope(text),
    };
  });
}
