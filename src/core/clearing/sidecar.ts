// The tool-history sidecar: a SQLite file this project defines (docs/clearing/sidecar.md). It is opened from
// bytes with an initialized sql.js, queried read-only and never written or exported. A WAL-mode header or any
// companion file means it is not a checkpointed offline copy: refused before opening.

import type { Database, SqlJsStatic, Statement } from 'sql.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { InputErrorReason } from './codes.ts';
import { SIDECAR_ROW_LIMIT } from './thresholds.ts';
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

export interface SidecarReader {
  /** Matches one journal result (identity + its complete plain text) against its sidecar row. */
  match(sessionId: string, runId: string, callId: string, text: string): RetentionMatch;
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

/** Opens checked bytes (call checkOffline first). Never writes: query_only is set and nothing is exported. */
export function openSidecar(SQL: SqlJsStatic, bytes: Uint8Array): SidecarOpen {
  let db: Database;
  try {
    db = new SQL.Database(bytes);
    db.exec('PRAGMA query_only = 1');
  } catch {
    return { ok: false, reason: 'sidecar_not_sqlite', at: 'file' };
  }
  const fail = (reason: InputErrorReason, at: string): SidecarOpen => {
    db.close();
    return { ok: false, reason, at };
  };
  try {
    // Real tables only: a view under one of these names could compute endless rows (a recursive CTE) and hang
    // every query below.
    const tables = new Set(
      (db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")[0]?.values ?? []).map(
        (row) => String(row[0]),
      ),
    );
    for (const [table, columns] of Object.entries(REQUIRED_COLUMNS)) {
      if (!tables.has(table)) return fail('sidecar_schema', table);
      const info = db.exec(`PRAGMA table_info(${table})`);
      const present = new Set((info[0]?.values ?? []).map((row) => String(row[1])));
      const missing = columns.find((column) => !present.has(column));
      if (present.size === 0) return fail('sidecar_schema', table);
      if (missing !== undefined) return fail('sidecar_schema', `${table}.${missing}`);
    }
    const meta = new Map(
      (db.exec('SELECT key, value FROM sidecar_meta')[0]?.values ?? []).map((row) => [String(row[0]), String(row[1])]),
    );
    if (meta.get('format') !== SIDECAR_FORMAT) return fail('sidecar_schema', 'sidecar_meta.format');
    if (meta.get('version') !== SIDECAR_VERSION) return fail('sidecar_schema', 'sidecar_meta.version');

    const rowCount = Number(scalar(db, 'SELECT COUNT(*) FROM tool_results'));
    if (rowCount > SIDECAR_ROW_LIMIT) return fail('sidecar_row_limit', 'tool_results');
    // Values outside the documented domains (possible when a writer skipped the CHECK constraints).
    const badValues = Number(
      scalar(
        db,
        `SELECT COUNT(*) FROM tool_results WHERE state NOT IN ('committed','finalized','tombstoned')
           OR redacted NOT IN (0,1) OR truncated NOT IN (0,1)
           OR (redaction_reason IS NOT NULL AND redaction_reason NOT IN ('credential','private_evidence','policy'))
           OR typeof(original_bytes) != 'integer' OR typeof(retained_bytes) != 'integer'
           OR original_bytes < 0 OR retained_bytes < 0
           OR length(sha256) != 64 OR sha256 GLOB '*[^0-9a-f]*'`,
      ),
    );
    if (badValues > 0) return fail('sidecar_value', 'tool_results');
    const duplicates = Number(
      scalar(
        db,
        'SELECT COUNT(*) FROM (SELECT 1 FROM tool_results GROUP BY session_id, run_id, call_id HAVING COUNT(*) > 1)',
      ),
    );
    if (duplicates > 0) return fail('duplicate_entry', 'tool_results');
    const badPolicies = Number(
      scalar(db, "SELECT COUNT(*) FROM conversation_policies WHERE policy NOT IN ('default','keep_all')"),
    );
    if (badPolicies > 0) return fail('sidecar_value', 'conversation_policies');
  } catch {
    return fail('sidecar_schema', 'query');
  }

  const rowStatement: Statement = db.prepare(
    `SELECT state, redacted, redaction_reason, truncated, original_bytes, retained_bytes, sha256, retained_text
       FROM tool_results WHERE session_id = ? AND run_id = ? AND call_id = ?`,
  );
  const policyStatement: Statement = db.prepare('SELECT policy FROM conversation_policies WHERE session_id = ?');
  const checkpointStatement: Statement = db.prepare('SELECT COUNT(*) FROM checkpoints WHERE session_id = ?');

  const reader: SidecarReader = {
    rowCount: Number(scalar(db, 'SELECT COUNT(*) FROM tool_results')),
    match(sessionId, runId, callId, text) {
      rowStatement.bind([sessionId, runId, callId]);
      const found = rowStatement.step();
      const row = found ? rowStatement.get() : null;
      rowStatement.reset();
      if (row === null) return { status: 'missing', redactionReason: null, truncatedFlag: false };
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
      const exact =
        originalBytes === bytes &&
        retainedBytes === bytes &&
        retainedText === text &&
        digest === sha256Hex(text);
      return { status: exact ? 'exact' : 'integrity_mismatch', ...base };
    },
    policy(sessionId) {
      policyStatement.bind([sessionId]);
      const value = policyStatement.step() ? policyStatement.get()[0] : null;
      policyStatement.reset();
      return value === 'keep_all' ? 'keep_all' : 'default';
    },
    checkpoints(sessionId) {
      checkpointStatement.bind([sessionId]);
      const value = checkpointStatement.step() ? Number(checkpointStatement.get()[0]) : 0;
      checkpointStatement.reset();
      return value;
    },
    close() {
      rowStatement.free();
      policyStatement.free();
      checkpointStatement.free();
      db.close();
    },
  };
  return { ok: true, reader };
}
