// evaluateDupesInput on request logs (synthetic): the size cap on plain and gzipped logs, a log compressed twice,
// work limits, abort, UTF-16 inputs, oversize envelopes and traces, and the first unreadable record.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { evaluateDupesInput, evaluateDupesInputDetailed } from '../../src/core/dupes/evaluate.ts';
import { MAX_ENVELOPE_BYTES } from '../../src/core/dupes/limits.ts';
import { encoder } from './helpers.ts';

/** One OpenAI Chat request whose two user messages are the same text: one duplicate block. */
const request = (text: string) => JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: text }, { role: 'user', content: text }] });
const LOG = `${request('synthetic repeated question')}\n`;
const LOG_BYTES = encoder.encode(LOG);

const evaluate = (bytes: Uint8Array, options = {}, name = 'log.jsonl') => evaluateDupesInput({ name, bytes }, options);

describe('request-log size cap', () => {
  it('reads a plain log of exactly the cap and refuses one byte more with the size found', async () => {
    const atCap = await evaluate(LOG_BYTES, { maxLogBytes: LOG_BYTES.byteLength });
    expect([atCap.result, atCap.mapping, atCap.totals.duplicateBlocks]).toEqual(['fail', 'request-log-last-requests-v1', 1]);
    const over = await evaluate(LOG_BYTES, { maxLogBytes: LOG_BYTES.byteLength - 1 });
    expect(over).toMatchObject({
      result: 'unknown',
      reason: 'LOG_TOO_LARGE',
      detail: { limit: LOG_BYTES.byteLength - 1, actual: LOG_BYTES.byteLength },
      adapter: null,
      mapping: 'request-log-last-requests-v1',
    });
  });

  it('inflates a gzipped log up to the cap and refuses one past it with the cap only (the full size is unknown)', async () => {
    const gz = gzipSync(LOG_BYTES);
    expect(gz.byteLength).toBeLessThan(LOG_BYTES.byteLength);
    const atCap = await evaluate(gz, { maxLogBytes: LOG_BYTES.byteLength }, 'log.jsonl.gz');
    expect([atCap.result, atCap.totals.duplicateBlocks]).toEqual(['fail', 1]);
    const over = await evaluate(gz, { maxLogBytes: LOG_BYTES.byteLength - 1 }, 'log.jsonl.gz');
    expect(over).toMatchObject({ result: 'unknown', reason: 'LOG_TOO_LARGE', detail: { limit: LOG_BYTES.byteLength - 1 }, mapping: 'request-log-last-requests-v1' });
    expect(over.detail).not.toHaveProperty('actual');
  });

  it('counts the inner layer of a log gzipped twice against the cap', async () => {
    const twice = gzipSync(gzipSync(LOG_BYTES));
    expect((await evaluate(twice, { maxLogBytes: LOG_BYTES.byteLength }, 'log.jsonl.gz')).result).toBe('fail');
    // The outer layer inflates to far fewer bytes than the log: the cap must still see the log's own size.
    expect(gzipSync(LOG_BYTES).byteLength).toBeLessThan(LOG_BYTES.byteLength - 1);
    expect((await evaluate(twice, { maxLogBytes: LOG_BYTES.byteLength - 1 }, 'log.jsonl.gz')).reason).toBe('LOG_TOO_LARGE');
  });

  it('reads a gzip of nothing as the empty file it holds, not as an unreadable gzip', async () => {
    const { record, firstReadError } = await evaluateDupesInputDetailed({ name: 'empty.jsonl.gz', bytes: gzipSync(new Uint8Array(0)) });
    expect(record).toMatchObject({ result: 'unknown', reason: 'UNSUPPORTED_INPUT', detail: { skippedRecords: 1 } });
    expect(firstReadError).toEqual({ file: 0, line: 0, message: 'the file is empty (0 bytes)' });
  });
});

