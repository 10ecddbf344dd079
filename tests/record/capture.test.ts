// Capture records built from bytes (capture.ts): JSON, text, base64, event streams, usage, and the redaction of
// credential-like query values, also over generated inputs (fast-check). SYNTHETIC data only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureRecord, redactedPath, type CapturedRequest, type CapturedResponse } from '../../src/cli/record/capture.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const request = (body: Uint8Array | null, contentType = 'application/json'): CapturedRequest => ({
  timestamp: '2026-12-01T10:00:00.000Z',
  method: 'POST',
  path: '/v1/messages',
  headers: { 'content-type': contentType },
  body,
  bodyError: null,
});
const response = (body: Uint8Array | null, contentType: string, extra: Partial<CapturedResponse> = {}): CapturedResponse => ({
  timestamp: '2026-12-01T10:00:01.000Z',
  status: 200,
  headers: { 'content-type': contentType },
  body,
  bodyError: null,
  error: null,
  ...extra,
});

describe('captureRecord', () => {
  it('keeps an event stream as its text and merges its usage', () => {
    const sse = 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5,"cache_read_input_tokens":7,"output_tokens":1}}}\n\nevent: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":3}}\n\n';
    const record = captureRecord('anthropic', request(encode('{"model":"m","messages":[]}')), response(encode(sse), 'text/event-stream'));
    expect(record.response).toEqual({ timestamp: '2026-12-01T10:00:01.000Z', status: 200, headers: { 'content-type': 'text/event-stream' }, sse });
    expect(record.usage).toEqual({ input_tokens: 5, cache_read_input_tokens: 7, output_tokens: 3 });
    expect(record.request['body']).toEqual({ model: 'm', messages: [] });
  });

  it('keeps an error body as JSON with no usage, a body nested past the reader limit as text', () => {
    const error = captureRecord('openai', request(encode('{}')), response(encode('{"error":{"message":"bad key"}}'), 'application/json', { status: 401 }));
    expect(error.response['body']).toEqual({ error: { message: 'bad key' } });
    expect(error.usage).toBeNull();
    const deep = '['.repeat(600) + ']'.repeat(600);
    expect(captureRecord('openai', request(encode(deep)), response(null, 'application/json')).request['body']).toBe(deep);
  });

  it('says why a body is missing, and writes the transfer error', () => {
    const record = captureRecord('openai', { ...request(null), bodyError: 'content-encoding zstd is not decoded; body not written' }, response(null, 'application/json', { status: null, error: 'recording stopped before the response ended' }));
    expect(record.request['body_error']).toBe('content-encoding zstd is not decoded; body not written');
    expect(record.request).not.toHaveProperty('body');
    expect(record.response['error']).toBe('recording stopped before the response ended');
    expect(record.usage).toBeNull();
  });

  it('stores any bytes losslessly: the text, its JSON value, or base64 (generated)', () => {
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    const json = fc.jsonValue({ maxDepth: 4 }).map((value) => encode(JSON.stringify(value)));
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), json), fc.constantFrom('application/json', 'text/event-stream', 'text/plain'), (bytes, type) => {
        const record = JSON.parse(JSON.stringify(captureRecord('anthropic', request(bytes, type), response(bytes, type)))) as { request: Record<string, unknown>; response: Record<string, unknown> };
        for (const side of [record.request, record.response]) {
          if ('body_base64' in side) {
            expect(Buffer.from(side['body_base64'] as string, 'base64').equals(Buffer.from(bytes))).toBe(true);
            // Base64 only for bytes that are not UTF-8, or whose JSON escapes would be over twice their length.
            const controls = bytes.filter((b) => b < 0x20).length;
            if (controls * 5 <= bytes.length) expect(() => utf8.decode(bytes)).toThrow();
          } else {
            const stored = side['sse'] ?? side['body'];
            const text = utf8.decode(bytes);
            if (typeof stored === 'string') expect(stored).toBe(text);
            else expect(stored).toEqual(JSON.parse(text));
          }
        }
        expect(record.request).not.toHaveProperty('sse');
      }),
      { numRuns: 300, seed: 18 },
    );
  });
});

describe('redactedPath (generated)', () => {
  // Any name at all, credential-like or not: only the harmless names with their own values survive.
  const anyName = fc.oneof(fc.constantFrom('key', 'pass', 'pwd', 'jwt', 'bearer', 'code', 'model', 'x', 'beta', 'limit'), fc.stringMatching(/^[a-z_]{1,10}$/));
  const value = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/);
  const harmless = fc.constantFrom(['beta', 'true'], ['beta', 'false'], ['api-version', '2024-10-21'], ['limit', '20'], ['order', 'desc'], ['stream', 'true']);
  const separator = fc.constantFrom('&', ';');

  it('writes no value but the harmless ones, whatever the parameter is called and however they are separated', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.tuple(anyName, value).map(([n, v]) => ({ n, v, kept: false })), harmless.map(([n, v]) => ({ n, v, kept: true }))), { minLength: 1, maxLength: 6 }), separator, (params, sep) => {
        const target = `/v1/responses?${params.map((p) => `${p.n}=${p.v}`).join(sep)}`;
        const written = redactedPath(target);
        for (const p of params) {
          if (p.kept) expect(written).toContain(`${p.n}=${p.v}`);
          else expect(written).not.toContain(`=${p.v}`);
        }
      }),
      { numRuns: 300, seed: 18 },
    );
  });
});
