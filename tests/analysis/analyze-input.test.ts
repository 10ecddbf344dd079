import { describe, expect, it } from 'vitest';
import { analyzeInput, analyzeRead } from '../../src/core/analysis/analyze.ts';
import { readRequests } from '../../src/core/input/index.ts';
import { syntheticClaudeCodeSession } from '../transcripts/claude-code-session.ts';

const encoder = new TextEncoder();
// Synthetic bodies.
const chat = '{"model":"gpt-4o","messages":[{"role":"user","content":"hello"}]}';
const claude = '{"model":"claude-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"hello there"}]}';

function stream(text: string): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, 10));
      controller.enqueue(bytes.subarray(10));
      controller.close();
    },
  });
}

describe('analyzeInput', () => {
  it('reads bytes and streams, numbers requests across files and reports progress', async () => {
    const progress: number[] = [];
    const analysis = await analyzeInput(
      [
        { name: 'a.jsonl', bytes: encoder.encode(`${chat}\n${chat}\n`) },
        { name: 'b.json', bytes: stream(claude) },
      ],
      { onProgress: (p) => progress.push(p.file) },
    );
    expect(analysis.requests.map((r) => [r.index, r.file, r.line])).toEqual([
      [0, 0, 1],
      [1, 0, 2],
      [2, 1, 1],
    ]);
    expect(analysis.tokens.map((t) => t.total).slice(0, 2)).toEqual([8, 8]);
    expect(analysis.files.map((f) => [f.name, f.format, f.totals.requests])).toEqual([
      ['a.jsonl', 'openai-chat', 2],
      ['b.json', 'anthropic-messages', 1],
    ]);
    expect(progress.length).toBeGreaterThan(0);
    expect(analysis.distinctTexts).toBeGreaterThan(0);
  });

  it('honours a forced format and the model override', async () => {
    const analysis = await analyzeInput([{ name: 'a.jsonl', bytes: encoder.encode(chat) }], { format: 'openai-chat', model: 'gpt-5' });
    expect(analysis.models[0]).toMatchObject({ id: 'gpt-5', source: 'override' });
    // gpt-5 frames with 2 priming tokens: 1 + (3 + 1) + 2.
    expect(analysis.tokens[0]?.total).toBe(7);
  });
});

describe('analyzeInput passes its options to the read', () => {
  it('reads an Anthropic body as OpenAI Chat when that format is forced', async () => {
    const detected = await analyzeInput([{ name: 'a.json', bytes: encoder.encode(claude) }]);
    expect(detected.files[0]?.format).toBe('anthropic-messages');
    const forced = await analyzeInput([{ name: 'a.json', bytes: encoder.encode(claude) }], { format: 'openai-chat' });
    expect(forced.files[0]?.format).toBe('openai-chat');
    // Chat framing of one message on o200k_base (claude-* falls back to it): 3 + role "user" 1 + priming 3 = 7;
    // "hello there" is 2 tokens.
    expect(forced.tokens[0]).toMatchObject({ total: 9, overheadTotal: 7, byCategory: { user: 2 }, tokenizer: 'o200k_base' });
  });

  it('stops before reading anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    controller.abort(reason);
    const progress: number[] = [];
    await expect(
      analyzeInput([{ name: 'a.jsonl', bytes: encoder.encode(`${chat}\n`) }], { signal: controller.signal, onProgress: (p) => progress.push(p.records) }),
    ).rejects.toBe(reason);
    // The read itself saw the signal: it reported no progress (analyzeRead's own check would come after the read).
    expect(progress).toEqual([]);
  });

  it('applies lowered limits: a second record over maxRecords 1 stops the read at line 2', async () => {
    const read = analyzeInput([{ name: 'a.jsonl', bytes: encoder.encode(`${chat}\n${chat}\n`) }], { limits: { maxRecords: 1 } });
    await expect(read).rejects.toMatchObject({ name: 'WorkLimitError', code: 'LIMIT_RECORDS', limit: 1, line: 2, file: 0 });
  });

  it('copies each file’s folder path, and only where one was given', async () => {
    const analysis = await analyzeInput([
      { name: 'a.jsonl', bytes: encoder.encode(chat), folderPath: 'logs/a.jsonl' },
      { name: 'b.jsonl', bytes: encoder.encode(chat) },
    ]);
    expect(analysis.files[0]?.folderPath).toBe('logs/a.jsonl');
    expect(Object.hasOwn(analysis.files[1]!, 'folderPath')).toBe(false);
  });
});

