// URL-fragment view state: round trips, the stated size limits, and damaged links.
import { describe, expect, it } from 'vitest';
import { buildFragment, decodeInput, encodeInput, MAX_INPUT_FRAGMENT_CHARS, parseFragment } from '../../src/ui/share.ts';

const body = '{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"héllo — 你好 🚀"}]}';

describe('share fragment', () => {
  it('round-trips an example link with request, panel, format and model', () => {
    const built = buildFragment({ example: 'gateway-interleaved', request: 7, panel: 'tokens', format: 'openai-chat', model: 'gpt-4o' });
    expect(built).toEqual({ ok: true, hash: '#example=gateway-interleaved&request=7&panel=tokens&format=openai-chat&model=gpt-4o' });
    expect(parseFragment(built.hash)).toEqual({
      ok: true,
      state: { example: 'gateway-interleaved', request: 7, panel: 'tokens', format: 'openai-chat', model: 'gpt-4o' },
    });
  });

  it('carries a pasted input, multi-byte text included, as base64url', () => {
    const built = buildFragment({ input: body, request: 1 });
    expect(built.ok).toBe(true);
    expect(built.hash).toMatch(/^#input=[A-Za-z0-9_-]+&request=1$/);
    const parsed = parseFragment(built.hash);
    expect(parsed.state.input).toBe(body);
    expect(decodeInput(encodeInput(''))).toBe('');
  });

  it('compresses repetitive JSON well below its size', () => {
    const jsonl = Array.from({ length: 50 }, () => body).join('\n');
    expect(encodeInput(jsonl).length).toBeLessThan(jsonl.length / 10);
  });

  it('leaves out an input over the limit and says why', () => {
    // Random-looking text does not compress: 40,000 hex digits (4 bits each) deflate to ~20 KB, ~26,700 base64url characters.
    let seed = 0x9e3779b9;
    const next = (): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    const noise = Array.from({ length: 40_000 }, () => (next() % 16).toString(16)).join('');
    const built = buildFragment({ input: noise, request: 2 });
    expect(built.ok).toBe(false);
    expect(built.hash).toBe('#request=2');
    if (!built.ok) expect(built.reason).toMatch(/at most 16,384/);
  });

  it('reports a damaged or oversized input instead of throwing', () => {
    expect(parseFragment('#input=AAAA')).toMatchObject({ ok: false, error: expect.stringMatching(/damaged/) });
    expect(parseFragment('#input=ab$cd')).toMatchObject({ ok: false, error: expect.stringMatching(/base64url/) });
    const long = 'A'.repeat(MAX_INPUT_FRAGMENT_CHARS + 1);
    expect(parseFragment(`#input=${long}`)).toMatchObject({ ok: false, error: expect.stringMatching(/at most 16384/) });
  });

  it('rejects bad request numbers and ignores unknown formats and odd panel ids', () => {
    expect(parseFragment('#request=0')).toMatchObject({ ok: false, error: expect.stringMatching(/not a request number/) });
    expect(parseFragment('#request=2.5').ok).toBe(false);
    expect(parseFragment('#format=xml&panel=<b>&request=3')).toEqual({ ok: true, state: { request: 3 } });
    expect(parseFragment('#example=../../etc')).toMatchObject({ ok: false });
    expect(parseFragment('')).toEqual({ ok: true, state: {} });
  });

  it('round-trips the selected block and refuses one that is not a block path', () => {
    const { hash } = buildFragment({ example: 'a', request: 4, panel: 'tokens', segment: 'messages[3].content[1]' });
    expect(hash).toBe('#example=a&request=4&panel=tokens&segment=messages%5B3%5D.content%5B1%5D');
    expect(parseFragment(hash)).toEqual({ ok: true, state: { example: 'a', request: 4, panel: 'tokens', segment: 'messages[3].content[1]' } });
    expect(parseFragment('#segment=<img src=x>')).toEqual({ ok: false, state: {}, error: 'the segment in the link is not a block path' });
    expect(parseFragment(`#segment=${'a'.repeat(301)}`)).toMatchObject({ ok: false });
  });

  it('carries the treemap zoom and search, and refuses a zoom that names no message or category', () => {
    const { hash } = buildFragment({ example: 'a', panel: 'tokens', zoom: 'm12', find: 'read_file' });
    expect(hash).toBe('#example=a&panel=tokens&zoom=m12&find=read_file');
    expect(parseFragment(hash)).toEqual({ ok: true, state: { example: 'a', panel: 'tokens', zoom: 'm12', find: 'read_file' } });
    expect(parseFragment('#zoom=tool_result')).toEqual({ ok: true, state: { zoom: 'tool_result' } });
    expect(parseFragment('#zoom=messages')).toEqual({ ok: false, state: {}, error: 'the treemap zoom in the link is not a message or category' });
    expect(parseFragment('#zoom=m')).toMatchObject({ ok: false });
    expect(parseFragment(`#find=${'x'.repeat(201)}`)).toEqual({ ok: false, state: {}, error: 'the treemap search in the link is longer than 200 characters' });
    // An empty search is no search: it stays out of the link.
    expect(buildFragment({ panel: 'tokens', find: '' }).hash).toBe('#panel=tokens');
  });

  it('marks a view of pasted text that the address does not carry, and only then', () => {
    expect(buildFragment({ pasted: true, request: 2, panel: 'tokens' }).hash).toBe('#src=paste&request=2&panel=tokens');
    expect(parseFragment('#src=paste&request=2')).toEqual({ ok: true, state: { pasted: true, request: 2 } });
    // With the input itself in the link, or an example, there is nothing missing to mark.
    expect(buildFragment({ pasted: true, input: 'x' }).hash).toMatch(/^#input=[\w-]+$/);
    expect(buildFragment({ pasted: true, example: 'a' }).hash).toBe('#example=a');
    expect(parseFragment(`#src=paste&${buildFragment({ input: 'x' }).hash.slice(1)}`).state).toEqual({ input: 'x' });
  });

  it('carries calibration only when it is turned off', () => {
    expect(buildFragment({ example: 'a', panel: 'cache', calibrate: false }).hash).toBe('#example=a&panel=cache&calibrate=off');
    expect(buildFragment({ example: 'a', calibrate: true }).hash).toBe('#example=a');
    expect(parseFragment('#example=a&calibrate=off').state).toEqual({ example: 'a', calibrate: false });
    expect(parseFragment('#example=a&calibrate=on').state).toEqual({ example: 'a' });
  });
});
