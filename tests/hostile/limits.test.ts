// Resource limits: each oversized or pathological input stops at a stated limit with a message that names it,
// and the rest of the file is still read where the format allows. Where a limit is far above what a test can
// build quickly, the reader's documented override (ReadOptions.limits) lowers it; the check is the same code path.
import { gzipSync } from 'node:zlib';
import { deflateSync } from 'fflate';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, readRequests } from '../../src/core/input/index.ts';
import { evaluateDupesInput } from '../../src/core/dupes/evaluate.ts';
import { MAX_DEPTH, MAX_ENVELOPE_BYTES } from '../../src/core/dupes/limits.ts';
import { checkOffline, openSidecar } from '../../src/core/clearing/sidecar.ts';
import { SIDECAR_ROW_LIMIT } from '../../src/core/clearing/thresholds.ts';
import { parseJournal } from '../../src/core/clearing/journal/parse.ts';
import { decodeInput, MAX_INPUT_INFLATED_BYTES } from '../../src/ui/share.ts';
import { read, utf8 } from './helpers.ts';

const MiB = 1024 * 1024;
const okLine = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'synthetic' }] });

describe('gzip bomb', () => {
  // 64 MiB of one repeated line compresses to about 64 KB.
  const bomb = new Uint8Array(gzipSync(Buffer.alloc(64 * MiB, `${okLine}\n`)));

  it('stops at the decompressed-size limit with a message naming it', async () => {
    expect(bomb.byteLength).toBeLessThan(MiB);
    const result = await read('log.jsonl.gz', bomb, { limits: { maxDecompressedBytes: 8 * MiB } });
    expect(result.errors.at(-1)).toEqual({
      file: 0,
      line: 0,
      message: 'decompressed size exceeds the limit of 8 MiB per file (a gzip bomb, or raise the limit)',
    });
  });

  it('the dupes contract inflates no further than one byte past its 1 MiB envelope cap', async () => {
    const envelope = new Uint8Array(gzipSync(Buffer.from(`{"suite":"v1","blocks":[{"text":"${'a'.repeat(64 * MiB)}"}]}`)));
    const record = await evaluateDupesInput({ name: 'e.json.gz', bytes: envelope });
    expect(record).toMatchObject({ result: 'unknown', reason: 'ENVELOPE_TOO_LARGE', detail: { limit: MAX_ENVELOPE_BYTES } });
  });
});

describe('10,000-deep nesting', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('a JSONL record is a located error naming the depth limit, not a stack overflow', async () => {
    const body = `{"model":"gpt-4o","messages":[{"role":"user","content":${deep(10_000)}}]}`;
    const result = await read('log.jsonl', `${okLine}\n${body}\n${okLine}\n`);
    expect(result.requests.map((r) => r.line)).toEqual([1, 3]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ line: 2 });
    expect(result.errors[0]!.message).toMatch(new RegExp(`^JSON nested deeper than ${DEFAULT_LIMITS.maxNestingDepth} levels`));
  });

  it('a whole-document file is refused the same way', async () => {
    const result = await read('body.json', deep(10_000));
    expect(result.requests).toEqual([]);
    expect(result.errors[0]!.message).toMatch(/nested deeper than 512 levels/);
  });

  it('the dupes contract refuses it as TOO_DEEP at its 32-level cap', async () => {
    const record = await evaluateDupesInput({ name: 'e.json', bytes: utf8.encode(`{"suite":"v1","blocks":[{"text":"a","x":${deep(10_000)}}]}`) });
    expect(record).toMatchObject({ result: 'unknown', reason: 'TOO_DEEP', detail: { limit: MAX_DEPTH } });
  });

  it('a pi journal line nested 300,000 deep (past the stack) is skipped as invalid at its line, field depth', () => {
    const n = 300_000;
    const journal = [
      JSON.stringify({ type: 'session', version: 3, id: 'synthetic' }),
      JSON.stringify({ type: 'message', id: 'a', parentId: null, message: { role: 'user', content: [{ type: 'text', text: 'x' }] } }),
      `{"type":"message","id":"b","parentId":"a","message":{"role":"user","content":[]},"extra":${deep(n)}}`,
    ].join('\n');
    expect(parseJournal(journal)).toEqual({ ok: false, skip: { reason: 'invalid', line: 3, field: 'depth' } });
  });

  it('a pi journal line holding it is skipped as invalid at its line, field depth, before anything recurses', () => {
    const journal = [
      JSON.stringify({ type: 'session', version: 3, id: 'synthetic' }),
      `{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":[{"type":"text","text":"x"}],"extra":${deep(10_000)}}}`,
    ].join('\n');
    expect(parseJournal(journal)).toEqual({ ok: false, skip: { reason: 'invalid', line: 2, field: 'depth' } });
  });
});

