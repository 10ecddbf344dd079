// OpenAI Chat Completions importer: roles, parts, tool calls, breakpoints, options.
import { describe, expect, it } from 'vitest';
import { brief, chat, syntheticImages } from './helpers.ts';

const fnTool = { type: 'function', function: { name: 'lookup', description: 'synthetic', parameters: { type: 'object', properties: {} } } };

describe('OpenAI Chat Completions importer', () => {
  it('orders tools then messages; system and developer messages are system', () => {
    const request = chat({
      model: 'gpt-4o',
      messages: [
        { role: 'developer', content: 'dev rules' },
        { role: 'system', content: 'sys rules' },
        { role: 'user', content: 'hello' },
      ],
      tools: [fnTool],
    });
    expect(request.segments.map(brief)).toEqual([
      { category: 'tools', path: 'tools[0]', text: JSON.stringify(fnTool), position: 0, messageIndex: -1, role: null },
      { category: 'system', path: 'messages[0].content', text: 'dev rules', position: 1, messageIndex: 0, role: 'developer' },
      { category: 'system', path: 'messages[1].content', text: 'sys rules', position: 2, messageIndex: 1, role: 'system' },
      { category: 'user', path: 'messages[2].content', text: 'hello', position: 3, messageIndex: 2, role: 'user' },
    ]);
    expect(request.segments[0]!.toolName).toBe('lookup');
    // A string content's block is its message.
    // A string content's wire is its message with the content as the one text part it renders as.
    expect(request.segments[3]!.wire).toBe('{"role":"user","content":[{"type":"text","text":"hello"}]}');
    expect(request.messageCount).toBe(3);
    expect(request.unknownShapes).toEqual([]);
  });

  it('reads assistant tool_calls and tool results with ids and names', () => {
    const request = chat({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"a"}' } },
            { id: 'call_2', type: 'function', function: { name: 'lookup', arguments: '{"q":"b"}' } },
            { id: 'call_3', type: 'custom', custom: { name: 'patch', input: '*** raw text' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'A' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'B' }] },
        { role: 'function', name: 'legacy', content: 'C' },
      ],
    });
    expect(request.segments.map((s) => [s.category, s.text, s.toolName, s.callId, s.position])).toEqual([
      ['user', 'go', null, null, 0],
      ['tool_call', '{"q":"a"}', 'lookup', 'call_1', 1],
      ['tool_call', '{"q":"b"}', 'lookup', 'call_2', 1],
      ['tool_call', '*** raw text', 'patch', 'call_3', 1],
      ['tool_result', 'A', null, 'call_1', 2],
      ['tool_result', 'B', null, 'call_2', 2],
      ['tool_result', 'C', 'legacy', null, 2],
    ]);
    // The assistant message's content is null: no text segment for it.
    expect(request.segments.filter((s) => s.messageIndex === 1)).toHaveLength(3);
  });

  it('reads image_url (data URL and link), input_audio, file and refusal parts', () => {
    const request = chat({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look', prompt_cache_breakpoint: { mode: 'explicit' } },
            { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${syntheticImages.jpeg(320, 240)}`, detail: 'low' } },
            { type: 'image_url', image_url: { url: 'https://example.invalid/x.png' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0x' } },
            { type: 'file', file: { file_id: 'file-synthetic' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] },
        { role: 'assistant', content: null, refusal: 'still no' },
      ],
    });
    expect(request.unknownShapes).toEqual([]);
    expect(request.segments.map((s) => [s.category, s.media?.source ?? null, s.media?.mediaType ?? null, s.media?.width ?? null, s.cacheable])).toEqual([
      ['user', null, null, null, true],
      ['image', 'base64', 'image/jpeg', 320, true],
      ['image', 'url', null, null, true],
      ['audio', 'base64', 'audio/wav', null, true],
      ['document', 'base64', 'application/pdf', null, true],
      ['document', 'file', null, null, true],
      ['assistant', null, null, null, false],
      ['assistant', null, null, null, false],
    ]);
    // The first part carries its message (role) around it; the marker is read from the part, not kept in the wire.
    expect(request.segments[0]).toMatchObject({ cacheMarker: { ttl: '5m' }, wire: '{"role":"user","content":[{"type":"text","text":"look"}]}' });
    expect(request.segments[1]!.wire.startsWith('{"type":"image_url"')).toBe(true);
    expect(request.segments[3]!.media!.dataBytes).toBe(4);
  });

  it('reads options: tool_choice, reasoning_effort, prompt cache key, retention and mode, stream', () => {
    const request = chat({
      model: 'gpt-5.6-sol',
      messages: [],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
      reasoning_effort: 'low',
      prompt_cache_key: 'tenant-a',
      user: 'synthetic-user-1',
      prompt_cache_retention: '24h',
      prompt_cache_options: { mode: 'explicit', ttl: '30m' },
      stream: true,
    });
    expect(request.options).toEqual({
      toolChoice: 'function:lookup',
      thinking: 'low',
      promptCacheKey: 'tenant-a',
      cacheRoutingUser: 'synthetic-user-1',
      promptCacheRetention: '24h',
      promptCacheMode: 'explicit',
      stream: true,
      previousResponseId: false,
      mcpServers: false,
    });
  });

  it('keeps unknown parts and roles as other segments', () => {
    const request = chat({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'video_url', video_url: 'x' }] }, { role: 'oracle', content: 'x' }] });
    expect(request.unknownShapes).toEqual([
      { path: 'messages[0].content[0]', shape: 'video_url' },
      { path: 'messages[1]', shape: 'role:oracle' },
    ]);
    expect(request.segments.map((s) => s.category)).toEqual(['other', 'other']);
  });
});
