// Server-sent-event parsing and stream usage merging (sse.ts). All streams here are synthetic, written by hand in
// the shapes the Anthropic and OpenAI APIs document.
import { describe, expect, it } from 'vitest';
import { looksLikeSse, mergeEventUsage, parseSse, sseJsonEvents, SseParser, sseUsage, streamUsage } from '../../src/core/input/sse.ts';

describe('parseSse', () => {
  it('splits events on blank lines, keeps the event name, joins multi-line data with a newline', () => {
    const text = 'event: ping\ndata: {"a":1}\n\ndata: first\ndata: second\n\n';
    expect(parseSse(text)).toEqual([
      { event: 'ping', data: '{"a":1}' },
      { event: null, data: 'first\nsecond' },
    ]);
  });

  it('accepts CRLF and bare CR line ends, skips comments, drops only one space after the colon', () => {
    const text = ': keep-alive\r\nevent:x\r\ndata:  two spaces\r\rdata:b\r\n\r\n';
    expect(parseSse(text)).toEqual([
      { event: 'x', data: ' two spaces' },
      { event: null, data: 'b' },
    ]);
  });

  it('dispatches a last event that has no closing blank line, and ignores an event with no data', () => {
    expect(parseSse('event: lonely\n\ndata: tail')).toEqual([{ event: null, data: 'tail' }]);
  });

  it('gives the same events whatever the chunking, a CRLF split between chunks included', () => {
    const text = '\ufeffevent: a\r\ndata: {"n":1}\r\n\r\nevent: b\r\ndata: {"n":2}\r\n\r\n';
    const whole = parseSse(text);
    expect(whole).toEqual([
      { event: 'a', data: '{"n":1}' },
      { event: 'b', data: '{"n":2}' },
    ]);
    for (let size = 1; size <= 7; size++) {
      const parser = new SseParser();
      const events = [];
      for (let at = 0; at < text.length; at += size) events.push(...parser.push(text.slice(at, at + size)));
      events.push(...parser.end());
      expect(events).toEqual(whole);
    }
  });

  it('tells event-stream text from JSON text', () => {
    expect(looksLikeSse('event: message_start\ndata: {}\n\n')).toBe(true);
    expect(looksLikeSse('\n\ndata: {}\n')).toBe(true);
    expect(looksLikeSse('{"data: x": 1}')).toBe(false);
    expect(looksLikeSse('plain error text')).toBe(false);
  });

  it('parses JSON payloads only, skipping [DONE] and broken JSON', () => {
    expect(sseJsonEvents('data: {"a":1}\n\ndata: [DONE]\n\ndata: {"broken"\n\n')).toEqual([{ a: 1 }]);
  });
});

describe('stream usage', () => {
  it('Anthropic: message_start gives input and cache tokens, message_delta the final output', () => {
    const text = [
      'event: message_start',
      'data: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":4,"cache_creation_input_tokens":300,"cache_read_input_tokens":9000,"cache_creation":{"ephemeral_5m_input_tokens":300,"ephemeral_1h_input_tokens":0},"output_tokens":1}}}',
      '',
      'event: content_block_delta',
      'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"syn"}}',
      '',
      'event: message_delta',
      'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":212}}',
      '',
      'event: message_stop',
      'data: {"type":"message_stop"}',
      '',
    ].join('\n');
    expect(sseUsage(text)).toEqual({
      input_tokens: 4,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 9000,
      cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 0 },
      output_tokens: 212,
    });
  });

  it('Anthropic: totals repeated in message_delta overlay message_start, nulls and nested fields merge', () => {
    const events = [
      { type: 'message_start', message: { usage: { input_tokens: 10, cache_read_input_tokens: 0, cache_creation: { ephemeral_1h_input_tokens: 5 }, output_tokens: 1 } } },
      { type: 'message_delta', usage: { input_tokens: 12, cache_read_input_tokens: null, cache_creation: { ephemeral_5m_input_tokens: 7 }, output_tokens: 40 } },
    ];
    expect(streamUsage(events)).toEqual({
      input_tokens: 12,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_1h_input_tokens: 5, ephemeral_5m_input_tokens: 7 },
      output_tokens: 40,
    });
  });

  it('OpenAI Chat: only the final chunk carries usage', () => {
    const text =
      'data: {"choices":[{"delta":{"content":"a"}}],"usage":null}\n\n' +
      'data: {"choices":[],"usage":{"prompt_tokens":1300,"completion_tokens":12,"prompt_tokens_details":{"cached_tokens":1152}}}\n\n' +
      'data: [DONE]\n\n';
    expect(sseUsage(text)).toEqual({ prompt_tokens: 1300, completion_tokens: 12, prompt_tokens_details: { cached_tokens: 1152 } });
  });

  it('OpenAI Responses: response.completed carries the usage; created/in_progress have none', () => {
    const text =
      'event: response.created\ndata: {"type":"response.created","response":{"usage":null}}\n\n' +
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"x"}\n\n' +
      'event: response.completed\ndata: {"type":"response.completed","response":{"usage":{"input_tokens":2048,"output_tokens":5,"input_tokens_details":{"cached_tokens":1920}}}}\n\n';
    expect(sseUsage(text)).toEqual({ input_tokens: 2048, output_tokens: 5, input_tokens_details: { cached_tokens: 1920 } });
  });

  it('looks through captured {event, data} wrappers (claude-trace `events`)', () => {
    const events = [
      { event: 'message_start', data: { type: 'message_start', message: { usage: { input_tokens: 3, output_tokens: 1 } } }, timestamp: 't' },
      { event: 'message_delta', data: { type: 'message_delta', usage: { output_tokens: 9 } }, timestamp: 't' },
    ];
    expect(streamUsage(events)).toEqual({ input_tokens: 3, output_tokens: 9 });
  });

  it('has no usage for a stream that records none, and leaves its inputs unchanged', () => {
    expect(sseUsage('data: {"type":"ping"}\n\n')).toBeNull();
    expect(streamUsage([])).toBeNull();
    const before = { output_tokens: 1 };
    const after = mergeEventUsage(before, { usage: { output_tokens: 2 } });
    expect(before).toEqual({ output_tokens: 1 });
    expect(after).toEqual({ output_tokens: 2 });
  });
});
