// Anthropic Messages importer: every content shape, serialization order, positions, markers, options.
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/text/hash.ts';
import { anthropic, brief, syntheticImages } from './helpers.ts';

const weatherTool = { name: 'get_weather', description: 'synthetic tool', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };

describe('Anthropic Messages importer', () => {
  it('orders segments tools → system → messages with their paths and categories', () => {
    const request = anthropic({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'What is the weather?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }] },
      ],
      system: [{ type: 'text', text: 'You are synthetic.' }],
      tools: [weatherTool],
    });
    expect(request.segments.map(brief)).toEqual([
      { category: 'tools', path: 'tools[0]', text: JSON.stringify(weatherTool), position: 0, messageIndex: -1, role: null },
      { category: 'system', path: 'system[0]', text: 'You are synthetic.', position: 1, messageIndex: -1, role: 'system' },
      { category: 'user', path: 'messages[0].content', text: 'What is the weather?', position: 2, messageIndex: 0, role: 'user' },
      { category: 'assistant', path: 'messages[1].content[0]', text: 'Let me check.', position: 3, messageIndex: 1, role: 'assistant' },
    ]);
    expect(request.segments[0]!.toolName).toBe('get_weather');
    expect(request).toMatchObject({ format: 'anthropic-messages', model: 'claude-sonnet-4-5', messageCount: 2, unknownShapes: [], notes: [] });
  });

  it('reads a string system prompt as one segment whose wire is the text block it renders as', () => {
    const request = anthropic({ model: 'm', max_tokens: 1, system: 'Be brief.', messages: [] });
    expect(request.segments).toHaveLength(1);
    const wire = '{"type":"text","text":"Be brief."}';
    expect(request.segments[0]).toMatchObject({ category: 'system', role: 'system', path: 'system', text: 'Be brief.', wire, bytes: 34, hash: contentHash(wire) });
    // The same prompt written as a one-block list has the same identity.
    const listed = anthropic({ model: 'm', max_tokens: 1, system: [{ type: 'text', text: 'Be brief.' }], messages: [] });
    expect(listed.segments[0]!.wire).toBe(wire);
  });

  it('keeps the wire as sent minus cache_control, with bytes and hash of that wire', () => {
    const block = { type: 'text', text: 'h\u00e9', cache_control: { type: 'ephemeral', ttl: '1h' } };
    const request = anthropic({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [block] }] });
    const segment = request.segments[0]!;
    // The first block of a message carries the message's role around it.
    expect(segment.wire).toBe('{"role":"user","content":[{"type":"text","text":"h\u00e9"}]}');
    // 54 ASCII characters + é (2 bytes in UTF-8).
    expect(segment.bytes).toBe(56);
    expect(segment.hash).toBe(contentHash(segment.wire));
    expect(segment.cacheMarker).toEqual({ ttl: '1h' });
  });

  it('keeps a __proto__ key of a marked block in its wire (as JSON.parse made it: an own property)', () => {
    const body = JSON.parse(
      '{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":"x","__proto__":{"p":1},"cache_control":{"type":"ephemeral"}}]}]}',
    ) as Record<string, unknown>;
    const segment = anthropic(body).segments[0]!;
    expect(segment.wire).toBe('{"role":"user","content":[{"type":"text","text":"x","__proto__":{"p":1}}]}');
    expect(segment.cacheMarker).toEqual({ ttl: '5m' });
  });

  it('reads cache_control without ttl as 5m and a top-level cache_control as the automatic marker', () => {
    const request = anthropic({
      model: 'm',
      max_tokens: 1,
      cache_control: { type: 'ephemeral' },
      system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'u' }],
    });
    expect(request.topLevelCacheMarker).toEqual({ ttl: '5m' });
    expect(request.segments.map((s) => s.cacheMarker)).toEqual([{ ttl: '5m' }, null]);
  });

  it('reads images (base64 with pixel size, url, file) and documents (pdf, text, content, url)', () => {
    const png = syntheticImages.png(800, 600);
    const request = anthropic({
      model: 'm',
      max_tokens: 1,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'image', source: { type: 'url', url: 'https://example.invalid/a.jpg' } },
            { type: 'image', source: { type: 'file', file_id: 'file_synthetic' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain text doc' }, title: 't', citations: { enabled: true } },
            { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'part one' }, { type: 'text', text: 'part two' }] } },
            { type: 'document', source: { type: 'url', url: 'https://example.invalid/a.pdf' } },
          ],
        },
      ],
    });
    expect(request.unknownShapes).toEqual([]);
    expect(request.segments.map((s) => [s.category, s.text, s.media])).toEqual([
      ['image', '', { kind: 'image', source: 'base64', mediaType: 'image/png', dataBytes: 29, width: 800, height: 600 }],
      ['image', '', { kind: 'image', source: 'url', mediaType: null, dataBytes: 0, width: null, height: null }],
      ['image', '', { kind: 'image', source: 'file', mediaType: null, dataBytes: 0, width: null, height: null }],
      ['document', '', { kind: 'document', source: 'base64', mediaType: 'application/pdf', dataBytes: 6, width: null, height: null }],
      ['document', 'plain text doc', { kind: 'document', source: 'unknown', mediaType: 'text/plain', dataBytes: 14, width: null, height: null }],
      ['document', 'part one\npart two', { kind: 'document', source: 'unknown', mediaType: null, dataBytes: 0, width: null, height: null }],
      ['document', '', { kind: 'document', source: 'url', mediaType: null, dataBytes: 0, width: null, height: null }],
    ]);
  });

  it('reads tool_use and tool_result with call ids, names and flattened result text', () => {
    const request = anthropic({
      model: 'm',
      max_tokens: 1,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }, { type: 'text', text: '21C' }], is_error: false },
          ],
        },
      ],
    });
    const [, call, result] = request.segments;
    expect(call).toMatchObject({ category: 'tool_call', text: '{"city":"Paris"}', toolName: 'get_weather', callId: 'toolu_1', cacheable: true });
    expect(result).toMatchObject({ category: 'tool_result', text: 'sunny\n21C', callId: 'toolu_1', cacheable: true });
  });

  it('emits an image inside a tool_result as its own segment at the same position', () => {
    const request = anthropic({
      model: 'm',
      max_tokens: 1,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'screenshot:' }, { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: syntheticImages.gif(10, 20) } }] },
            { type: 'text', text: 'next' },
          ],
        },
      ],
    });
    expect(request.segments.map((s) => [s.category, s.path, s.position, s.callId])).toEqual([
      ['tool_result', 'messages[0].content[0]', 0, 't1'],
      ['image', 'messages[0].content[0].content[1]', 0, 't1'],
      ['user', 'messages[0].content[1]', 1, null],
    ]);
    expect(request.segments[0]!.text).toBe('screenshot:');
    expect(request.segments[1]!.media).toMatchObject({ width: 10, height: 20 });
  });

  it('counts a run of tool_use blocks, and a run of tool_result blocks, as one position each', () => {
    const use = (id: string) => ({ type: 'tool_use', id, name: 'f', input: {} });
    const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
    const request = anthropic({
      model: 'm',
      max_tokens: 1,
      messages: [
        { role: 'user', content: 'start' },
        { role: 'assistant', content: [{ type: 'text', text: 'calling' }, use('a'), use('b'), use('c')] },
        { role: 'user', content: [result('a'), result('b')] },
        // A second consecutive user turn of results: the API merges consecutive same-role turns, so the run goes on.
        { role: 'user', content: [result('c'), { type: 'text', text: 'and now?' }] },
        { role: 'assistant', content: [use('d'), { type: 'server_tool_use', id: 's', name: 'web_search', input: { query: 'q' } }, use('e')] },
      ],
    });
    expect(request.segments.map((s) => `${s.category}@${s.position}`)).toEqual([
      'user@0',
      'assistant@1',
      'tool_call@2',
      'tool_call@2',
      'tool_call@2',
      'tool_result@3',
      'tool_result@3',
      'tool_result@3',
      'user@4',
      'tool_call@5',
      // server_tool_use is not a tool_use block: it breaks the run.
      'tool_call@6',
      'tool_call@7',
    ]);
  });

  it('reads thinking, redacted thinking and server tool blocks, none of them unknown', () => {
    const request = anthropic({
      model: 'm',
      max_tokens: 1,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'let me think', signature: 'sig' },
            { type: 'redacted_thinking', data: 'opaque-data' },
            { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { query: 'x' } },
            { type: 'web_search_tool_result', tool_use_id: 'srv_1', content: [{ type: 'web_search_result', url: 'u', title: 't', encrypted_content: 'enc', page_age: null }] },
            { type: 'mcp_tool_use', id: 'mcp_1', name: 'ask', server_name: 'wiki', input: { q: 1 } },
            { type: 'mcp_tool_result', tool_use_id: 'mcp_1', is_error: false, content: [{ type: 'text', text: 'answer' }] },
            { type: 'text', text: '' },
          ],
        },
      ],
    });
    expect(request.unknownShapes).toEqual([]);
    expect(request.segments.slice(1).map((s) => [s.category, s.text, s.cacheable])).toEqual([
      ['thinking', 'let me think', false],
      ['thinking', 'opaque-data', false],
      ['tool_call', '{"query":"x"}', true],
      ['tool_result', '{"type":"web_search_result","url":"u","title":"t","encrypted_content":"enc","page_age":null}', true],
      ['tool_call', '{"q":1}', true],
      ['tool_result', 'answer', true],
      ['assistant', '', false],
    ]);
    expect(request.options.thinking).toBe('enabled');
  });

  it('reads tool_reference results, tool_addition and a system-role message with a note', () => {
    const request = anthropic({
      model: 'm',
      max_tokens: 1,
      messages: [
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'tool_reference', tool_name: 'lookup' }] }] },
        { role: 'system', content: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: 'lookup' } }] },
        { role: 'system', content: 'Now be terse.' },
      ],
    });
    expect(request.unknownShapes).toEqual([]);
    expect(request.segments.map((s) => [s.category, s.toolName])).toEqual([
      ['tool_result', null],
      ['tools', 'lookup'],
      ['system', null],
    ]);
    expect(request.notes.map((n) => n.code)).toEqual(['system_role_in_messages']);
  });

  it('reads a compaction block as the text of its turn', () => {
    const request = anthropic({ model: 'm', max_tokens: 1, messages: [{ role: 'assistant', content: [{ type: 'compaction', content: 'summary of earlier turns' }] }] });
    expect(request.unknownShapes).toEqual([]);
    expect(request.segments.map((s) => [s.category, s.text])).toEqual([['assistant', 'summary of earlier turns']]);
  });

  it('keeps an unknown block as an "other" segment with its JSON, listed and noted', () => {
    const block = { type: 'hologram', payload: 'synthetic', cache_control: { type: 'ephemeral' } };
    const request = anthropic({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [block] }] });
    expect(request.segments).toHaveLength(1);
    expect(request.segments[0]).toMatchObject({ category: 'other', text: '{"type":"hologram","payload":"synthetic"}', cacheMarker: { ttl: '5m' } });
    expect(request.unknownShapes).toEqual([{ path: 'messages[0].content[0]', shape: 'hologram' }]);
    expect(request.notes.map((n) => n.code)).toEqual(['unknown_shapes']);
  });

  it('reports top-level fields of the wrong type instead of skipping them', () => {
    const request = anthropic({ model: 'm', max_tokens: 1, tools: { name: 'f' }, system: 42, messages: 'hello', stream: null });
    expect(request.unknownShapes).toEqual([
      { path: 'tools', shape: 'tools:object' },
      { path: 'system', shape: 'system:number' },
      { path: 'messages', shape: 'messages:string' },
    ]);
    expect(request.segments.map((s) => [s.category, s.text])).toEqual([
      ['other', '{"name":"f"}'],
      ['other', '42'],
      ['other', '"hello"'],
    ]);
  });

  it('reports an unknown role and a missing model', () => {
    const request = anthropic({ max_tokens: 1, messages: [{ role: 'narrator', content: 'x' }] });
    expect(request.unknownShapes).toEqual([{ path: 'messages[0]', shape: 'role:narrator' }]);
    expect(request.model).toBeNull();
    expect(request.notes.map((n) => n.code)).toEqual(['no_model', 'unknown_shapes']);
  });

  it('reads options: tool_choice, thinking, effort, stream', () => {
    const request = anthropic({
      model: 'm',
      max_tokens: 1,
      stream: true,
      tool_choice: { type: 'tool', name: 'get_weather' },
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      messages: [],
    });
    expect(request.options).toEqual({
      toolChoice: 'tool:get_weather',
      thinking: 'adaptive:high',
      promptCacheKey: null,
      cacheRoutingUser: null,
      promptCacheRetention: null,
      promptCacheMode: null,
      stream: true,
      previousResponseId: false,
      mcpServers: false,
    });
  });

  it('notes MCP servers only when the list has one (synthetic)', () => {
    const server = { type: 'url', url: 'https://mcp.example.test/sse', name: 'example' };
    expect(anthropic({ model: 'm', max_tokens: 1, messages: [], mcp_servers: [server] }).options.mcpServers).toBe(true);
    expect(anthropic({ model: 'm', max_tokens: 1, messages: [], mcp_servers: [] }).options.mcpServers).toBe(false);
    expect(anthropic({ model: 'm', max_tokens: 1, messages: [], mcp_servers: 'x' }).options.mcpServers).toBe(false);
  });
});
