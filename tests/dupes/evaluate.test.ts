// Whole-file evaluation: what a file is taken for, gzip, bare ConeReplay traces, and request logs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { classifyDupesInput, evaluateDupesInput } from '../../src/core/dupes/evaluate.ts';
import { dupesMarkdown } from '../../src/core/dupes/markdown.ts';
import { dupesRecordJson } from '../../src/core/dupes/record.ts';
import { readRequests } from '../../src/core/input/index.ts';
import { assertSchemaValid, bytesOf, nativeEnvelope } from './helpers.ts';

const evaluate = (bytes: Uint8Array, name = 'input.json') => evaluateDupesInput({ name, bytes });
/** Synthetic ConeReplay EventRecord. */
const event = (seq: number, inputs: string, outputs: string) => ({
  event_id: `e${seq}`, agent_id: 'a', turn_seq: seq, kind: 'tool_invocation', inputs, outputs, causal_parents: [], content_hash: 'h', timestamp_ns: seq,
});

describe('classifyDupesInput', () => {
  it.each([
    ['{"suite":"v1","blocks":[]}', 'envelope'],
    ['{"blocks":[]}', 'envelope'],
    ['{"messages":[],"adapter":"openai-chat-v1"}', 'envelope'],
    ['{"events":[]}', 'conereplay-trace'],
    ['{"event_id":"e1","inputs":"a","outputs":"b"}\n', 'conereplay-jsonl'],
    ['{"event_id":"e1","agent_id":"a","turn_seq":1,"kind":"llm_sampling"}\n', 'conereplay-jsonl'],
    ['{"event_id":"e1"}\n', 'request-log'],
    ['{"model":"gpt-4o","messages":[{"role":"user","content":"suite"}]}', 'request-log'],
    ['[{"suite":"v1"}]', 'request-log'],
  ])('%s → %s', (text, kind) => {
    expect(classifyDupesInput(bytesOf(text))).toBe(kind);
  });
});

