// Fail loud: a file that matches no importer well is refused with what it looks like and which formats were
// tried, never read as a request of unknown segments. All inputs synthetic.
import { describe, expect, it } from 'vitest';
import { readOne } from './helpers.ts';

describe('refusing files that match no format', () => {
  it('refuses a chat log of another tool (messages without roles) and says what it looks like', async () => {
    const doc = {
      conversationId: 'synthetic',
      title: 'synthetic',
      messages: [
        { id: '1', timestamp: '2026-01-01T00:00:00Z', author: 'user', text: 'synthetic' },
        { id: '2', timestamp: '2026-01-01T00:00:01Z', author: 'model', text: 'synthetic', tokens: { input: 3 } },
      ],
    };
    const result = await readOne('chat.json', JSON.stringify(doc));
    expect(result.requests).toEqual([]);
    expect(result.files[0]).toMatchObject({ requests: 0, errors: 1 });
    const message = result.errors[0]!.message;
    expect(message).toContain('matches no format well');
    expect(message).toContain('an object {conversationId, title, messages[2] of {id, timestamp, author, text}}');
    expect(message).toMatch(/formats tried: anthropic-messages, openai-chat, openai-responses, .*claude-code/);
    // Key names only: no value of the file is echoed.
    expect(message).not.toContain('synthetic');
  });

  it('refuses each such record of a JSONL log, and names no key that does not look like a field name', async () => {
    const line = JSON.stringify({ messages: [{ speaker: 'a', 'text with spaces: secret': 1 }] });
    const result = await readOne('log.jsonl', `${line}\n${line}\n`);
    expect(result.requests).toEqual([]);
    expect(result.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(result.errors[0]!.message).toContain('messages[1] of {speaker, +1 more}');
    expect(result.errors[0]!.message).not.toContain('secret');
  });

  it('still reads known messages whose blocks are of a shape it does not know (kept as other segments)', async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'a_future_block', x: 1 }] }] };
    const result = await readOne('one.json', JSON.stringify(body));
    expect(result.errors).toEqual([]);
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]!.unknownShapes).toHaveLength(1);
  });
});
