// The native envelope: the seed example, every cap at and one over, and each structural refusal.
import { describe, expect, it } from 'vitest';
import { MAX_BLOCKS, MAX_DEPTH, MAX_ENVELOPE_BYTES } from '../../src/core/dupes/limits.ts';
import { assertSchemaValid, bytesOf, nativeEnvelope, recordOf } from './helpers.ts';
import { buildDupesRecord } from '../../src/core/dupes/record.ts';
import { readEnvelopeBytes } from '../../src/core/dupes/envelope.ts';

/** A valid one-block envelope padded with 'a's to exactly `size` bytes. */
function envelopeOfSize(size: number): string {
  const head = '{"suite":"v1","blocks":[{"text":"';
  const tail = '"}]}';
  return head + 'a'.repeat(size - head.length - tail.length) + tail;
}

/** A valid envelope whose deepest nesting is exactly `depth` (the top-level object counts as 1). */
function envelopeOfDepth(depth: number): string {
  const extra = depth - 1; // arrays nested inside an extra top-level field
  return `{"suite":"v1","blocks":[{"text":"x"}],"nested":${'['.repeat(extra)}${']'.repeat(extra)}}`;
}

describe('native envelope', () => {
  it('reproduces the seed example: one copy, 27 wasted bytes, 5 wasted tokens', () => {
    const record = recordOf(
      nativeEnvelope(['you are a helpful assistant', 'you are a helpful assistant', 'what is the capital of France?']),
    );
    expect(record.result).toBe('fail');
    expect(record.reason).toBeNull();
    expect(record.mapping).toBe('envelope-blocks-v1');
    expect(record.adapter).toBeNull();
    expect(record.blocks.map((b) => [b.index, b.bytes, b.tokens])).toEqual([
      [0, 27, 5],
      [1, 27, 5],
      [2, 30, 6],
    ]);
    expect(record.duplicates).toHaveLength(1);
    expect(record.duplicates[0]).toMatchObject({
      occurrences: 2,
      indices: [0, 1],
      copies: 1,
      bytesPerBlock: 27,
      tokensPerBlock: 5,
      wastedBytes: 27,
      wastedTokens: 5,
    });
    expect(record.totals).toEqual({ blocks: 3, bytes: 84, tokens: 16, duplicateBlocks: 1, wastedBytes: 27, wastedTokens: 5 });
    assertSchemaValid(record);
  });

  it('passes distinct blocks', () => {
    const record = recordOf(nativeEnvelope(['alpha', 'beta', 'Alpha']));
    expect(record.result).toBe('pass');
    expect(record.duplicates).toEqual([]);
    expect(record.totals.duplicateBlocks).toBe(0);
  });

  it('is unknown, not pass, with no blocks', () => {
    const record = recordOf(nativeEnvelope([]));
    expect(record.result).toBe('unknown');
    expect(record.reason).toBe('NO_BLOCKS');
    assertSchemaValid(record);
  });

  it('accepts exactly 1 MiB and refuses one byte more', () => {
    expect(bytesOf(envelopeOfSize(MAX_ENVELOPE_BYTES)).length).toBe(1_048_576);
    expect(recordOf(envelopeOfSize(MAX_ENVELOPE_BYTES)).result).toBe('pass');
    const over = recordOf(envelopeOfSize(MAX_ENVELOPE_BYTES + 1));
    expect(over.result).toBe('unknown');
    expect(over.reason).toBe('ENVELOPE_TOO_LARGE');
    expect(over.detail).toEqual({ limit: 1_048_576, actual: 1_048_577 });
  });

  it('counts a leading BOM in the size and otherwise ignores it', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf(nativeEnvelope(['a', 'a']))]);
    expect(buildDupesRecord(readEnvelopeBytes(withBom)).result).toBe('fail');
    const padded = envelopeOfSize(MAX_ENVELOPE_BYTES - 2); // + 3 BOM bytes = cap + 1
    const over = new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf(padded)]);
    expect(buildDupesRecord(readEnvelopeBytes(over)).reason).toBe('ENVELOPE_TOO_LARGE');
  });

  it('accepts 1000 blocks and refuses 1001', () => {
    const texts = (n: number) => Array.from({ length: n }, (_, i) => `block ${i}`);
    expect(recordOf(nativeEnvelope(texts(MAX_BLOCKS))).result).toBe('pass');
    expect(recordOf(nativeEnvelope(texts(MAX_BLOCKS))).totals.blocks).toBe(1000);
    const over = recordOf(nativeEnvelope(texts(MAX_BLOCKS + 1)));
    expect(over.reason).toBe('TOO_MANY_BLOCKS');
    expect(over.detail).toEqual({ field: 'blocks', limit: 1000, actual: 1001 });
  });

  it('accepts nesting depth 32 and refuses 33, with the offending bracket located', () => {
    expect(recordOf(envelopeOfDepth(MAX_DEPTH)).result).toBe('pass');
    const deep = envelopeOfDepth(MAX_DEPTH + 1);
    const over = recordOf(deep);
    expect(over.reason).toBe('TOO_DEEP');
    // The 33rd opener is the 32nd '[' after "nested":
    expect(over.detail).toEqual({ limit: 32, byteOffset: deep.indexOf('[[') + 31 });
  });

  it('counts depth from the top-level object: blocks sit at depth 3', () => {
    // {"suite":..,"blocks":[{"text":..,"meta":[...]}]}: object 1, blocks array 2, block 3, meta arrays 4..
    const meta = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(recordOf(`{"suite":"v1","blocks":[{"text":"t","meta":${meta(29)}}]}`).result).toBe('pass');
    expect(recordOf(`{"suite":"v1","blocks":[{"text":"t","meta":${meta(30)}}]}`).reason).toBe('TOO_DEEP');
  });

  it('does not count brackets inside strings, including escaped quotes', () => {
    const text = '[{'.repeat(100) + '\\"' + '['.repeat(100);
    const record = recordOf(`{"suite":"v1","blocks":[{"text":"${text}"}]}`);
    expect(record.result).toBe('pass');
  });

  it('refuses 100,000-deep nesting quickly without recursion', () => {
    const hostile = '{"suite":"v1","blocks":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    expect(recordOf(hostile).reason).toBe('TOO_DEEP');
  });

  it('refuses invalid JSON with a byte offset and no text', () => {
    const record = recordOf('{"suite":"v1","blocks":[{"text":"secret-ish"},]}');
    expect(record.reason).toBe('INVALID_JSON');
    expect(record.detail?.byteOffset).toBe(46); // the ']' after the trailing comma
    expect(JSON.stringify(record)).not.toContain('secret-ish');
  });

  it('locates invalid UTF-8', () => {
    const head = bytesOf('{"suite":"v1","blocks":[{"text":"ok ');
    const bad = new Uint8Array([...head, 0xc3, 0x28, ...bytesOf('"}]}')]);
    const record = buildDupesRecord(readEnvelopeBytes(bad));
    expect(record.reason).toBe('INVALID_UTF8');
    expect(record.detail).toEqual({ byteOffset: head.length });
    const surrogate = new Uint8Array([...head, 0xed, 0xa0, 0x80, ...bytesOf('"}]}')]); // CESU-style U+D800
    expect(buildDupesRecord(readEnvelopeBytes(surrogate)).reason).toBe('INVALID_UTF8');
  });

  it.each([
    ['[]', 'NOT_AN_OBJECT', {}],
    ['"v1"', 'NOT_AN_OBJECT', {}],
    ['null', 'NOT_AN_OBJECT', {}],
    ['{"blocks":[{"text":"a"}]}', 'UNKNOWN_SUITE', { field: 'suite' }],
    ['{"suite":"v2","blocks":[{"text":"a"}]}', 'UNKNOWN_SUITE', { field: 'suite' }],
    ['{"suite":1,"blocks":[{"text":"a"}]}', 'UNKNOWN_SUITE', { field: 'suite' }],
    ['{"suite":"v1"}', 'BLOCKS_NOT_ARRAY', { field: 'blocks' }],
    ['{"suite":"v1","blocks":{"text":"a"}}', 'BLOCKS_NOT_ARRAY', { field: 'blocks' }],
    ['{"suite":"v1","blocks":[{"text":"a"},"b"]}', 'BLOCK_NOT_OBJECT', { field: 'blocks', blockIndex: 1 }],
    ['{"suite":"v1","blocks":[{"text":"a"},null]}', 'BLOCK_NOT_OBJECT', { field: 'blocks', blockIndex: 1 }],
    ['{"suite":"v1","blocks":[{"text":"a"},{"text":7}]}', 'BLOCK_TEXT_NOT_STRING', { field: 'text', blockIndex: 1 }],
    ['{"suite":"v1","blocks":[{"text":null}]}', 'BLOCK_TEXT_NOT_STRING', { field: 'text', blockIndex: 0 }],
    ['{"suite":"v1","blocks":[{"txt":"a"}]}', 'BLOCK_TEXT_NOT_STRING', { field: 'text', blockIndex: 0 }],
    ['{"suite":"v1","blocks":[{"text":["a"]}]}', 'BLOCK_TEXT_NOT_STRING', { field: 'text', blockIndex: 0 }],
    ['{"adapter":"openai-chat-v9","messages":[]}', 'UNKNOWN_ADAPTER', { field: 'adapter' }],
    ['{"adapter":null,"suite":"v1","blocks":[{"text":"a"}]}', 'UNKNOWN_ADAPTER', { field: 'adapter' }],
    ['{"adapter":"openai-chat-v1","suite":"v2","messages":[]}', 'UNKNOWN_SUITE', { field: 'suite' }],
  ])('refuses %s as %s', (text, reason, detail) => {
    const record = recordOf(text);
    expect(record.result).toBe('unknown');
    expect(record.reason).toBe(reason);
    expect(record.detail).toEqual(detail);
    expect(record.blocks).toEqual([]);
    assertSchemaValid(record);
  });

  it('never echoes an unknown adapter or suite name', () => {
    const record = recordOf('{"adapter":"adapter-MARKER-q7z","suite":"suite-MARKER-q7z"}');
    expect(record.adapter).toBeNull();
    expect(JSON.stringify(record)).not.toContain('MARKER');
  });

  it('ignores fields the contract does not define', () => {
    const record = recordOf({ suite: 'v1', note: { any: ['thing'] }, blocks: [{ text: 'a', role: 'system', id: 3 }, { text: 'a' }] });
    expect(record.result).toBe('fail');
    expect(record.totals.blocks).toBe(2);
  });

  it('measures empty blocks (0 bytes, 0 tokens) as blocks', () => {
    const record = recordOf(nativeEnvelope(['', 'x']));
    expect(record.result).toBe('pass');
    expect(record.blocks[0]).toMatchObject({ bytes: 0, tokens: 0 });
  });
});