describe('evaluateDupesInput', () => {
  it('reads a gzipped envelope and applies the cap to the decompressed bytes', async () => {
    const seed = nativeEnvelope(['you are a helpful assistant', 'you are a helpful assistant', 'what is the capital of France?']);
    const record = await evaluate(gzipSync(bytesOf(seed)), 'seed.json.gz');
    expect(record.result).toBe('fail');
    expect(record.totals.wastedBytes).toBe(27);
    // 1.5 MiB of one repeated letter compresses to a few KB but is still over the cap once inflated.
    const big = `{"suite":"v1","blocks":[{"text":"${'a'.repeat(1_572_864)}"}]}`;
    const over = await evaluate(gzipSync(bytesOf(big)), 'big.json.gz');
    expect(over.reason).toBe('ENVELOPE_TOO_LARGE');
    expect(over.detail).toEqual({ limit: 1_048_576 }); // the inflated size past the cap is not measured
    const atCap = `{"suite":"v1","blocks":[{"text":"${'a'.repeat(1_048_576 - 37)}"}]}`;
    expect(bytesOf(atCap).length).toBe(1_048_576);
    expect((await evaluate(gzipSync(bytesOf(atCap)), 'cap.json.gz')).result).toBe('pass');
  });

  it('refuses a UTF-16 envelope as not UTF-8', async () => {
    const text = JSON.stringify(nativeEnvelope(['a', 'a']));
    const le = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(text, 'utf16le'))]);
    const record = await evaluate(le, 'utf16.json');
    expect([record.result, record.reason, record.detail]).toEqual(['unknown', 'INVALID_UTF8', { byteOffset: 0 }]);
  });

  it('refuses corrupt gzip as unreadable', async () => {
    const gz = gzipSync(bytesOf(nativeEnvelope(['a'])));
    const record = await evaluate(gz.subarray(0, gz.length - 12), 'cut.json.gz');
    expect([record.result, record.reason]).toEqual(['unknown', 'INPUT_UNREADABLE']);
  });

  it('reads a bare ConeReplay trace object with the conereplay-v1 adapter', async () => {
    const record = await evaluate(bytesOf({ events: [event(1, 'ls -la', 'file list'), event(2, 'ls -la', 'file list')] }));
    expect(record.adapter).toBe('conereplay-v1');
    expect(record.mapping).toBe('conereplay-events-v1');
    expect(record.result).toBe('fail');
    expect(record.totals).toMatchObject({ blocks: 4, duplicateBlocks: 2, wastedBytes: 6 + 9, wastedTokens: 2 + 2 });
  });

  it('reads a JSONL ConeReplay trace (CRLF, blank lines) and locates a broken line', async () => {
    const lines = [event(1, 'a b', 'c'), event(2, 'd', 'e')].map((e) => JSON.stringify(e));
    const ok = await evaluate(bytesOf(`${lines[0]}\r\n\r\n${lines[1]}\r\n`), 'trace.jsonl');
    expect([ok.result, ok.totals.blocks, ok.totals.tokens]).toEqual(['pass', 4, 5]);
    const broken = `${lines[0]}\n{"event_id":"e2","inputs":"x",}\n`;
    const bad = await evaluate(bytesOf(broken), 'trace.jsonl');
    expect(bad.reason).toBe('INVALID_JSON');
    expect(bad.detail?.byteOffset).toBe(broken.indexOf(',}') + 1);
    const missing = await evaluate(bytesOf(`${lines[0]}\n{"event_id":"e2","outputs":"x"}\n`), 'trace.jsonl');
    expect([missing.reason, missing.detail]).toEqual(['EVENT_INPUTS_NOT_STRING', { field: 'inputs', eventIndex: 1 }]);
  });

  it('maps a request log to the last request of each conversation (request-log-last-requests-v1): resent history passes', async () => {
    const system = { role: 'system', content: 'Synthetic system prompt.' };
    const first = { role: 'user', content: 'first question' };
    const bodies = [
      { model: 'gpt-4o', messages: [system, first] },
      { model: 'gpt-4o', messages: [system, first, { role: 'assistant', content: 'answer' }, { role: 'user', content: [{ type: 'text', text: 'next' }, { type: 'image_url', image_url: { url: 'https://example.invalid/x.png' } }] }] },
      // A second conversation on the same setup: its system prompt is no duplicate of the first one's.
      { model: 'gpt-4o', messages: [system, { role: 'user', content: 'another question' }] },
    ];
    const record = await evaluate(bytesOf(bodies.map((b) => JSON.stringify(b)).join('\n') + '\n'), 'synthetic.jsonl');
    expect(record.mapping).toBe('request-log-last-requests-v1');
    expect(record.adapter).toBeNull();
    expect(record.result).toBe('pass');
    expect(record.blocks.map((b) => b.origin)).toEqual([
      { request: 1, message: 0 }, { request: 1, message: 1 }, { request: 1, message: 2 }, { request: 1, message: 3 },
      { request: 2, message: 0 }, { request: 2, message: 1 },
    ]);
    expect(record.ignoredParts).toBe(1);
    expect(record.totals).toMatchObject({ blocks: 6, duplicateBlocks: 0, wastedBytes: 0 });
    assertSchemaValid(record);
  });

  it('fails when one request carries the same block twice (a file read again), not for its tool calls', async () => {
    const file = 'synthetic file contents '.repeat(20);
    const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }] });
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'read a.ts twice' },
        call('c1'),
        { role: 'tool', tool_call_id: 'c1', content: file },
        call('c2'),
        { role: 'tool', tool_call_id: 'c2', content: file },
      ],
    };
    const record = await evaluate(bytesOf(JSON.stringify(body) + '\n'), 'synthetic.jsonl');
    expect(record.result).toBe('fail');
    // The two identical tool calls are not message text (counted in ignoredParts); the file read twice is.
    expect(record.ignoredParts).toBe(2);
    expect(record.duplicates).toHaveLength(1);
    expect(record.duplicates[0]).toMatchObject({ indices: [1, 2], bytesPerBlock: file.length, wastedBytes: file.length, wastedTokens: 60 });
    assertSchemaValid(record);
  });

  it('is unknown with the skipped count when a log has unreadable records and no duplicate', async () => {
    const text = `${JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'only' }] })}\n{broken\n`;
    const record = await evaluate(bytesOf(text), 'synthetic.jsonl');
    expect([record.result, record.reason, record.skippedRecords]).toEqual(['unknown', 'INCOMPLETE_INPUT', 1]);
  });

  it('is unknown when nothing in the file can be read', async () => {
    const record = await evaluate(bytesOf('{"hello":"world"}'), 'other.json');
    expect(record.result).toBe('unknown');
    expect(['UNSUPPORTED_INPUT', 'NO_BLOCKS']).toContain(record.reason);
    const empty = await evaluate(new Uint8Array(0), 'empty.json');
    expect(empty.result).toBe('unknown');
  });

  it('never writes request-log text, model ids or tool names', async () => {
    const m = 'MRKLOGzq81xx';
    const body = {
      model: `gpt-4o-${m}`,
      tools: [{ type: 'function', function: { name: `tool_${m}`, description: m, parameters: { type: 'object', properties: {} } } }],
      messages: [
        { role: 'system', content: `sys ${m}` },
        { role: 'user', content: [{ type: 'text', text: `hi ${m}` }, { type: 'image_url', image_url: { url: `https://${m}.invalid/a.png` } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: `call_${m}`, type: 'function', function: { name: `tool_${m}`, arguments: `{"q":"${m}"}` } }] },
        { role: 'tool', tool_call_id: `call_${m}`, content: `result ${m}` },
        { role: 'user', content: `result ${m}` },
      ],
    };
    const record = await evaluate(bytesOf(`${JSON.stringify(body)}\n${JSON.stringify(body)}\n`), `${m}.jsonl`);
    expect(record.result).toBe('fail');
    expect(dupesRecordJson(record)).not.toContain(m);
    expect(dupesMarkdown(record)).not.toContain(m);
  });
});

