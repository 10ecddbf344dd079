// The tool-history sidecar: a SQLite file this project defines (docs/clearing/sidecar.md). It is opened from
// bytes with an initialized sql.js, queried read-only and never written or exported. A WAL-mode header or any
// companion file means it is not a checkpointed offline copy: refused before opening.

import type { Database, SqlJsStatic, Statement } from 'sql.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { InputErrorReason } from './codes.ts';
import { SIDECAR_BYTE_LIMIT, SIDECAR_ROW_LIMIT } from './thresholds.ts';
import { utf8Length } from '../text/utf8.ts';

export const SIDECAR_FORMAT = 'ctxray.tool-history';
export const SIDECAR_VERSION = '1';

/** The schema a sidecar must carry (extra tables and columns are allowed and ignored). */
export const SIDECAR_SCHEMA_SQL = `
CREATE TABLE sidecar_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE tool_results (
  session_id       TEXT NOT NULL,
  run_id           TEXT NOT NULL,
  call_id          TEXT NOT NULL,
  state            TEXT NOT NULL CHECK (state IN ('committed', 'finalized', 'tombstoned')),
  redacted         INTEGER NOT NULL CHECK (redacted IN (0, 1)),
  redaction_reason TEXT CHECK (redaction_reason IN ('credential', 'private_evidence', 'policy')),
  truncated        INTEGER NOT NULL CHECK (truncated IN (0, 1)),
  original_bytes   INTEGER NOT NULL CHECK (original_bytes >= 0),
  retained_bytes   INTEGER NOT NULL CHECK (retained_bytes >= 0),
  sha256           TEXT NOT NULL,
  retained_text    TEXT,
  PRIMARY KEY (session_id, run_id, call_id)
);
CREATE TABLE conversation_policies (
  session_id TEXT PRIMARY KEY,
  policy     TEXT NOT NULL CHECK (policy IN ('default', 'keep_all'))
);
CREATE TABLE checkpoints (
  session_id       TEXT NOT NULL,
  seq              INTEGER NOT NULL CHECK (seq >= 1),
  through_entry_id TEXT NOT NULL,
  at_ms            INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
);
`;

const REQUIRED_COLUMNS: Record<string, string[]> = {
  sidecar_meta: ['key', 'value'],
  tool_results: [
    'session_id',
    'run_id',
    'call_id',
    'state',
    'redacted',
    'redaction_reason',
    'truncated',
    'original_bytes',
    'retained_bytes',
    'sha256',
    'retained_text',
  ],
  conversation_policies: ['session_id', 'policy'],
  checkpoints: ['session_id', 'seq', 'through_entry_id', 'at_ms'],
};

const SQLITE_MAGIC = 'SQLite format 3\u0000';

export type OfflineCheck = { ok: true } | { ok: false; code: 'SIDECAR_NOT_OFFLINE' } | { ok: false; reason: InputErrorReason };

/**
 * Checks the file header before anything opens it: SQLite magic, then the read/write format versions at bytes
 * 18 and 19 (2 = WAL). Companions present next to the file also mean it is not offline.
 */
export function checkOffline(bytes: Uint8Array, companionPresent: boolean): OfflineCheck {
  if (bytes.length > SIDECAR_BYTE_LIMIT) return { ok: false, reason: 'sidecar_size_limit' };
  if (bytes.length < 100) return { ok: false, reason: 'sidecar_not_sqlite' };
  for (let index = 0; index < SQLITE_MAGIC.length; index++) {
    if (bytes[index] !== SQLITE_MAGIC.charCodeAt(index)) return { ok: false, reason: 'sidecar_not_sqlite' };
  }
  if (companionPresent || bytes[18] === 2 || bytes[19] === 2) return { ok: false, code: 'SIDECAR_NOT_OFFLINE' };
  return { ok: true };
}

export type RetentionStatus =
  | 'exact'
  | 'redacted'
  | 'truncated'
  | 'missing'
  | 'not_finalized'
  | 'tombstoned'
  | 'integrity_mismatch';

export interface RetentionMatch {
  status: RetentionStatus;
  /** Redaction cause when redacted (credential and private-evidence guards count as structured-scan losses). */
  redactionReason: 'credential' | 'private_evidence' | 'policy' | null;
  truncatedFlag: boolean;
}

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/**
 * A query on an opened sidecar failed (sql.js throws SQLITE_CORRUPT and the like on a page the integrity check did
 * not reach). The sidecar is at fault, never the journal being matched: the analysis treats it as invalid input.
 */
export class SidecarQueryError extends Error {
  override name = 'SidecarQueryError';
}

/** Runs one read of the sidecar inside the error boundary: any failure becomes a SidecarQueryError. */
function guarded<T>(read: () => T): T {
  try {
    return read();
  } catch {
    throw new SidecarQueryError('a sidecar query failed');
  }
}