describe('request-log work limits and errors', () => {
  it('stops at a lowered record limit with the limit and the line', async () => {
    const record = await evaluate(encoder.encode(LOG.repeat(3)), { limits: { maxRecords: 2 } });
    expect(record).toMatchObject({ result: 'unknown', reason: 'LIMIT_RECORDS', detail: { limit: 2, line: 3 }, adapter: null, mapping: 'request-log-last-requests-v1' });
  });

  it('a gzipped log reaches the same limit', async () => {
    const record = await evaluate(gzipSync(encoder.encode(LOG.repeat(3))), { limits: { maxRecords: 2 } }, 'log.jsonl.gz');
    expect(record).toMatchObject({ reason: 'LIMIT_RECORDS', detail: { limit: 2, line: 3 } });
  });

  it('throws the abort instead of writing a record', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(evaluate(LOG_BYTES, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    await expect(evaluate(gzipSync(LOG_BYTES), { signal: controller.signal }, 'log.jsonl.gz')).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports the first unreadable record of a log for the terminal, and its count in the record', async () => {
    const { record, firstReadError } = await evaluateDupesInputDetailed({ name: 'log.jsonl', bytes: encoder.encode(`${LOG}{broken\n{broken\n`) });
    expect(record).toMatchObject({ result: 'fail', skippedRecords: 2 });
    expect(firstReadError).toMatchObject({ file: 0, line: 2 });
  });

  it('a readable log has no first read error', async () => {
    expect((await evaluateDupesInputDetailed({ name: 'log.jsonl', bytes: LOG_BYTES })).firstReadError).toBeNull();
  });

  it('refuses a log none of whose records can be read as unsupported, counting them', async () => {
    // Two JSONL records that are no request bodies.
    const record = await evaluate(encoder.encode('{"a":1}\n{"b":2}\n'));
    expect(record).toMatchObject({ result: 'unknown', reason: 'UNSUPPORTED_INPUT', detail: { skippedRecords: 2 }, skippedRecords: 2, mapping: 'request-log-last-requests-v1' });
  });

  it('refuses a gzip that breaks off as unreadable', async () => {
    const gz = gzipSync(encoder.encode(LOG.repeat(50)));
    const record = await evaluate(gz.subarray(0, gz.byteLength - 12), {}, 'log.jsonl.gz');
    expect([record.result, record.reason, record.adapter, record.mapping]).toEqual(['unknown', 'INPUT_UNREADABLE', null, null]);
  });
});

describe('UTF-16 inputs', () => {
  const utf16 = (text: string, bigEndian: boolean): Uint8Array => {
    const out = new Uint8Array(2 + text.length * 2);
    out.set(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      out[2 + 2 * i + (bigEndian ? 1 : 0)] = unit & 0xff;
      out[2 + 2 * i + (bigEndian ? 0 : 1)] = unit >> 8;
    }
    return out;
  };
  const envelope = JSON.stringify({ suite: 'v1', blocks: [{ text: 'a' }] });

  it.each([false, true])('refuses an envelope in UTF-16 (big-endian %s) as invalid UTF-8 at offset 0', async (bigEndian) => {
    const record = await evaluate(utf16(envelope, bigEndian), {}, 'envelope.json');
    expect(record).toMatchObject({ result: 'unknown', reason: 'INVALID_UTF8', detail: { byteOffset: 0 }, adapter: null, mapping: null });
  });

  it('leaves a UTF-16 request log to the log reader', async () => {
    const record = await evaluate(utf16(LOG, false));
    expect(record.reason).not.toBe('INVALID_UTF8');
    expect(record.mapping).toBe('request-log-last-requests-v1');
  });

  it('does not take a file starting with only one BOM byte for UTF-16', async () => {
    const bytes = new Uint8Array([0xff, ...encoder.encode(envelope)]);
    expect((await evaluate(bytes, {}, 'envelope.json')).reason).not.toBe('INVALID_UTF8');
  });
});

describe('oversize envelopes and traces', () => {
  const padded = (value: Record<string, unknown>) => {
    const text = JSON.stringify({ ...value, pad: 'x'.repeat(MAX_ENVELOPE_BYTES) });
    return encoder.encode(text);
  };

  it('refuses an envelope over the cap with the cap only, no adapter', async () => {
    const record = await evaluate(gzipSync(padded({ suite: 'v1', blocks: [] })), {}, 'envelope.json.gz');
    expect(record).toMatchObject({ result: 'unknown', reason: 'ENVELOPE_TOO_LARGE', detail: { limit: MAX_ENVELOPE_BYTES }, adapter: null, mapping: null });
  });

  it('refuses a ConeReplay trace over the cap under its adapter and mapping', async () => {
    const record = await evaluate(gzipSync(padded({ events: [] })), {}, 'trace.json.gz');
    expect(record).toMatchObject({ reason: 'ENVELOPE_TOO_LARGE', detail: { limit: MAX_ENVELOPE_BYTES }, adapter: 'conereplay-v1', mapping: 'conereplay-events-v1' });
  });

  it('reads a bare trace and a JSONL trace under the ConeReplay adapter, refusing broken ones there', async () => {
    const event = (seq: number, text: string) => ({ event_id: `e${seq}`, turn_seq: seq, inputs: text, outputs: 'ok' });
    const bare = await evaluate(encoder.encode(JSON.stringify({ events: [event(0, 'same'), event(1, 'same')] })), {}, 'trace.json');
    expect([bare.adapter, bare.mapping, bare.result]).toEqual(['conereplay-v1', 'conereplay-events-v1', 'fail']);
    const brokenBare = await evaluate(encoder.encode('{"events": [1, 2'), {}, 'trace.json');
    expect([brokenBare.reason, brokenBare.adapter, brokenBare.mapping]).toEqual(['INVALID_JSON', 'conereplay-v1', 'conereplay-events-v1']);
    const lines = `${JSON.stringify(event(0, 'same'))}\n{"event_id": "e1", "inputs": \n`;
    const brokenJsonl = await evaluate(encoder.encode(lines), {}, 'trace.jsonl');
    expect([brokenJsonl.reason, brokenJsonl.adapter, brokenJsonl.mapping]).toEqual(['INVALID_JSON', 'conereplay-v1', 'conereplay-events-v1']);
  });
});