const REAL = path.resolve(import.meta.dirname, '../../../shared/fixtures/real');
describe.skipIf(!existsSync(REAL))('request logs from ../shared/fixtures/real (third-party data)', () => {
  it('measures the last request of a real tool chain, where the history resent turn after turn is no duplicate (simonw/llm, 3 requests)', async () => {
    const file = path.join(REAL, 'openai-chat/llm_tool_chain_of_two_calls_seq.jsonl');
    const record = await evaluate(new Uint8Array(readFileSync(file)), path.basename(file));
    // One conversation: its third request carries the question (67 bytes, 13 tokens) and the two tool results
    // (6 and 4 bytes); its two tool calls are not message text.
    expect(record.result).toBe('pass');
    expect(record.blocks.map((b) => [b.origin?.request, b.bytes, b.tokens])).toEqual([
      [2, 67, 13],
      [2, 6, 1],
      [2, 4, 1],
    ]);
    expect(record.ignoredParts).toBe(2);
    expect(record.totals).toMatchObject({ blocks: 3, duplicateBlocks: 0, wastedBytes: 0, wastedTokens: 0 });
  });
});

describe.skipIf(!existsSync(REAL))('every real request file through the contract (../shared/fixtures/real, third-party data)', () => {
  // The body runs to collect tests even when the suite is skipped: list nothing when the fixtures are absent.
  const dirs = existsSync(REAL) ? ['anthropic-messages', 'openai-chat', 'openai-responses'] : [];
  const files = dirs.flatMap((dir) =>
    readdirSync(path.join(REAL, dir))
      .filter((name) => !name.includes('.usage.'))
      .map((name) => path.join(dir, name)),
  );

  it.each(files)('%s: schema-valid, text-free, resent history counted', async (file) => {
    const bytes = new Uint8Array(readFileSync(path.join(REAL, file)));
    const record = await evaluate(bytes, path.basename(file));
    assertSchemaValid(record);
    expect(record.mapping).toBe('request-log-last-requests-v1');
    expect(record.skippedRecords).toBe(0);
    expect(record.totals.blocks).toBeGreaterThan(0);
    // Every copy is accounted for: blocks = distinct hashes per request + copies (duplicates are within a request).
    const distinct = new Set(record.blocks.map((b) => `${b.origin?.request ?? -1}:${b.hash}`)).size;
    expect(distinct + record.totals.duplicateBlocks).toBe(record.totals.blocks);
    const read = await readRequests([{ name: path.basename(file), bytes }]);
    const outputs = [dupesRecordJson(record), dupesMarkdown(record)];
    for (const request of read.requests) {
      for (const segment of request.segments) {
        if (segment.text.length < 12) continue;
        for (const output of outputs) expect(output.includes(segment.text)).toBe(false);
      }
    }
  });
});

describe('hostile input never throws', () => {
  it('returns a schema-valid record for arbitrary bytes and mangled envelopes', async () => {
    const { default: fc } = await import('fast-check');
    const envelopeish = fc
      .tuple(fc.json(), fc.constantFrom('{"suite":"v1","blocks":', '{"adapter":"openai-chat-v1","messages":', '{"adapter":"conereplay-v1","trace":', '{"events":', ''))
      .map(([json, head]) => bytesOf(head === '' ? json : `${head}${json}}`));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 200 }), envelopeish), async (bytes) => {
        const record = await evaluate(bytes, 'fuzz.json');
        assertSchemaValid(record);
        expect(['pass', 'fail', 'unknown']).toContain(record.result);
      }),
      { numRuns: 300 },
    );
  });
});