export interface SidecarReader {
  /** Matches one journal result (identity + its complete plain text) against its sidecar row. */
  match(sessionId: string, runId: string, callId: string, text: string): RetentionMatch;
  /** Each method throws SidecarQueryError when the database fails under the query. */
  /** The touched conversation's policy ('default' when it has none). */
  policy(sessionId: string): 'default' | 'keep_all';
  checkpoints(sessionId: string): number;
  rowCount: number;
  close(): void;
}

export type SidecarOpen = { ok: true; reader: SidecarReader } | { ok: false; reason: InputErrorReason; at: string };

function scalar(db: Database, sql: string): unknown {
  const result = db.exec(sql);
  return result[0]?.values[0]?.[0];
}

/** Where a sidecar fails its checks. */
interface Problem {
  reason: InputErrorReason;
  at: string;
}

/** Opens checked bytes (call checkOffline first). Never writes: query_only is set and nothing is exported. */
export function openSidecar(SQL: SqlJsStatic, bytes: Uint8Array): SidecarOpen {
  let db: Database;
  try {
    db = new SQL.Database(bytes);
    db.exec('PRAGMA query_only = 1');
  } catch {
    return { ok: false, reason: 'sidecar_not_sqlite', at: 'file' };
  }
  const fail = ({ reason, at }: Problem): SidecarOpen => {
    db.close();
    return { ok: false, reason, at };
  };
  let problem: Problem | null;
  try {
    problem = schemaProblem(db) ?? valueProblem(db);
  } catch {
    problem = { reason: 'sidecar_schema', at: 'query' };
  }
  if (problem !== null) return fail(problem);

  let statements: Statements;
  let rowCount: number;
  try {
    statements = {
      row: db.prepare(
        `SELECT state, redacted, redaction_reason, truncated, original_bytes, retained_bytes, sha256, retained_text
         FROM tool_results WHERE session_id = ? AND run_id = ? AND call_id = ?`,
      ),
      policy: db.prepare('SELECT policy FROM conversation_policies WHERE session_id = ?'),
      checkpoint: db.prepare('SELECT COUNT(*) FROM checkpoints WHERE session_id = ?'),
    };
    rowCount = Number(scalar(db, 'SELECT COUNT(*) FROM tool_results'));
  } catch {
    return fail({ reason: 'sidecar_corrupt', at: 'query' });
  }
  return { ok: true, reader: new StatementReader(db, statements, rowCount) };
}

/**
 * The whole file first: a corrupt page (a zeroed index, a cut b-tree) could otherwise crash a later query or,
 * worse, silently hide rows. integrity_check, not quick_check: only it also compares every index with its table,
 * and an index that disagrees makes the row lookups return wrong answers. Then the tables, columns and meta.
 */
function schemaProblem(db: Database): Problem | null {
  const integrity = db.exec('PRAGMA integrity_check(1)')[0]?.values ?? [];
  if (integrity.length !== 1 || integrity[0]?.[0] !== 'ok') return { reason: 'sidecar_corrupt', at: 'file' };
  // Real tables only: a view under one of these names could compute endless rows (a recursive CTE) and hang
  // every query below.
  const tables = new Set(
    (db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")[0]?.values ?? []).map(
      (row) => String(row[0]),
    ),
  );
  for (const [table, columns] of Object.entries(REQUIRED_COLUMNS)) {
    if (!tables.has(table)) return { reason: 'sidecar_schema', at: table };
    const info = db.exec(`PRAGMA table_info(${table})`);
    const present = new Set((info[0]?.values ?? []).map((row) => String(row[1])));
    const missing = columns.find((column) => !present.has(column));
    if (present.size === 0) return { reason: 'sidecar_schema', at: table };
    if (missing !== undefined) return { reason: 'sidecar_schema', at: `${table}.${missing}` };
  }
  const meta = new Map(
    (db.exec('SELECT key, value FROM sidecar_meta')[0]?.values ?? []).map((row) => [String(row[0]), String(row[1])]),
  );
  if (meta.get('format') !== SIDECAR_FORMAT) return { reason: 'sidecar_schema', at: 'sidecar_meta.format' };
  if (meta.get('version') !== SIDECAR_VERSION) return { reason: 'sidecar_schema', at: 'sidecar_meta.version' };
  return null;
}

/**
 * Counts that must be 0, in order, with what a non-zero count means. Values outside the documented domains are
 * possible when a writer skipped the CHECK constraints. Every test is NULL-safe: in SQL, NULL NOT IN (…),
 * length(NULL) != 64 and NULL GLOB … are NULL, not true, so a NULL would pass them; typeof() is never NULL. Key
 * columns are checked too: SQLite lets a NULL into a PRIMARY KEY.
 */
