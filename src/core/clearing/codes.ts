// Fixed vocabulary of the clearing analysis: every code, skip reason and enum that may appear in its output.
// Outputs carry only these strings (plus counts and modeled numbers), so the record can never leak input text.

/** Codes that make the whole snapshot incomplete (exit 2); the seed names exactly these four. */
export const GLOBAL_CODES = ['SNAPSHOT_CHANGED', 'SIDECAR_NOT_OFFLINE', 'INPUT_INVALID', 'NO_JOURNALS'] as const;
export type GlobalCode = (typeof GLOBAL_CODES)[number];

/** Per-API codes explaining a DEFER or STOP. */
export const API_CODES = [
  'SNAPSHOT_INCOMPLETE', 'WIRE_UNPROVEN', 'REPRESENTATIVENESS_INSUFFICIENT', 'COLD_EVIDENCE_INSUFFICIENT',
  'IDENTITY_UNPROVEN', 'PAYLOAD_UNQUALIFIED', 'RETENTION_UNMATCHED', 'RETENTION_COVERAGE_LOW',
  'USAGE_FALLBACK_EXCESSIVE', 'ADMISSION_LOW', 'PRESSURE_REDUCTION_LOW', 'COST_INCREASE_HIGH',
  'PAYLOAD_DIFFERENCES',
] as const;
export type ApiCode = (typeof API_CODES)[number];

export type Verdict = 'BUILD' | 'DEFER' | 'STOP';

/** APIs the routes file may name (pi-ai `KnownApi` values the seed supports). */
export const SUPPORTED_APIS = [
  'anthropic-messages', 'openai-responses', 'openai-codex-responses', 'openai-completions',
] as const;
export type SupportedApi = (typeof SUPPORTED_APIS)[number];

export function isSupportedApi(value: unknown): value is SupportedApi {
  return typeof value === 'string' && (SUPPORTED_APIS as readonly string[]).includes(value);
}

/** Why a whole journal contributed nothing. */
export const JOURNAL_SKIP_REASONS = [
  'unsupported', 'imported', 'inherited', 'interrupted', 'invalid', 'open', 'duplicate',
] as const;
export type JournalSkipReason = (typeof JOURNAL_SKIP_REASONS)[number];

/** Why one pre-turn boundary of a contributing journal was not evaluated. */
export const BOUNDARY_SKIP_REASONS = ['owner_missing', 'unsupported_api', 'duplicate'] as const;
export type BoundarySkipReason = (typeof BOUNDARY_SKIP_REASONS)[number];

/** Which input an INPUT_INVALID refers to; never the path or the offending value. */
export const INPUT_NAMES = [
  'arguments', 'journals', 'sidecar', 'routes', 'qualification', 'agent_config', 'app_allowlist',
] as const;
export type InputName = (typeof INPUT_NAMES)[number];

/** Why an input was rejected. */
export const INPUT_ERROR_REASONS = [
  'missing', 'unreadable', 'not_json', 'shape', 'value_out_of_range', 'duplicate_entry', 'unsupported_api',
  'sidecar_not_sqlite', 'sidecar_schema', 'sidecar_row_limit', 'sidecar_value', 'sidecar_corrupt',
  'sidecar_size_limit',
] as const;
export type InputErrorReason = (typeof INPUT_ERROR_REASONS)[number];

/** Categories a tool result is reported under (derived from its tool name or captured origin, never echoed). */
export const RESULT_CATEGORIES = ['file_read', 'effectful', 'instruction_history', 'web', 'mcp', 'other'] as const;
export type ResultCategory = (typeof RESULT_CATEGORIES)[number];

/** Why a result occurrence at an evaluated boundary was not cleared (unit: result-boundary occurrence). */
export const EXCLUSION_REASONS = [
  'protected_recent_turns', 'protected_recent_starts', 'error', 'image', 'opaque_or_mixed', 'not_completed',
  'excluded_name', 'identity_unproven', 'retention_unmatched', 'redacted', 'truncated', 'policy_keep_all',
  'no_net_saving', 'budget_exhausted', 'batch_spacing', 'not_cold', 'already_counted',
] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/** Plain-language meaning of every code, shown by the CLI's --help and the web panel. */
export const CODE_MEANINGS: Record<GlobalCode | ApiCode, string> = {
  SNAPSHOT_CHANGED: 'An input file or folder changed (size, modification time or inode) while it was being read.',
  SIDECAR_NOT_OFFLINE:
    'The sidecar is in WAL mode or has a -wal, -shm or -journal companion: it is not a checkpointed offline copy.',
  INPUT_INVALID: 'An input is missing, unreadable or does not follow its documented format.',
  NO_JOURNALS: 'No journal contributed: none was given, or every one was skipped.',
  SNAPSHOT_INCOMPLETE: 'The snapshot as a whole is incomplete, so no API can be judged beyond DEFER.',
  WIRE_UNPROVEN:
    'openai-codex-responses always defers: offline payload comparison cannot prove acceptance over its transport.',
  REPRESENTATIVENESS_INSUFFICIENT:
    'Fewer than 10 pressured pre-turn boundaries, or they come from fewer than 3 conversations.',
  COLD_EVIDENCE_INSUFFICIENT:
    'Fewer than 10 cold pressured boundaries, or they come from fewer than 3 conversations.',
  IDENTITY_UNPROVEN:
    'Plain-text results lack a proven read-only identity: none is proven (empty lower bound), or unproven ones could hold the opportunity a STOP would deny.',
  PAYLOAD_UNQUALIFIED: 'The qualification record is missing, stale, or does not cover this API.',
  RETENTION_UNMATCHED: 'Proven results exist but none matches a finalized sidecar row.',
  RETENTION_COVERAGE_LOW: 'Fewer than 50% of proven results match a finalized sidecar row.',
  USAGE_FALLBACK_EXCESSIVE: 'More than 5% of requests had no recorded usage and were priced with the uncached heuristic.',
  ADMISSION_LOW: 'Fewer than 25% of cold pressured boundaries admit at least 20,000 new lower-bound net tokens.',
  PRESSURE_REDUCTION_LOW: 'Modeled compaction pressure falls by less than 15%.',
  COST_INCREASE_HIGH:
    'Modeled total cost rises by more than 5% at some retrieval sensitivity in the list-price or quota-share view.',
  PAYLOAD_DIFFERENCES: 'Offline qualification found unintended payload differences for this API.',
};