describe('analyzeRead', () => {
  const gpt4 = chat.replace('"gpt-4o"', '"gpt-4"');

  it('loads the tokenizer of the model each request resolves to (gpt-4: cl100k_base)', async () => {
    const analysis = await analyzeInput([{ name: 'a.jsonl', bytes: encoder.encode(gpt4) }]);
    // cl100k framing: 3 per message + role 1 + priming 3 = 7, plus "hello" (1 token).
    expect(analysis.tokens[0]).toMatchObject({ tokenizer: 'cl100k_base', total: 8, overheadTotal: 7 });
  });

  it('loads the override’s tokenizer, not the one the request names', async () => {
    const analysis = await analyzeInput([{ name: 'a.jsonl', bytes: encoder.encode(chat) }], { model: 'gpt-4' });
    expect(analysis.models[0]).toMatchObject({ id: 'gpt-4', source: 'override' });
    expect(analysis.tokens[0]).toMatchObject({ tokenizer: 'cl100k_base', total: 8 });
  });

  it('prices each request as the model it names when no override is given', async () => {
    const analysis = await analyzeInput([{ name: 'a.jsonl', bytes: encoder.encode(`${chat}\n${gpt4}\n`) }]);
    expect(analysis.models.map((model) => [model.id, model.source])).toEqual([
      ['gpt-4o', 'request'],
      ['gpt-4', 'request'],
    ]);
    // Each request's segment counts ("hello": 1 token) and overhead (7) are what the cache analysis is built on.
    expect(analysis.segmentTokens).toEqual([[1], [1]]);
    expect(analysis.overheadTokens).toEqual([7, 7]);
  });

  it('treats an empty model override as none', async () => {
    const analysis = await analyzeInput([{ name: 'a.jsonl', bytes: encoder.encode(chat) }], { model: '' });
    expect(analysis.models[0]).toMatchObject({ id: 'gpt-4o', source: 'request' });
    expect(analysis.modelUse).toEqual([{ id: 'gpt-4o', requests: 1, known: true, pricedAs: 'gpt-4o', via: 'api', pricedOn: '2026-11-10', priceSource: 'table' }]);
  });

  it('takes each file’s record, request and error counts, layout and envelope from the read', async () => {
    const batchLine = JSON.stringify({ custom_id: 'req-1', params: JSON.parse(claude) as unknown });
    const read = await readRequests([
      // Two records (the blank line is none), one request, one broken record.
      { name: 'a.jsonl', bytes: encoder.encode(`${chat}\n\n{bad\n`) },
      { name: 'batch.jsonl', bytes: encoder.encode(`${batchLine}\n`) },
    ]);
    const analysis = await analyzeRead(read, ['a.jsonl', 'batch.jsonl']);
    expect(analysis.files.map(({ name, format, envelope, layout, records, requests, errors }) => ({ name, format, envelope, layout, records, requests, errors }))).toEqual([
      { name: 'a.jsonl', format: 'openai-chat', envelope: 'none', layout: 'jsonl', records: 2, requests: 1, errors: 1 },
      { name: 'batch.jsonl', format: 'anthropic-messages', envelope: 'anthropic-batch', layout: 'jsonl', records: 1, requests: 1, errors: 0 },
    ]);
    expect(analysis.files.map((file) => file.totals.requests)).toEqual([1, 1]);
    expect(Object.hasOwn(analysis.files[0]!, 'session')).toBe(false);
  });

  it('names a file the read has no summary for as empty (no format, no envelope, no records)', async () => {
    const read = await readRequests([{ name: 'a.jsonl', bytes: encoder.encode(chat) }]);
    const analysis = await analyzeRead({ ...read, files: [] }, ['a.jsonl']);
    expect(analysis.files[0]).toMatchObject({ name: 'a.jsonl', format: null, envelope: 'none', layout: null, records: 0, requests: 0, errors: 0 });
    // Its request is still counted, in the file's totals and the overall ones.
    expect(analysis.files[0]?.totals.requests).toBe(1);
    expect(analysis.totals.requests).toBe(1);
  });

  it('counts a request of a file beyond the names given in the overall totals only', async () => {
    const read = await readRequests([
      { name: 'a.jsonl', bytes: encoder.encode(chat) },
      { name: 'b.jsonl', bytes: encoder.encode(chat) },
    ]);
    const analysis = await analyzeRead(read, ['a.jsonl']);
    expect(analysis.files).toHaveLength(1);
    expect(analysis.files[0]?.totals).toMatchObject({ requests: 1, tokens: 8 });
    expect(analysis.totals).toMatchObject({ requests: 2, tokens: 16 });
  });

  it('keeps a transcript’s session link', async () => {
    const analysis = await analyzeInput([{ name: 's1.jsonl', bytes: encoder.encode(syntheticClaudeCodeSession('s1', '2026-03-01T10:00:00.000Z', [{ input: 10, read: 0, write5m: 0, output: 5 }])) }]);
    expect(analysis.files[0]?.session).toEqual({ sessionId: 's1', agentId: null, startedBy: null, subagentTasks: {} });
  });

  it('checks for an abort at request 0, every 256 requests after it and once at the end', async () => {
    const read = await readRequests([{ name: 'a.jsonl', bytes: encoder.encode(`${chat}\n`.repeat(513)) }]);
    expect(read.requests).toHaveLength(513);
    let checks = 0;
    // A signal that is never aborted and counts how often it is asked: requests 0, 256 and 512, then the end.
    const signal = { throwIfAborted: () => void checks++ } as unknown as AbortSignal;
    await analyzeRead(read, ['a.jsonl'], { signal });
    expect(checks).toBe(4);
  });
});
