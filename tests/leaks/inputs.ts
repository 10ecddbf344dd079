// Synthetic inputs (labelled synthetic) that use every text-bearing field the readers know, in every envelope.
// They are planted by the harness like the real fixtures are, so each string here becomes a marker.

import { validRoute } from '../fuzz/arbitraries.ts';

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export const anthropicBody = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  metadata: { user_id: 'synthetic-user-identity' },
  stop_sequences: ['synthetic stop sequence'],
  system: [
    { type: 'text', text: 'synthetic system prompt block', cache_control: { type: 'ephemeral' } },
    { type: 'text', text: 'synthetic second system block' },
  ],
  tools: [
    { name: 'synthetic_read_file', description: 'synthetic tool description', input_schema: { type: 'object', properties: { synthetic_path: { type: 'string', description: 'synthetic property description' } }, required: ['synthetic_path'] } },
    { type: 'web_search_20250305', name: 'synthetic_web_search', max_uses: 3, allowed_domains: ['synthetic.example'] },
  ],
  tool_choice: { type: 'tool', name: 'synthetic_read_file' },
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'synthetic user question' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } },
        { type: 'image', source: { type: 'url', url: 'https://synthetic.example/secret-image.png' } },
        { type: 'document', title: 'synthetic document title', context: 'synthetic document context', source: { type: 'text', media_type: 'text/plain', data: 'synthetic document text' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'synthetic thinking text', signature: 'synthetic-signature' },
        { type: 'redacted_thinking', data: 'synthetic-redacted-data' },
        { type: 'text', text: 'synthetic assistant reply' },
        { type: 'tool_use', id: 'toolu_synthetic_1', name: 'synthetic_read_file', input: { synthetic_path: 'synthetic/secret/path.ts' } },
        { type: 'server_tool_use', id: 'srvtoolu_synthetic', name: 'web_search', input: { query: 'synthetic search query' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_synthetic', content: [{ type: 'web_search_result', url: 'https://synthetic.example/r', title: 'synthetic result title', encrypted_content: 'synthetic-encrypted', page_age: 'synthetic age' }] },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_synthetic_1', content: 'synthetic tool result text' },
        { type: 'tool_result', tool_use_id: 'toolu_synthetic_1', is_error: true, content: [{ type: 'text', text: 'synthetic tool error text' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } }] },
        { type: 'text', text: 'synthetic follow-up', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
    },
    { role: 'assistant', content: 'synthetic assistant string content' },
    { role: 'user', content: 'synthetic user string content' },
  ],
};

