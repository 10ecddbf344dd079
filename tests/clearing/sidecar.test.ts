import { describe, expect, it } from 'vitest';
import { checkOffline, openSidecar, sha256Hex, SIDECAR_SCHEMA_SQL } from '../../src/core/clearing/sidecar.ts';
import { buildSidecar } from '../../src/core/clearing/sidecar-writer.ts';
import { loadSql } from './helpers.ts';

const TEXT = 'synthetic result text é';

describe('sidecar offline check', () => {
  it('accepts a rollback-journal-mode file and refuses WAL header bytes 18–19 or a companion', async () => {
    const SQL = await loadSql();
    const bytes = buildSidecar(SQL, { rows: [] });
    expect([bytes[18], bytes[19]]).toEqual([1, 1]);
    expect(checkOffline(bytes, false)).toEqual({ ok: true });
    expect(checkOffline(bytes, true)).toEqual({ ok: false, code: 'SIDECAR_NOT_OFFLINE' });
    const wal = bytes.slice();
    wal[18] = 2;
    wal[19] = 2;
    expect(checkOffline(wal, false)).toEqual({ ok: false, code: 'SIDECAR_NOT_OFFLINE' });
  });

  it('refuses bytes that are not SQLite', () => {
    expect(checkOffline(new TextEncoder().encode('x'.repeat(200)), false)).toEqual({ ok: false, reason: 'sidecar_not_sqlite' });
    expect(checkOffline(new Uint8Array(10), false)).toEqual({ ok: false, reason: 'sidecar_not_sqlite' });
  });
});

describe('sidecar schema and matching', () => {
  it('matches exact, redacted, truncated, tombstoned, committed and corrupted rows', async () => {
    const SQL = await loadSql();
    const row = (callId: string) => ({ sessionId: 's', runId: 'r', callId, state: 'finalized' as const, text: TEXT });
    const bytes = buildSidecar(SQL, {
      rows: [
        row('exact'),
        { ...row('redacted'), redacted: 'credential' },
        { ...row('truncated'), truncateTo: 5 },
        { ...row('tomb'), state: 'tombstoned' },
        { ...row('committed'), state: 'committed' },
        { ...row('digest'), corrupt: 'digest' },
        { ...row('bytes'), corrupt: 'bytes' },
        { ...row('text'), corrupt: 'text' },
      ],
      policies: [{ sessionId: 's', policy: 'keep_all' }],
      checkpoints: [{ sessionId: 's', seq: 1, throughEntryId: 'e', atMs: 1 }],
    });
    const opened = openSidecar(SQL, bytes);
    if (!opened.ok) throw new Error(opened.reason);
    const reader = opened.reader;
    const status = (callId: string, text = TEXT) => reader.match('s', 'r', callId, text).status;
    expect(status('exact')).toBe('exact');
    expect(status('exact', `${TEXT} `)).toBe('integrity_mismatch'); // the journal text differs from the retained one
    expect(reader.match('s', 'r', 'redacted', TEXT)).toEqual({ status: 'redacted', redactionReason: 'credential', truncatedFlag: false });
    expect(status('truncated')).toBe('truncated');
    expect(status('tomb')).toBe('tombstoned');
    expect(status('committed')).toBe('not_finalized');
    expect(status('digest')).toBe('integrity_mismatch');
    expect(status('bytes')).toBe('integrity_mismatch');
    expect(status('text')).toBe('integrity_mismatch');
    expect(status('absent')).toBe('missing');
    expect(reader.match('other-session', 'r', 'exact', TEXT).status).toBe('missing');
    expect(reader.policy('s')).toBe('keep_all');
    expect(reader.policy('t')).toBe('default');
    expect(reader.checkpoints('s')).toBe(1);
    expect(reader.rowCount).toBe(8);
    reader.close();
  });

  it('hashes UTF-8 bytes (SHA-256 of "abc" is the FIPS 180-2 vector)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('rejects a missing table, a missing column, a wrong format marker and out-of-domain values', async () => {
    const SQL = await loadSql();
    const make = (sql: string) => {
      const db = new SQL.Database();
      db.exec(sql);
      const bytes = db.export();
      db.close();
      return openSidecar(SQL, bytes);
    };
    const meta = "INSERT INTO sidecar_meta VALUES ('format','ctxray.tool-history'),('version','1');";
    expect(make('CREATE TABLE t (a)')).toMatchObject({ ok: false, reason: 'sidecar_schema', at: 'sidecar_meta' });
    expect(make(SIDECAR_SCHEMA_SQL.replace('  retained_text    TEXT,\n', '') + meta)).toMatchObject({
      ok: false,
      reason: 'sidecar_schema',
      at: 'tool_results.retained_text',
    });
    expect(make(SIDECAR_SCHEMA_SQL)).toMatchObject({ ok: false, reason: 'sidecar_schema', at: 'sidecar_meta.format' });
    // A writer that skipped the CHECK constraints: the analyzer still refuses the values.
    const loose = SIDECAR_SCHEMA_SQL.replace(/CHECK \([^)]*\)\)?/g, '').replace(/\(state IN[^)]*\)/g, '');
    const badState = `${loose}${meta}INSERT INTO tool_results VALUES ('s','r','c','kept',0,NULL,0,1,1,'${'a'.repeat(64)}','x');`;
    expect(make(badState)).toMatchObject({ ok: false, reason: 'sidecar_value' });
    const badDigest = `${loose}${meta}INSERT INTO tool_results VALUES ('s','r','c','finalized',0,NULL,0,1,1,'XYZ','x');`;
    expect(make(badDigest)).toMatchObject({ ok: false, reason: 'sidecar_value' });
  });

  it('never writes: the opened database is query-only', async () => {
    const SQL = await loadSql();
    const bytes = buildSidecar(SQL, { rows: [] });
    const before = bytes.slice();
    const opened = openSidecar(SQL, bytes);
    if (!opened.ok) throw new Error(opened.reason);
    opened.reader.close();
    expect(bytes).toEqual(before);
  });
});
