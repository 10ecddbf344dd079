// The registry hook for whole-file transcript importers, exercised with a synthetic transcript format.
import { describe, expect, it } from 'vitest';
import { importOpenAiChat } from '../../src/core/formats/openai-chat.ts';
import type { TranscriptImporter } from '../../src/core/formats/types.ts';
import type { ParsedRequest } from '../../src/core/model.ts';
import { readRequests } from '../../src/core/input/index.ts';
import { jsonl, readText } from './helpers.ts';

/**
 * Synthetic format (test-only): `{"turn": "<user text>"}` lines; each turn implies a Chat request that resends
 * every earlier turn, as an agent loop does.
 */
const syntheticTurns: TranscriptImporter = {
  id: 'synthetic-turns',
  matchesName: (name) => name.endsWith('.turns.jsonl'),
  matchesRecords: (first) => first.length > 0 && first.every((r) => typeof r.value === 'object' && r.value !== null && 'turn' in r.value),
  importFile(records, ctx) {
    const requests: ParsedRequest[] = [];
    const messages: { role: string; content: string }[] = [];
    for (const record of records) {
      messages.push({ role: 'user', content: String((record.value as { turn: unknown }).turn) });
      requests.push(importOpenAiChat({ model: 'gpt-4o', messages: [...messages] }, { store: ctx.store, file: ctx.file, line: record.line, index: 0 }));
    }
    return { requests, errors: [] };
  },
};

describe('transcript importers', () => {
  it('claims a file by its name and gets every record, broken lines reported by the reader', async () => {
    const text = jsonl({ turn: 'a' }, { turn: 'b' }) + '{"turn": \n' + jsonl({ turn: 'c' });
    const result = await readText({ 'session.turns.jsonl': text }, { transcriptImporters: [syntheticTurns] });
    expect(result.files[0]).toMatchObject({ format: 'synthetic-turns', envelope: 'transcript', records: 4, requests: 3, errors: 1 });
    expect(result.errors).toEqual([{ file: 0, line: 3, message: 'invalid JSON: the text ends before the JSON does at column 10' }]);
    expect(result.requests.map((r) => [r.index, r.line, r.messageCount])).toEqual([
      [0, 1, 1],
      [1, 2, 2],
      [2, 4, 3],
    ]);
    // The resent history is interned: the first turn's text is one string in all three requests.
    expect(result.requests[2]!.segments[0]!.text).toBe(result.requests[0]!.segments[0]!.text);
  });

  it('claims a file by the structure of its first records when the name says nothing', async () => {
    const turns = Array.from({ length: 12 }, (_, i) => ({ turn: `t${i}` }));
    const result = await readText({ 'log.jsonl': jsonl(...turns) }, { transcriptImporters: [syntheticTurns] });
    expect(result.files[0]!.format).toBe('synthetic-turns');
    expect(result.requests).toHaveLength(12);
  });

  it('imports the records read before a truncated gzip cut', async () => {
    const { gzipSync } = await import('node:zlib');
    const turns = Array.from({ length: 400 }, (_, i) => ({ turn: `turn ${i} ${'x'.repeat(i % 50)} ${Math.sin(i)}` }));
    const whole = new Uint8Array(gzipSync(new TextEncoder().encode(jsonl(...turns))));
    const result = await readRequests([{ name: 'cut.turns.jsonl.gz', bytes: whole.subarray(0, whole.byteLength - 200) }], {
      transcriptImporters: [syntheticTurns],
    });
    expect(result.errors.filter((e) => e.line === 0).map((e) => e.message)).toEqual([
      expect.stringMatching(/^gzip data is truncated or corrupt after/),
    ]);
    expect(result.requests.length).toBeGreaterThan(300);
    expect(result.files[0]).toMatchObject({ format: 'synthetic-turns', requests: result.requests.length });
  });

  it('leaves request logs to the wire importers', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] };
    const result = await readText({ 'log.jsonl': jsonl(body, body) }, { transcriptImporters: [syntheticTurns] });
    expect(result.files[0]).toMatchObject({ format: 'openai-chat', envelope: 'none', requests: 2 });
  });
});
