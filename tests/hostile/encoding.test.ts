// Lone surrogates and invalid UTF-8 are reported (located) or carried as the data they are, never crashed on,
// in every reader and in the analysis that counts tokens and bytes over them.
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { evaluateDupesInput } from '../../src/core/dupes/evaluate.ts';
import { parseJournal } from '../../src/core/clearing/journal/parse.ts';
import { decodeInput, encodeInput, parseFragment } from '../../src/ui/share.ts';
import { read, utf8 } from './helpers.ts';

const line = (text: string) => JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: text }] });

function concat(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((p) => (typeof p === 'string' ? utf8.encode(p) : new Uint8Array(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

describe('invalid UTF-8', () => {
  it.each([
    ['a truncated two-byte sequence', [0xc3]],
    ['a UTF-8-encoded lone surrogate', [0xed, 0xa0, 0x80]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['a five-byte form', [0xf8, 0x88, 0x80, 0x80, 0x80]],
    ['a stray continuation byte', [0x80]],
  ])('%s in line 2 is an error on line 2 that names the byte; lines 1 and 3 are read', async (_what, bad) => {
    const bytes = concat(line('first'), '\n', '{"model":"gpt-4o","messages":[{"role":"user","content":"x', bad, '"}]}\n', line('third'), '\n');
    const result = await read('log.jsonl', bytes);
    expect(result.requests.map((r) => r.line)).toEqual([1, 3]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ file: 0, line: 2 });
    expect(result.errors[0]!.message).toMatch(/^invalid UTF-8 at byte offset \d+/);
  });

  it('the dupes contract refuses it as INVALID_UTF8 with the byte offset', async () => {
    const bytes = concat('{"suite":"v1","blocks":[{"text":"ab', [0xff], '"}]}');
    const record = await evaluateDupesInput({ name: 'e.json', bytes });
    expect(record).toMatchObject({ result: 'unknown', reason: 'INVALID_UTF8', detail: { byteOffset: 35 } });
  });

  it('a share link that inflates to invalid UTF-8 decodes to replacement characters, and the reader gets text', () => {
    // encodeInput never produces this; a crafted link can.
    const packed = deflateSync(new Uint8Array([0x61, 0xff, 0xc3]));
    const encoded = Buffer.from(packed).toString('base64url');
    expect(decodeInput(encoded)).toBe('a\ufffd\ufffd');
    expect(parseFragment(`#input=${encoded}`)).toEqual({ ok: true, state: { input: 'a\ufffd\ufffd' } });
    expect(parseFragment('#input=AAAA').ok).toBe(false);
  });
});

describe('lone surrogates written as JSON escapes', () => {
  const text = 'a\ud800b\udfffc';

  it('are read as the text they are and counted, not crashed on', async () => {
    const result = await read('log.jsonl', `${line(text)}\n`);
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.segments[0]!.text).toBe(text);
    const analysis = await analyzeInput([{ name: 'log.jsonl', bytes: utf8.encode(`${line(text)}\n`) }]);
    expect(analysis.errors).toEqual([]);
    expect(analysis.tokens[0]!.total).toBeGreaterThan(0);
  });

  it('a dupes envelope measures them as U+FFFD', async () => {
    const record = await evaluateDupesInput({ name: 'e.json', bytes: utf8.encode(JSON.stringify({ suite: 'v1', blocks: [{ text: '\ud800' }, { text: '\ufffd' }] })) });
    expect(record.totals.blocks).toBe(2);
    expect(['pass', 'fail']).toContain(record.result);
  });

  it('a pi journal line holding one is read', () => {
    const journal = [
      JSON.stringify({ type: 'session', version: 3, id: 'synthetic' }),
      JSON.stringify({ type: 'message', id: 'a', parentId: null, message: { role: 'user', content: [{ type: 'text', text }] } }),
    ].join('\n');
    expect(parseJournal(journal).ok).toBe(true);
  });

  it('the share link round-trips them through UTF-8 as U+FFFD', () => {
    expect(decodeInput(encodeInput(text))).toBe('a\ufffdb\ufffdc');
  });
});
