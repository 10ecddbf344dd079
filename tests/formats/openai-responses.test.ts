// OpenAI Responses importer: instructions, input string and items, tool items, reasoning, notes.
import { describe, expect, it } from 'vitest';
import { brief, responses, syntheticImages } from './helpers.ts';

describe('OpenAI Responses importer', () => {
  it('orders tools → instructions → input; a string input is one user segment', () => {
    const tool = { type: 'function', name: 'lookup', parameters: { type: 'object' } };
    const request = responses({ model: 'gpt-5', tools: [tool], instructions: 'Be synthetic.', input: 'hi' });
    expect(request.segments.map(brief)).toEqual([
      { category: 'tools', path: 'tools[0]', text: JSON.stringify(tool), position: 0, messageIndex: -1, role: null },
      { category: 'system', path: 'instructions', text: 'Be synthetic.', position: 1, messageIndex: -1, role: 'system' },
      { category: 'user', path: 'input', text: 'hi', position: 2, messageIndex: 0, role: 'user' },
    ]);
    expect(request.messageCount).toBe(1);
  });

  it('reads message items with input and output parts, and system/developer messages', () => {
    const request = responses({
      model: 'gpt-5',
      input: [
        { role: 'developer', content: 'rules' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'see', prompt_cache_breakpoint: { mode: 'explicit' } },
            { type: 'input_image', image_url: `data:image/webp;base64,${syntheticImages.webpVp8x(1000, 500)}`, detail: 'auto' },
            { type: 'input_image', file_id: 'file-synthetic' },
            { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0x' },
            { type: 'input_file', file_url: 'https://example.invalid/a.pdf' },
          ],
        },
        { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }, { type: 'refusal', refusal: 'no' }] },
      ],
    });
    expect(request.unknownShapes).toEqual([]);
    expect(request.segments.map((s) => [s.category, s.messageIndex, s.media?.source ?? null, s.media?.width ?? null, s.cacheable])).toEqual([
      ['system', 0, null, null, false],
      ['user', 1, null, null, true],
      ['image', 1, 'base64', 1000, true],
      ['image', 1, 'file', null, true],
      ['document', 1, 'base64', null, true],
      ['document', 1, 'url', null, true],
      ['assistant', 2, null, null, false],
      ['assistant', 2, null, null, false],
    ]);
    expect(request.segments[1]!.cacheMarker).toEqual({ ttl: '5m' });
    expect(request.messageCount).toBe(3);
  });

  it('reads function calls and outputs, custom tool calls, reasoning and MCP items', () => {
    const request = responses({
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'go' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking about it' }], encrypted_content: 'gAAAA-opaque' },
        { type: 'reasoning', id: 'rs_2', summary: [{ type: 'summary_text', text: 'plain summary' }] },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"q":1}' },
        { type: 'function_call', call_id: 'call_2', name: 'lookup', arguments: '{"q":2}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'one' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'two' }, { type: 'input_image', image_url: `data:image/png;base64,${syntheticImages.png(5, 6)}` }] },
        { type: 'custom_tool_call', call_id: 'call_3', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_3', output: 'done' },
        { type: 'mcp_list_tools', id: 'mcpl_1', server_label: 'wiki', tools: [{ name: 'ask', input_schema: {} }] },
        { type: 'mcp_call', id: 'mcp_1', server_label: 'wiki', name: 'ask', arguments: '{"q":"x"}', output: 'answer', error: null },
      ],
    });
    expect(request.unknownShapes).toEqual([]);
    expect(request.segments.map((s) => [s.category, s.text, s.callId, s.position])).toEqual([
      ['user', 'go', null, 0],
      ['thinking', 'gAAAA-opaque', null, 1],
      ['thinking', 'plain summary', null, 2],
      ['tool_call', '{"q":1}', 'call_1', 3],
      ['tool_call', '{"q":2}', 'call_2', 3],
      ['tool_result', 'one', 'call_1', 4],
      ['tool_result', 'two', 'call_2', 4],
      ['image', '', 'call_2', 4],
      ['tool_call', '*** Begin Patch', 'call_3', 5],
      ['tool_result', 'done', 'call_3', 6],
      ['tool_result', '[{"name":"ask","input_schema":{}}]', 'mcpl_1', 6],
      ['tool_call', '{"q":"x"}\nanswer', 'mcp_1', 7],
    ]);
    expect(request.segments[7]!.media).toMatchObject({ width: 5, height: 6 });
  });

  it('reads generated images and computer screenshots as image segments, not base64 text', () => {
    const png = syntheticImages.png(1024, 768);
    const request = responses({
      model: 'gpt-5',
      input: [
        { type: 'image_generation_call', id: 'ig_1', status: 'completed', result: png },
        { type: 'computer_call', call_id: 'cc_1', action: { type: 'screenshot' }, pending_safety_checks: [] },
        { type: 'computer_call_output', call_id: 'cc_1', output: { type: 'computer_screenshot', image_url: `data:image/png;base64,${png}` } },
      ],
    });
    expect(request.unknownShapes).toEqual([]);
    expect(request.segments.map((s) => [s.category, s.text, s.media?.width ?? null, s.callId])).toEqual([
      ['image', '', 1024, 'ig_1'],
      ['tool_call', '{"type":"screenshot"}', null, 'cc_1'],
      ['tool_result', '', null, 'cc_1'],
      ['image', '', 1024, 'cc_1'],
    ]);
  });

  it('notes previous_response_id and item_reference (server-side state not in the file)', () => {
    const request = responses({ model: 'gpt-5', previous_response_id: 'resp_1', input: [{ type: 'item_reference', id: 'msg_0' }, { role: 'user', content: 'more' }] });
    expect(request.options.previousResponseId).toBe(true);
    expect(request.notes.map((n) => n.code)).toEqual(['item_reference', 'previous_response_id']);
    expect(request.unknownShapes).toEqual([]);
  });

  it('reads reasoning effort, prompt cache options and tool_choice', () => {
    const request = responses({
      model: 'gpt-5',
      input: 'x',
      reasoning: { effort: 'medium', summary: 'auto' },
      tool_choice: 'required',
      prompt_cache_key: 'k',
      prompt_cache_options: { mode: 'implicit' },
    });
    expect(request.options).toMatchObject({ thinking: 'medium', toolChoice: 'required', promptCacheKey: 'k', promptCacheMode: 'implicit' });
  });

  it('keeps an unknown item type as an other segment', () => {
    const request = responses({ model: 'gpt-5', input: [{ type: 'teleport_call', id: 'x' }] });
    expect(request.unknownShapes).toEqual([{ path: 'input[0]', shape: 'teleport_call' }]);
    expect(request.segments[0]).toMatchObject({ category: 'other', text: '{"type":"teleport_call","id":"x"}' });
  });
});