export const chatBody = {
  model: 'gpt-4o',
  user: 'synthetic-end-user-id',
  safety_identifier: 'synthetic-safety-id',
  prompt_cache_key: 'synthetic-cache-key',
  metadata: { synthetic_key: 'synthetic metadata value' },
  stop: ['synthetic stop'],
  response_format: { type: 'json_schema', json_schema: { name: 'synthetic_schema_name', schema: { type: 'object', properties: { synthetic_field: { type: 'string' } } } } },
  tools: [{ type: 'function', function: { name: 'synthetic_lookup', description: 'synthetic function description', parameters: { type: 'object', properties: { synthetic_arg: { type: 'string' } } } } }],
  messages: [
    { role: 'system', content: 'synthetic system message' },
    { role: 'developer', content: [{ type: 'text', text: 'synthetic developer part' }] },
    {
      role: 'user',
      name: 'synthetic-participant-name',
      content: [
        { type: 'text', text: 'synthetic user part' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}`, detail: 'low' } },
        { type: 'image_url', image_url: { url: 'https://synthetic.example/secret.png' } },
        { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        { type: 'file', file: { filename: 'synthetic-secret-file.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' } },
        { type: 'file', file: { file_id: 'file-synthetic-id' } },
      ],
    },
    { role: 'assistant', content: null, refusal: 'synthetic refusal text', tool_calls: [{ id: 'call_synthetic_1', type: 'function', function: { name: 'synthetic_lookup', arguments: '{"synthetic_arg":"synthetic argument value"}' } }] },
    { role: 'tool', tool_call_id: 'call_synthetic_1', content: 'synthetic tool output' },
    { role: 'assistant', content: 'synthetic assistant answer' },
  ],
};

export const responsesBody = {
  model: 'gpt-5',
  instructions: 'synthetic instructions',
  user: 'synthetic-responses-user',
  prompt_cache_key: 'synthetic-responses-cache-key',
  previous_response_id: 'resp_synthetic_previous',
  metadata: { synthetic_meta: 'synthetic meta value' },
  prompt: { id: 'pmpt_synthetic', variables: { synthetic_var: 'synthetic variable value' } },
  text: { format: { type: 'json_schema', name: 'synthetic_format_name', schema: { type: 'object' } } },
  tools: [
    { type: 'function', name: 'synthetic_fn', description: 'synthetic fn description', parameters: { type: 'object', properties: { synthetic_p: { type: 'string' } } } },
    { type: 'mcp', server_label: 'synthetic-server-label', server_url: 'https://synthetic.example/mcp', headers: { Authorization: 'Bearer synthetic-token' }, require_approval: 'never' },
    { type: 'custom', name: 'synthetic_custom_tool', description: 'synthetic custom description' },
  ],
  input: [
    { role: 'user', content: [{ type: 'input_text', text: 'synthetic input text' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG_1X1}` }, { type: 'input_file', filename: 'synthetic-file-name.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' }] },
    { type: 'reasoning', id: 'rs_synthetic', summary: [{ type: 'summary_text', text: 'synthetic reasoning summary' }], encrypted_content: 'synthetic-encrypted-reasoning' },
    { type: 'function_call', id: 'fc_synthetic', call_id: 'call_synthetic_r', name: 'synthetic_fn', arguments: '{"synthetic_p":"synthetic call argument"}' },
    { type: 'function_call_output', call_id: 'call_synthetic_r', output: 'synthetic function output' },
    { type: 'custom_tool_call', call_id: 'call_synthetic_c', name: 'synthetic_custom_tool', input: 'synthetic custom input' },
    { type: 'custom_tool_call_output', call_id: 'call_synthetic_c', output: 'synthetic custom output' },
    { type: 'item_reference', id: 'msg_synthetic_reference' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'synthetic output text' }, { type: 'refusal', refusal: 'synthetic refusal' }] },
  ],
};

const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

/** Request-log files (name → JSONL text) in every envelope the reader unwraps, with gateway identity fields. */
export function requestLogFiles(): Record<string, string> {
  const lines = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  return {
    'bare.jsonl': lines([anthropicBody, chatBody, responsesBody]),
    'body.json': JSON.stringify(anthropicBody, null, 2),
    'array.json': JSON.stringify([chatBody, chatBody]),
    'gateway.jsonl': lines([
      { timestamp: '2026-01-01T00:00:00.000Z', user: 'synthetic-gateway-user', team_id: 'synthetic-team', api_key_alias: 'synthetic-key-alias', headers: { authorization: 'Bearer synthetic-secret' }, request: anthropicBody, response: { id: 'msg_synthetic', usage } },
      { timestamp: '2026-01-01T00:00:01.000Z', user: 'synthetic-gateway-user', request: anthropicBody, response: { id: 'msg_synthetic_2', usage } },
    ]),
    'gateway-string.jsonl': lines([{ request_body: JSON.stringify(chatBody), response_body: JSON.stringify({ usage: { prompt_tokens: 10, completion_tokens: 2 } }), end_user: 'synthetic-end-user' }]),
    'http-capture.jsonl': lines([{ request: { method: 'POST', url: 'https://synthetic.example/v1/responses', headers: { 'x-api-key': 'synthetic-secret-key' }, body: JSON.stringify(responsesBody) } }]),
    'anthropic-batch.jsonl': lines([{ custom_id: 'synthetic-custom-id-a', params: anthropicBody }]),
    'anthropic-batch-results.jsonl': lines([{ custom_id: 'synthetic-custom-id-a', result: { type: 'succeeded', message: { id: 'msg_synthetic_b', usage } } }]),
    'openai-batch.jsonl': lines([{ custom_id: 'synthetic-custom-id-o', method: 'POST', url: '/v1/chat/completions', body: chatBody }]),
    'openai-batch-output.jsonl': lines([{ id: 'batch_req_synthetic', custom_id: 'synthetic-custom-id-o', response: { status_code: 200, request_id: 'synthetic-request-id', body: { usage: { prompt_tokens: 10, completion_tokens: 2 } } }, error: null }]),
  };
}