const VALUE_CHECKS: readonly (Problem & { sql: string })[] = [
  {
    reason: 'sidecar_value',
    at: 'tool_results',
    sql: `SELECT COUNT(*) FROM tool_results WHERE typeof(session_id) != 'text' OR typeof(run_id) != 'text'
           OR typeof(call_id) != 'text'
           OR typeof(state) != 'text' OR state NOT IN ('committed','finalized','tombstoned')
           OR typeof(redacted) != 'integer' OR redacted NOT IN (0,1)
           OR typeof(truncated) != 'integer' OR truncated NOT IN (0,1)
           OR typeof(redaction_reason) NOT IN ('null','text')
           OR (redaction_reason IS NOT NULL AND redaction_reason NOT IN ('credential','private_evidence','policy'))
           OR typeof(original_bytes) != 'integer' OR typeof(retained_bytes) != 'integer'
           OR original_bytes < 0 OR retained_bytes < 0
           OR typeof(sha256) != 'text' OR length(sha256) != 64 OR sha256 GLOB '*[^0-9a-f]*'
           OR typeof(retained_text) NOT IN ('null','text')`,
  },
  {
    reason: 'duplicate_entry',
    at: 'tool_results',
    sql: 'SELECT COUNT(*) FROM (SELECT 1 FROM tool_results GROUP BY session_id, run_id, call_id HAVING COUNT(*) > 1)',
  },
  {
    reason: 'sidecar_value',
    at: 'conversation_policies',
    sql: `SELECT COUNT(*) FROM conversation_policies WHERE typeof(session_id) != 'text'
           OR typeof(policy) != 'text' OR policy NOT IN ('default','keep_all')`,
  },
  {
    reason: 'sidecar_value',
    at: 'checkpoints',
    sql: `SELECT COUNT(*) FROM checkpoints WHERE typeof(session_id) != 'text' OR typeof(seq) != 'integer' OR seq < 1
           OR typeof(through_entry_id) != 'text' OR typeof(at_ms) != 'integer'`,
  },
];

function valueProblem(db: Database): Problem | null {
  const rowCount = Number(scalar(db, 'SELECT COUNT(*) FROM tool_results'));
  if (rowCount > SIDECAR_ROW_LIMIT) return { reason: 'sidecar_row_limit', at: 'tool_results' };
  for (const { reason, at, sql } of VALUE_CHECKS) if (Number(scalar(db, sql)) > 0) return { reason, at };
  return null;
}

interface Statements {
  row: Statement;
  policy: Statement;
  checkpoint: Statement;
}

/** Reads an opened, checked sidecar through its prepared statements. */
class StatementReader implements SidecarReader {
  constructor(
    private readonly db: Database,
    private readonly statements: Statements,
    readonly rowCount: number,
  ) {}

  match(sessionId: string, runId: string, callId: string, text: string): RetentionMatch {
    const statement = this.statements.row;
    const row = guarded(() => {
      statement.bind([sessionId, runId, callId]);
      const found = statement.step();
      const values = found ? statement.get() : null;
      statement.reset();
      return values;
    });
    return row === null ? { status: 'missing', redactionReason: null, truncatedFlag: false } : retentionOf(row, text);
  }

  policy(sessionId: string): 'default' | 'keep_all' {
    const statement = this.statements.policy;
    const value = guarded(() => {
      statement.bind([sessionId]);
      const found = statement.step() ? statement.get()[0] : null;
      statement.reset();
      return found;
    });
    return value === 'keep_all' ? 'keep_all' : 'default';
  }

  checkpoints(sessionId: string): number {
    const statement = this.statements.checkpoint;
    return guarded(() => {
      statement.bind([sessionId]);
      const value = statement.step() ? Number(statement.get()[0]) : 0;
      statement.reset();
      return value;
    });
  }

  close(): void {
    // Closing a database that failed under a query must not turn into an error of its own.
    try {
      this.statements.row.free();
      this.statements.policy.free();
      this.statements.checkpoint.free();
    } finally {
      this.db.close();
    }
  }
}

/** What one sidecar row says of the journal result whose complete plain text is `text`. */
function retentionOf(row: readonly unknown[], text: string): RetentionMatch {
  const [state, redacted, reason, truncated, originalBytes, retainedBytes, digest, retainedText] = row;
  const redactionReason: RetentionMatch['redactionReason'] =
    reason === 'credential' || reason === 'private_evidence' || reason === 'policy' ? reason : null;
  const truncatedFlag = truncated === 1;
  const base: Omit<RetentionMatch, 'status'> = { redactionReason: redacted === 1 ? redactionReason : null, truncatedFlag };
  if (state === 'tombstoned') return { status: 'tombstoned', ...base };
  if (state !== 'finalized') return { status: 'not_finalized', ...base };
  // Redacted and truncated rows prove capture: matched, but ineligible.
  if (redacted === 1) return { status: 'redacted', ...base };
  if (truncatedFlag) return { status: 'truncated', ...base };
  const bytes = utf8Length(text);
  const exact = originalBytes === bytes && retainedBytes === bytes && retainedText === text && digest === sha256Hex(text);
  return { status: exact ? 'exact' : 'integrity_mismatch', ...base };
}
