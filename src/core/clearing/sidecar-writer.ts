// Builds a tool-history sidecar in memory with sql.js (the documented schema), for the example generator and
// tests, and as the reference for writers. The analyzer itself never writes a sidecar.

import type { SqlJsStatic } from 'sql.js';
import { SIDECAR_FORMAT, SIDECAR_SCHEMA_SQL, SIDECAR_VERSION, sha256Hex } from './sidecar.ts';
import { utf8Length } from '../text/utf8.ts';

export interface SidecarRow {
  sessionId: string;
  runId: string;
  callId: string;
  state: 'committed' | 'finalized' | 'tombstoned';
  /** The complete original result text (digest and byte counts derive from it). */
  text: string;
  redacted?: 'credential' | 'private_evidence' | 'policy';
  /** Keep only this many UTF-16 units of the text (marks the row truncated). */
  truncateTo?: number;
  /** Deliberately corrupt one integrity field, to exercise mismatch handling. */
  corrupt?: 'digest' | 'bytes' | 'text';
}

export interface SidecarContent {
  rows: SidecarRow[];
  policies?: { sessionId: string; policy: 'default' | 'keep_all' }[];
  checkpoints?: { sessionId: string; seq: number; throughEntryId: string; atMs: number }[];
}

export function buildSidecar(SQL: SqlJsStatic, content: SidecarContent): Uint8Array {
  const db = new SQL.Database();
  try {
    db.exec(SIDECAR_SCHEMA_SQL);
    db.run('INSERT INTO sidecar_meta (key, value) VALUES (?, ?), (?, ?)', [
      'format',
      SIDECAR_FORMAT,
      'version',
      SIDECAR_VERSION,
    ]);
    const insert = db.prepare(
      `INSERT INTO tool_results (session_id, run_id, call_id, state, redacted, redaction_reason, truncated,
         original_bytes, retained_bytes, sha256, retained_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const row of content.rows) {
      let retained: string | null = row.text;
      if (row.redacted) retained = '[redacted]';
      else if (row.truncateTo !== undefined) retained = row.text.slice(0, row.truncateTo);
      if (row.state === 'tombstoned') retained = null;
      let digest = sha256Hex(row.text);
      let originalBytes = utf8Length(row.text);
      if (row.corrupt === 'digest') digest = sha256Hex(`${row.text}\u0000`);
      if (row.corrupt === 'bytes') originalBytes += 1;
      if (row.corrupt === 'text' && retained !== null) retained = `${retained.slice(0, -1)}\u0001`;
      insert.run([
        row.sessionId,
        row.runId,
        row.callId,
        row.state,
        row.redacted ? 1 : 0,
        row.redacted ?? null,
        row.truncateTo !== undefined ? 1 : 0,
        originalBytes,
        retained === null ? 0 : utf8Length(retained),
        digest,
        retained,
      ]);
    }
    insert.free();
    for (const policy of content.policies ?? []) {
      db.run('INSERT INTO conversation_policies (session_id, policy) VALUES (?, ?)', [policy.sessionId, policy.policy]);
    }
    for (const checkpoint of content.checkpoints ?? []) {
      db.run('INSERT INTO checkpoints (session_id, seq, through_entry_id, at_ms) VALUES (?, ?, ?, ?)', [
        checkpoint.sessionId,
        checkpoint.seq,
        checkpoint.throughEntryId,
        checkpoint.atMs,
      ]);
    }
    return db.export();
  } finally {
    db.close();
  }
}
