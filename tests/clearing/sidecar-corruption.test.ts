// A sidecar is checked before it is trusted: every single-page corruption of a real generated sidecar that fails
// SQLite's own integrity check is INPUT_INVALID (never a complete analysis, never blamed on a journal); NULLs
// the CHECKs would have refused are refused; a query that fails during matching discards the whole analysis.
import fs from 'node:fs';
import path from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { describe, expect, it } from 'vitest';
import { analyzeClearing } from '../../src/core/clearing/analyze.ts';
import { openSidecar, SIDECAR_SCHEMA_SQL } from '../../src/core/clearing/sidecar.ts';
import { loadSql } from './helpers.ts';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/clearing/stop-redaction-dominated');
const PAGE = 4096;

function exampleInputs() {
  const journalsDir = path.join(EXAMPLE, 'journals');
  const journals = fs.readdirSync(journalsDir).sort().map((name) => fs.readFileSync(path.join(journalsDir, name), 'utf8'));
  const routes = JSON.parse(fs.readFileSync(path.join(EXAMPLE, 'routes.json'), 'utf8')) as unknown;
  return { journals, routes, sidecar: new Uint8Array(fs.readFileSync(path.join(EXAMPLE, 'sidecar.sqlite'))) };
}

const QUALIFICATION = { ok: false, code: 'PAYLOAD_UNQUALIFIED', why: 'synthetic' } as const;

/** SQLite's verdict on the bytes, independent of the analyzer: false when it cannot even open them. */
function passesIntegrityCheck(SQL: SqlJsStatic, bytes: Uint8Array): boolean {
  let db: Database | null = null;
  try {
    db = new SQL.Database(bytes);
    const rows = db.exec('PRAGMA integrity_check')[0]?.values ?? [];
    return rows.length === 1 && rows[0]![0] === 'ok';
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

describe('corrupt sidecar pages', () => {
  it('every single-page corruption that fails the integrity check is INPUT_INVALID, never complete, no journal blamed', async () => {
    const SQL = await loadSql();
    const { journals, routes, sidecar } = exampleInputs();
    expect(sidecar.byteLength % PAGE).toBe(0);
    const pages = sidecar.byteLength / PAGE;
    // The example itself is sound and analyzes completely.
    expect(analyzeClearing({ SQL, journals, routes, qualification: QUALIFICATION, sidecar: { bytes: sidecar, companionPresent: false } }).record.complete).toBe(true);
    let failing = 0;
    // Page 1 holds the file header (refused as not SQLite or as WAL before any query); pages 2.. are b-tree pages.
    for (let page = 1; page < pages; page++) {
      const corruptions: Uint8Array[] = [];
      const zeroed = sidecar.slice();
      zeroed.fill(0, page * PAGE, (page + 1) * PAGE);
      corruptions.push(zeroed);
      // Scrambled page header and cell pointers (the first 64 bytes of the page, every byte inverted).
      const scrambled = sidecar.slice();
      for (let i = page * PAGE; i < page * PAGE + 64; i++) scrambled[i] = scrambled[i]! ^ 0xff;
      corruptions.push(scrambled);
      for (const bytes of corruptions) {
        if (passesIntegrityCheck(SQL, bytes)) continue;
        failing++;
        const { record } = analyzeClearing({ SQL, journals, routes, qualification: QUALIFICATION, sidecar: { bytes, companionPresent: false } });
        expect(record.complete, `page ${page + 1}`).toBe(false);
        expect(record.codes).toContain('INPUT_INVALID');
        expect(record.inputErrors).toEqual([{ input: 'sidecar', reason: 'sidecar_corrupt', at: 'file' }]);
        expect(Object.values(record.journals.skippedJournals).every((count) => count === 0)).toBe(true);
      }
    }
    // Most of these corruptions break the file: the loop above really tested something.
    expect(failing).toBeGreaterThan(pages);
  });
});

describe('NULLs in sidecar rows', () => {
  // A writer that skipped the NOT NULLs and CHECKs: SQL's three-valued logic would let NULL pass NOT IN, length()
  // and GLOB; the analyzer refuses each one.
  const loose = SIDECAR_SCHEMA_SQL.replaceAll('NOT NULL', '').replace(/CHECK \([^)]*\)\)?/g, '').replace(/\(state IN[^)]*\)/g, '');
  const meta = "INSERT INTO sidecar_meta VALUES ('format','ctxray.tool-history'),('version','1');";
  const digest = `'${'a'.repeat(64)}'`;
  const good = ["'s'", "'r'", "'c'", "'finalized'", '0', 'NULL', '0', '1', '1', digest, "'x'"];
  const open = (SQL: SqlJsStatic, sql: string) => {
    const db = new SQL.Database();
    db.exec(sql);
    const bytes = db.export();
    db.close();
    return openSidecar(SQL, bytes);
  };

  it('the loose schema takes a good row', async () => {
    const SQL = await loadSql();
    const opened = open(SQL, `${loose}${meta}INSERT INTO tool_results VALUES (${good.join(',')});`);
    expect(opened.ok).toBe(true);
    if (opened.ok) opened.reader.close();
  });

  // Column 5 (redaction_reason) and 10 (retained_text) may be NULL.
  it.each([0, 1, 2, 3, 4, 6, 7, 8, 9])('tool_results column %i NULL is sidecar_value', async (column) => {
    const SQL = await loadSql();
    const values = good.map((value, i) => (i === column ? 'NULL' : value));
    expect(open(SQL, `${loose}${meta}INSERT INTO tool_results VALUES (${values.join(',')});`)).toMatchObject({ ok: false, reason: 'sidecar_value', at: 'tool_results' });
  });

  it('a NULL policy or checkpoint field is sidecar_value', async () => {
    const SQL = await loadSql();
    expect(open(SQL, `${loose}${meta}INSERT INTO conversation_policies VALUES ('s', NULL);`)).toMatchObject({ ok: false, reason: 'sidecar_value', at: 'conversation_policies' });
    expect(open(SQL, `${loose}${meta}INSERT INTO checkpoints VALUES ('s', NULL, 'e', 1);`)).toMatchObject({ ok: false, reason: 'sidecar_value', at: 'checkpoints' });
    expect(open(SQL, `${loose}${meta}INSERT INTO checkpoints VALUES ('s', 1, 'e', 1);`).ok).toBe(true);
  });
});

describe('a query that fails during matching', () => {
  it('makes the sidecar invalid and discards the analysis instead of skipping the journal it was matching', async () => {
    const real = await loadSql();
    const { journals, routes, sidecar } = exampleInputs();
    // sql.js whose prepared statements fail after a few steps, as a page the integrity check did not reach would.
    let steps = 0;
    class FailingDatabase extends real.Database {
      override prepare(sql: string) {
        const statement = super.prepare(sql);
        const step = statement.step.bind(statement);
        statement.step = () => {
          if (++steps > 5) throw new Error('database disk image is malformed');
          return step();
        };
        return statement;
      }
    }
    const SQL = { ...real, Database: FailingDatabase } as unknown as SqlJsStatic;
    const { record } = analyzeClearing({ SQL, journals, routes, qualification: QUALIFICATION, sidecar: { bytes: sidecar, companionPresent: false } });
    expect(steps).toBeGreaterThan(5);
    expect(record.complete).toBe(false);
    expect(record.codes).toContain('INPUT_INVALID');
    expect(record.inputErrors).toEqual([{ input: 'sidecar', reason: 'sidecar_corrupt', at: 'query' }]);
    expect(record.journals.contributing).toBe(0);
    expect(Object.values(record.journals.skippedJournals).every((count) => count === 0)).toBe(true);
  });
});
