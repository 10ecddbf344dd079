// An unpaired surrogate written as a JSON escape ("\ud800") is not valid Unicode: the reader keeps the text, counts
// it (as U+FFFD, like every UTF-8 encoder), and says so on the request with the fixed note code `lone_surrogate`.
// All inputs here are synthetic.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { read, utf8 } from './helpers.ts';

const chat = (content: string) => ({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
const codes = (notes: { code: string }[]) => notes.map((n) => n.code);

describe('lone surrogates are reported as a request note', () => {
  it('a high or a low half alone gives the note; the file is still read and counted', async () => {
    const lines = [chat('synthetic clean'), chat('synthetic a\ud800b'), chat('synthetic \udfff end')].map((b) => JSON.stringify(b));
    // JSON.stringify writes an unpaired half as an escape: this is the input shape the note is about.
    expect(lines[1]).toContain('\\ud800');
    const result = await read('log.jsonl', `${lines.join('\n')}\n`);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.line, codes(r.notes).includes('lone_surrogate')])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
    expect(result.requests[1]!.segments[0]!.text).toBe('synthetic a\ud800b');
  });

  it('a proper pair (an emoji) gives no note', async () => {
    const result = await read('log.jsonl', `${JSON.stringify(chat('synthetic \ud83d\ude00 smile'))}\n`);
    expect(codes(result.requests[0]!.notes)).not.toContain('lone_surrogate');
  });

  it('a resent element taken from the element cache keeps the note on every later request', async () => {
    const first = { model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: [{ type: 'text', text: 'synthetic \udc00 turn 1' }] }] };
    const second = { ...first, messages: [...first.messages, { role: 'assistant', content: 'synthetic reply' }, { role: 'user', content: 'synthetic turn 2' }] };
    const result = await read('log.jsonl', `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
    expect(result.requests.map((r) => codes(r.notes).includes('lone_surrogate'))).toEqual([true, true]);
  });

  it('an OpenAI Responses input item and a tool definition are checked too', async () => {
    const responses = { model: 'gpt-4.1', input: [{ role: 'user', content: [{ type: 'input_text', text: 'synthetic \ud801' }] }] };
    const tools = { model: 'gpt-4o', tools: [{ type: 'function', function: { name: 'f', description: 'synthetic \udbff' } }], messages: [{ role: 'user', content: 'synthetic' }] };
    const result = await read('log.jsonl', `${JSON.stringify(responses)}\n${JSON.stringify(tools)}\n`);
    expect(result.requests.map((r) => codes(r.notes).includes('lone_surrogate'))).toEqual([true, true]);
  });

  it('the JSON record lists the code and never the text around it', async () => {
    const text = 'synthetic-marker-7f3a \ud800';
    const analysis = await analyzeInput([{ name: 'log.jsonl', bytes: utf8.encode(`${JSON.stringify(chat(text))}\n`) }]);
    expect(analysis.errors).toEqual([]);
    const record = buildRecord(analysis) as { requests: { notes: string[] }[] };
    expect(record.requests[0]!.notes).toContain('lone_surrogate');
    expect(JSON.stringify(record)).not.toContain('synthetic-marker-7f3a');
  });
});
