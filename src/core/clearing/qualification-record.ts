// The offline payload qualification record (`ctxray qualify` writes it, the clearing analyzer reads it) and the
// check the analyzer applies: a record only counts when it is well formed and was made with the installed pi-ai
// version from the current fixture/diff/reference sources. Pure: runs in the worker and the CLI alike.

export const QUALIFICATION_SCHEMA = 'ctxray.qualification/1';

/** The APIs qualification covers (the clearing analyzer's supported APIs). */
export const QUALIFICATION_APIS = [
  'anthropic-messages',
  'openai-responses',
  'openai-codex-responses',
  'openai-completions',
] as const;
export type QualificationApi = (typeof QUALIFICATION_APIS)[number];

export interface QualificationApiEntry {
  api: QualificationApi;
  /** The pi-ai registry model whose builder made the payloads (fixture model names, not user data). */
  provider: string;
  model: string;
  /** Fixture conversations built and diffed. */
  cases: number;
  /** Targeted result-text leaves located by the reference, and how many of them changed to the placeholder. */
  targetedLeaves: number;
  changedLeaves: number;
  unintendedDifferences: number;
  result: 'qualified' | 'unqualified';
  /** Set for Codex: offline builders cannot prove provider acceptance on its transport, so the analyzer DEFERs it. */
  alwaysDefers?: 'wire-unproven';
}

export interface QualificationRecord {
  schema: typeof QUALIFICATION_SCHEMA;
  /** The fixture conversations are synthetic; no user data went into this record. */
  fixtures: 'synthetic';
  piAiVersion: string;
  /** SHA-256 (hex) of the fixture-builder, diff and reference sources. Checked, never printed. */
  sourceDigest: string;
  /** fetch calls observed while building (must be 0: nothing is sent). */
  networkCalls: number;
  apis: QualificationApiEntry[];
}

export interface ExpectedQualification {
  piAiVersion: string;
  sourceDigest: string;
}

export type QualificationCheck =
  | {
      ok: true;
      piAiVersion: string;
      /** Per API in the record. `qualified` is the record's own result (0 unintended differences and every target cleared). */
      apis: Record<string, { unintendedDifferences: number; qualified: boolean }>;
    }
  | { ok: false; code: 'PAYLOAD_UNQUALIFIED'; why: string };

const VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;
const DIGEST_PATTERN = /^[0-9a-f]{64}$/;
const MAX_APIS = QUALIFICATION_APIS.length;

function unqualified(why: string): QualificationCheck {
  return { ok: false, code: 'PAYLOAD_UNQUALIFIED', why };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Reads an own property only, so keys like "__proto__" or "constructor" in parsed JSON cannot inject values. */
function own(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function isCount(value: unknown, minimum: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum;
}

function isQualificationApi(value: unknown): value is QualificationApi {
  return typeof value === 'string' && (QUALIFICATION_APIS as readonly string[]).includes(value);
}

/** Validates one apis[] entry; returns the located problem or null. */
function entryProblem(entry: unknown, index: number): string | null {
  const at = `apis[${index}]`;
  if (!isPlainObject(entry)) return `${at}: must be an object`;
  if (!isQualificationApi(own(entry, 'api'))) return `${at}.api: must be one of ${QUALIFICATION_APIS.join(', ')}`;
  if (!isCount(own(entry, 'cases'), 1)) return `${at}.cases: must be an integer >= 1`;
  const changed = own(entry, 'changedLeaves');
  const unintended = own(entry, 'unintendedDifferences');
  if (!isCount(changed, 0)) return `${at}.changedLeaves: must be an integer >= 0`;
  if (!isCount(unintended, 0)) return `${at}.unintendedDifferences: must be an integer >= 0`;
  const result = own(entry, 'result');
  if (result !== 'qualified' && result !== 'unqualified') return `${at}.result: must be "qualified" or "unqualified"`;
  if (result === 'qualified' && (unintended !== 0 || changed === 0)) {
    return `${at}.result: "qualified" requires 0 unintendedDifferences and at least one changed leaf`;
  }
  return null;
}

type ApiResults = Record<string, { unintendedDifferences: number; qualified: boolean }>;

/** Each API entry's result, or the first problem with an entry. */
function apiResults(apis: readonly unknown[], networkCalls: number | undefined): ApiResults | string {
  const byApi: ApiResults = {};
  for (let i = 0; i < apis.length; i++) {
    const problem = entryProblem(apis[i], i);
    if (problem) return problem;
    const entry = apis[i] as Record<string, unknown>;
    const api = own(entry, 'api') as QualificationApi;
    if (networkCalls !== undefined && networkCalls > 0 && own(entry, 'result') === 'qualified') {
      return `apis[${i}].result: nothing qualifies when the run made network calls`;
    }
    if (Object.prototype.hasOwnProperty.call(byApi, api)) return `apis[${i}].api: ${api} appears more than once`;
    byApi[api] = {
      unintendedDifferences: own(entry, 'unintendedDifferences') as number,
      qualified: own(entry, 'result') === 'qualified',
    };
  }
  return byApi;
}

/**
 * Accepts a parsed qualification record only when it is well formed, names the installed pi-ai version and
 * carries the digest of the current qualification sources. Every refusal is PAYLOAD_UNQUALIFIED with a located
 * reason; the reason may name versions but never the digest.
 */
export function checkQualification(record: unknown, expected: ExpectedQualification): QualificationCheck {
  if (record === undefined || record === null) return unqualified('no qualification record was supplied');
  if (!isPlainObject(record)) return unqualified('qualification record: must be a JSON object');
  if (own(record, 'schema') !== QUALIFICATION_SCHEMA) return unqualified(`schema: must be "${QUALIFICATION_SCHEMA}"`);

  const version = own(record, 'piAiVersion');
  if (typeof version !== 'string' || !VERSION_PATTERN.test(version)) return unqualified('piAiVersion: must be a version string');
  const digest = own(record, 'sourceDigest');
  if (typeof digest !== 'string' || !DIGEST_PATTERN.test(digest)) return unqualified('sourceDigest: must be 64 lowercase hex digits');

  // Optional for hand-made records; when present, a run that touched the network cannot qualify anything.
  const networkCalls = own(record, 'networkCalls');
  if (networkCalls !== undefined && !isCount(networkCalls, 0)) return unqualified('networkCalls: must be an integer >= 0');

  const apis = own(record, 'apis');
  if (!Array.isArray(apis) || apis.length === 0 || apis.length > MAX_APIS) {
    return unqualified(`apis: must be an array of 1 to ${MAX_APIS} entries`);
  }
  const byApi = apiResults(apis, networkCalls);
  if (typeof byApi === 'string') return unqualified(byApi);

  if (version !== expected.piAiVersion) {
    return unqualified(`made with pi-ai ${version}, but pi-ai ${expected.piAiVersion} is installed: run ctxray qualify again`);
  }
  if (digest !== expected.sourceDigest) {
    return unqualified('stale: the qualification fixture, diff or reference sources changed since the record was made');
  }
  return { ok: true, piAiVersion: version, apis: byApi };
}
