// Error messages go into machine-readable reports: none may carry payload text (synthetic secrets below).
import { describe, expect, it } from 'vitest';
import { readOne } from './helpers.ts';

const SECRET = 'sk-SYNTHETIC-SECRET-4242';

describe('error messages carry no payload text', () => {
  it.each([
    ['broken JSON next to the secret', `{"model":"m","messages":[{"role":"user","content":"${SECRET}"} ${SECRET}]}\n{"model":"m","messages":[]}\n`],
    ['a document that is not JSON', `${SECRET} is not JSON\n`],
    ['a wrapper holding broken JSON text', JSON.stringify({ request_body: `{"messages": "${SECRET}` }) + '\n'],
    ['an OpenAI batch line for an odd endpoint', JSON.stringify({ custom_id: 'a', method: 'POST', url: `/v1/${SECRET}`, body: {} }) + '\n'],
    ['a record that is no object', `"${SECRET}"\n`],
    ['a body of no known format', JSON.stringify({ [SECRET]: SECRET }) + '\n'],
    ['deep nesting after the secret', `{"${SECRET}":${'['.repeat(600)}${']'.repeat(600)}}\n`],
  ])('%s', async (_name, text) => {
    const result = await readOne('secret.jsonl', text);
    expect(result.errors.length).toBeGreaterThan(0);
    for (const error of result.errors) expect(error.message).not.toContain('SYNTHETIC');
  });

  it('invalid UTF-8 inside a line holding the secret', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(`{"content":"${SECRET}`), 0xc3, 0x28, ...new TextEncoder().encode('"}\n')]);
    const result = await readOne('secret.jsonl', bytes);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.message).not.toContain('SYNTHETIC');
  });
});