describe('a 100 MB single string', () => {
  const huge = `{"model":"gpt-4o","messages":[{"role":"user","content":"${'x'.repeat(100 * 1000 * 1000)}"}]}`;
  const bytes = utf8.encode(`${huge}\n${okLine}\n`);

  it('over a record limit: that line is refused with the limit named, the next line is read', async () => {
    const result = await read('log.jsonl', bytes, { limits: { maxRecordBytes: 64 * MiB } });
    expect(result.errors).toEqual([{ file: 0, line: 1, message: 'line is longer than the record limit of 64 MiB; skipped' }]);
    expect(result.requests.map((r) => r.line)).toEqual([2]);
  });

  it('under the default 256 MiB record limit it is read as one request', async () => {
    const result = await read('log.jsonl', bytes);
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.segments[0]!.text).toHaveLength(100 * 1000 * 1000);
  });

  it('as a dupes envelope it is ENVELOPE_TOO_LARGE', async () => {
    const record = await evaluateDupesInput({ name: 'e.json', bytes: utf8.encode(`{"suite":"v1","blocks":[{"text":"${'x'.repeat(100 * 1000 * 1000)}"}]}`) });
    expect(record).toMatchObject({ result: 'unknown', reason: 'ENVELOPE_TOO_LARGE', detail: { limit: MAX_ENVELOPE_BYTES } });
  });
});

describe('a JSONL line over the line limit', () => {
  it('a 1 GiB line streamed in chunks is skipped at the default limit without being held, and the next line is read', async () => {
    const chunk = utf8.encode('x'.repeat(MiB));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(utf8.encode('{"model":"gpt-4o","messages":[{"role":"user","content":"'));
        if (sent < 1024) controller.enqueue(chunk);
        else {
          controller.enqueue(utf8.encode(`"}]}\n${okLine}\n`));
          controller.close();
        }
        sent++;
      },
    });
    const result = await readRequests([{ name: 'log.jsonl', bytes: stream }]);
    expect(result.errors).toEqual([{ file: 0, line: 1, message: 'line is longer than the record limit of 256 MiB; skipped' }]);
    expect(result.requests.map((r) => r.line)).toEqual([2]);
  }, 120_000);
});

describe('a sidecar with millions of rows', () => {
  it(`more than ${SIDECAR_ROW_LIMIT.toLocaleString('en-US')} tool-result rows is refused as sidecar_row_limit`, async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    // Synthetic rows with the required columns only (no keys or checks): the row count is what is tested.
    db.exec(`CREATE TABLE sidecar_meta (key TEXT, value TEXT);
      INSERT INTO sidecar_meta VALUES ('format', 'ctxray.tool-history'), ('version', '1');
      CREATE TABLE tool_results (session_id, run_id, call_id, state, redacted, redaction_reason, truncated,
        original_bytes, retained_bytes, sha256, retained_text);
      CREATE TABLE conversation_policies (session_id, policy);
      CREATE TABLE checkpoints (session_id, seq, through_entry_id, at_ms);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${SIDECAR_ROW_LIMIT + 1})
      INSERT INTO tool_results SELECT 's', 'r', i, 'finalized', 0, NULL, 0, 0, 0, '', NULL FROM n;`);
    const bytes = db.export();
    db.close();
    expect(checkOffline(bytes, false)).toEqual({ ok: true });
    expect(openSidecar(SQL, bytes)).toEqual({ ok: false, reason: 'sidecar_row_limit', at: 'tool_results' });
  }, 120_000);

  it('a view that computes endless rows under a table name is refused before it is queried (no hang)', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.exec(`CREATE TABLE sidecar_meta (key TEXT, value TEXT);
      INSERT INTO sidecar_meta VALUES ('format', 'ctxray.tool-history'), ('version', '1');
      CREATE VIEW tool_results AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
        SELECT 's' AS session_id, 'r' AS run_id, i AS call_id, 'finalized' AS state, 0 AS redacted,
          NULL AS redaction_reason, 0 AS truncated, 0 AS original_bytes, 0 AS retained_bytes, '' AS sha256,
          NULL AS retained_text FROM n;
      CREATE TABLE conversation_policies (session_id, policy);
      CREATE TABLE checkpoints (session_id, seq, through_entry_id, at_ms);`);
    const bytes = db.export();
    db.close();
    expect(openSidecar(SQL, bytes)).toEqual({ ok: false, reason: 'sidecar_schema', at: 'tool_results' });
  });
});

describe('share links', () => {
  it('a link that inflates past the limit is refused with both sizes named', () => {
    const packed = deflateSync(new Uint8Array(MAX_INPUT_INFLATED_BYTES + 1), { level: 9 });
    const encoded = Buffer.from(packed).toString('base64url');
    expect(() => decodeInput(encoded)).toThrow(`the input in the link inflates to ${MAX_INPUT_INFLATED_BYTES + 1} bytes; at most ${MAX_INPUT_INFLATED_BYTES} are accepted`);
  });
});
