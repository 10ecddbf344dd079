// Fixed numbers of the clearing model and gate. The seed fixes them; nothing here is configurable.

/** Pressure band: a boundary is pressured when PRESSURE_FLOOR × T ≤ E < T. */
export const PRESSURE_FLOOR = 0.75;
export const MIN_PRESSURED_BOUNDARIES = 10;
export const MIN_CONVERSATIONS = 3;
export const MIN_COLD_PRESSURED_BOUNDARIES = 10;
/** Share of cold pressured boundaries that must admit at least ADMISSION_TOKENS new lower-bound net tokens. */
export const MIN_ADMITTING_SHARE = 0.25;
export const ADMISSION_TOKENS = 20_000;
export const MIN_PRESSURE_REDUCTION = 0.15;
/** Largest allowed modeled cost increase (on/off − 1) at every retrieval sensitivity in both views. */
export const MAX_COST_INCREASE = 0.05;
export const MAX_UNINTENDED_DIFFERENCES = 0;
/** More than this share of fallback-priced requests defers the API. */
export const MAX_FALLBACK_SHARE = 0.05;
/** A proven result set must be matched in the sidecar at least this often. */
export const RETENTION_COVERAGE_FLOOR = 0.5;

/** Per-conversation budget of retained bytes that cleared results may pin. */
export const CONVERSATION_BUDGET_BYTES = 8 * 1024 * 1024;
/** Completed prompt runs that must separate two clearing batches in one conversation. */
export const BATCH_SEPARATION_RUNS = 5;
/** Protected window: results of the latest prompt turns and the latest tool starts stay intact. */
export const PROTECTED_RECENT_TURNS = 3;
export const PROTECTED_RECENT_STARTS = 10;

/** Retrieval rates always reported and cost-gated, next to the supplied one. */
export const RETRIEVAL_SENSITIVITIES = [0, 0.05, 0.2] as const;
export const DEFAULT_RETRIEVAL_RATE = 0.05;

/** pi's heuristic: UTF-16 code units / 4, rounded up; an image counts 1,200 tokens. */
export const CHARS_PER_TOKEN = 4;
export const IMAGE_TOKENS = 1200;
/** The summarizer sees at most 2,000 characters of a tool result: 500 heuristic tokens. */
export const SUMMARY_TOKENS_PER_CLEARED_RESULT = 500;

/**
 * What replaces a cleared result in the modeled on-arm context. Its heuristic size is subtracted from each
 * result's tokens to give net savings.
 */
export const CLEARED_PLACEHOLDER = '[tool result cleared; retrievable by id]';
/** Output tokens of the extra assistant request that asks for a cleared result back (one short tool call). */
export const RETRIEVAL_CALL_OUTPUT_TOKENS = 60;

/**
 * Guard against huge sidecars, checked before the file is read: sql.js holds the whole database in memory, next
 * to the bytes it was opened from (a 1.9 GB file took 5.9 GB), and the integrity check reads every page.
 */
export const SIDECAR_BYTE_LIMIT = 512 * 1024 * 1024;
/** Guard against huge sidecars: more tool-result rows than this is refused as invalid input. */
export const SIDECAR_ROW_LIMIT = 2_000_000;
/** Guard against pathological journals: more entries than this in one file makes it invalid. */
export const JOURNAL_ENTRY_LIMIT = 5_000_000;

export function heuristicTokens(utf16Length: number): number {
  return Math.ceil(utf16Length / CHARS_PER_TOKEN);
}