/** Dupes inputs: the native envelope and both adapters, in every form the contract reads. */
export function dupesFiles(): Record<string, string> {
  return {
    'native.json': JSON.stringify({ suite: 'v1', blocks: [{ text: 'synthetic block one' }, { text: 'synthetic block one' }, { text: 'synthetic block two', note: 'synthetic unknown member' }] }),
    'chat-adapter.json': JSON.stringify({ adapter: 'openai-chat-v1', messages: chatBody.messages.concat(chatBody.messages) }),
    'cone-adapter.json': JSON.stringify({ adapter: 'conereplay-v1', trace: { trace_id: 'synthetic-trace', events: [{ event_id: 'synthetic-event-1', inputs: 'synthetic inputs', outputs: 'synthetic outputs' }, { event_id: 'synthetic-event-2', inputs: 'synthetic outputs', outputs: 'synthetic final' }] } }),
    'cone-trace.json': JSON.stringify({ events: [{ event_id: 'synthetic-e1', inputs: 'synthetic same', outputs: 'synthetic same' }] }),
    'cone-trace.jsonl': '{"event_id":"synthetic-e1","inputs":"synthetic a","outputs":"synthetic b"}\n{"event_id":"synthetic-e2","inputs":"synthetic b","outputs":"synthetic c"}\n',
    'refused-envelope.json': JSON.stringify({ suite: 'v1', blocks: [{ text: 'synthetic fine' }, { text: 42, synthetic: 'synthetic refused block' }] }),
  };
}

/** Routes with a free-text label per entry (ignored by the parser; must never be echoed). */
export function routesFile(): unknown[] {
  return ['anthropic-messages', 'openai-responses'].map((api) => ({
    ...validRoute(api),
    label: `synthetic route label for ${api}`,
    account: 'synthetic-account-identity',
  }));
}

export const agentConfigFile = [
  { runId: 'synthetic-run-1', builtins: ['read', 'grep', 'synthetic_builtin'], mcpTools: [{ exposedName: 'synthetic_mcp_tool', server: 'synthetic-mcp-server' }] },
];

export const appAllowlistFile = [{ server: 'synthetic-mcp-server', tool: 'synthetic_mcp_tool', serverIdentityDigest: 'ab'.repeat(32), readOnly: true, note: 'synthetic reviewer note' }];

/** A small synthetic pi journal (v3) with a tool call and its result, to sit beside the real ones. */
export function piJournal(): string {
  const entries: Record<string, unknown>[] = [
    { type: 'session', version: 3, id: 'synthetic-session-id', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/synthetic/secret/project' },
    { type: 'message', id: 'e1', parentId: null, timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'synthetic prompt' }], timestamp: 1767225601000 } },
    { type: 'message', id: 'e2', parentId: 'e1', timestamp: '2026-01-01T00:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'synthetic answer' }, { type: 'toolCall', id: 'synthetic-call-id', name: 'read', arguments: { path: 'synthetic/secret.ts' } }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'toolUse', timestamp: 1767225602000 } },
    { type: 'message', id: 'e3', parentId: 'e2', timestamp: '2026-01-01T00:00:03.000Z', message: { role: 'toolResult', toolCallId: 'synthetic-call-id', toolName: 'read', content: [{ type: 'text', text: 'synthetic file contents' }], isError: false, timestamp: 1767225603000 } },
    { type: 'message', id: 'e4', parentId: 'e3', timestamp: '2026-01-01T00:00:04.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'synthetic done' }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 120, output: 5, cacheRead: 100, cacheWrite: 0, totalTokens: 225, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: 1767225604000 } },
  ];
  return entries.map((e) => JSON.stringify(e)).join('\n') + '\n';
}
