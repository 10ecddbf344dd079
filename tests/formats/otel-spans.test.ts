// OpenTelemetry GenAI spans (OTLP JSON). Synthetic spans, hand-made in the shapes the instrumentations write
// (OpenLLMetry's flat gen_ai.prompt.N.* attributes, the newer gen_ai.input.messages on an operation-details event,
// the collector's file exporter with one export request a line); every figure below is worked out by hand.
import { describe, expect, it } from 'vitest';
import { readRequests } from '../../src/core/input/index.ts';

const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
const n = (key: string, value: number) => ({ key, value: { intValue: String(value) } });
const exportRequest = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [s('service.name', 'synthetic')] }, scopeSpans: [{ scope: { name: 'synthetic' }, spans }] }] });
const span = (attributes: unknown[], extra: object = {}) => ({ traceId: 'a', spanId: 'b', name: 'chat', startTimeUnixNano: '1767225600000000000', endTimeUnixNano: '1767225601000000000', attributes, ...extra });
const enc = (text: string) => new TextEncoder().encode(text);

describe('OpenTelemetry GenAI spans (synthetic)', () => {
  it('OpenLLMetry, Anthropic: flat prompt attributes, tools, usage whose input includes the cache tokens', async () => {
    const attrs = [
      s('gen_ai.system', 'Anthropic'),
      s('gen_ai.request.model', 'claude-sonnet-4-5'),
      s('gen_ai.prompt.0.role', 'system'),
      s('gen_ai.prompt.0.content', 'be brief'),
      s('gen_ai.prompt.1.role', 'user'),
      s('gen_ai.prompt.1.content', '[{"type":"text","text":"synthetic question"}]'),
      s('llm.request.functions.0.name', 'lookup'),
      s('llm.request.functions.0.parameters', '{"type":"object","properties":{}}'),
      n('gen_ai.usage.input_tokens', 1500),
      n('gen_ai.usage.cache_read_input_tokens', 1000),
      n('gen_ai.usage.cache_creation_input_tokens', 200),
      n('gen_ai.usage.output_tokens', 42),
    ];
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([span(attrs)]))) }]);
    expect(result.errors).toEqual([]);
    expect(result.files[0]!.format).toBe('otel-spans');
    const request = result.requests[0]!;
    expect(request.format).toBe('anthropic-messages');
    expect(request.recorded).toEqual({ input: 300, cacheRead: 1000, cacheWrite5m: 200, cacheWrite1h: 0, output: 42 });
    expect(request.timestamp).toBe(Date.UTC(2026, 0, 1));
    expect(new Set(request.segments.map((seg) => seg.category))).toEqual(new Set(['system', 'tools', 'user']));
  });

  it('the collector file exporter (one export a line), gen_ai.input.messages on an operation-details event, a non-LLM span skipped', async () => {
    const details = { name: 'gen_ai.client.inference.operation.details', attributes: [s('gen_ai.input.messages', '[{"role":"user","parts":[{"type":"text","content":"synthetic"}]}]'), s('gen_ai.system_instructions', '[{"type":"text","content":"sys"}]')] };
    const llm = span([s('gen_ai.provider.name', 'openai'), s('gen_ai.request.model', 'gpt-4o-mini'), n('gen_ai.usage.input_tokens', 90), n('gen_ai.usage.output_tokens', 3)], { events: [details] });
    const other = span([s('http.method', 'GET')], { name: 'GET /health' });
    const lines = [JSON.stringify(exportRequest([llm, other])), JSON.stringify(exportRequest([llm]))].join('\n');
    const result = await readRequests([{ name: 'traces.jsonl', bytes: enc(lines) }]);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.format, r.line, r.recorded!.input, r.messageCount])).toEqual([
      ['openai-chat', 1, 90, 2],
      ['openai-chat', 2, 90, 2],
    ]);
  });

  it('a prompt attribute of JSON nested past the records limit is read as text, not walked (hostile, synthetic)', async () => {
    const deep = `${'['.repeat(30_000)}"x"${']'.repeat(30_000)}`;
    const attrs = [s('gen_ai.system', 'anthropic'), s('gen_ai.request.model', 'claude-sonnet-4-5'), s('gen_ai.prompt.0.role', 'user'), s('gen_ai.prompt.0.content', deep), n('gen_ai.usage.input_tokens', 10)];
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([span(attrs)]))) }]);
    // It overflowed the stack (RangeError) when the nested lists were walked for parts.
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]!.segments.find((seg) => seg.category === 'user')?.text).toBe(deep);
  });

  it('a span file with no GenAI span says what it held', async () => {
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([span([s('http.method', 'GET')]), span([])]))) }]);
    expect(result.requests).toHaveLength(0);
    expect(result.errors.map((e) => e.message)).toEqual(['this span file holds no GenAI (LLM call) span: 2 spans, none with gen_ai.* attributes']);
  });
  it("Logfire's request_data (the whole body) beside gen_ai.usage; proto field names (resource_spans, string_value)", async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'synthetic' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] };
    const snake = (key: string, value: string) => ({ key, value: { string_value: value } });
    const doc = {
      resource_spans: [{ scope_spans: [{ spans: [{ name: 'Chat Completion with gpt-4o', start_time_unix_nano: '1767225600000000000', attributes: [snake('gen_ai.system', 'openai'), snake('gen_ai.request.model', 'gpt-4o'), snake('request_data', JSON.stringify(body)), { key: 'gen_ai.usage.input_tokens', value: { int_value: 2100 } }, n('gen_ai.usage.output_tokens', 7)] }] }] }],
    };
    const result = await readRequests([{ name: 'logfire.json', bytes: enc(JSON.stringify(doc)) }]);
    expect(result.errors).toEqual([]);
    const request = result.requests[0]!;
    expect([request.format, request.model, request.recorded!.input, request.timestamp]).toEqual(['openai-chat', 'gpt-4o', 2100, Date.UTC(2026, 0, 1)]);
    expect(new Set(request.segments.map((seg) => seg.category))).toEqual(new Set(['system', 'tools', 'user']));
  });

  it("the Vercel AI SDK's doGenerate span (ai.prompt.messages, ai.usage.*); OpenLIT's gen_ai.prompt on the span", async () => {
    const vercel = span([s('gen_ai.system', 'anthropic.messages'), s('gen_ai.request.model', 'claude-sonnet-4-5'), s('ai.prompt.messages', JSON.stringify([{ role: 'system', content: 'be brief' }, { role: 'user', content: [{ type: 'text', text: 'synthetic' }] }])), n('ai.usage.promptTokens', 55), n('ai.usage.completionTokens', 4)], { name: 'ai.generateText.doGenerate' });
    const openlit = span([s('gen_ai.system', 'openai'), s('gen_ai.request.model', 'gpt-4o-mini'), s('gen_ai.prompt', 'user: synthetic question'), n('gen_ai.usage.input_tokens', 12)]);
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([vercel, openlit]))) }]);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.format, r.recorded!.input, r.recorded!.output, r.messageCount])).toEqual([
      ['anthropic-messages', 55, 4, 1],
      ['openai-chat', 12, 0, 1],
    ]);
    expect(new Set(result.requests[0]!.segments.map((seg) => seg.category))).toEqual(new Set(['system', 'user']));
  });

  it('agent runs, tool runs and embeddings are no model call: an AI SDK invoke_agent root, a pydantic-ai agent run, execute_tool', async () => {
    // Synthetic, in the shapes @ai-sdk/otel (open-telemetry.ts) and pydantic-ai (capabilities/instrumentation.py) write:
    // the root span repeats the provider, model and (summed) usage of the chat span under it.
    const usage = [n('gen_ai.usage.input_tokens', 900), n('gen_ai.usage.output_tokens', 10), n('gen_ai.usage.cache_read.input_tokens', 800), n('gen_ai.usage.cache_creation.input_tokens', 50)];
    const root = span([s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.provider.name', 'anthropic'), s('gen_ai.request.model', 'claude-sonnet-4-5'), ...usage], { name: 'invoke_agent claude-sonnet-4-5' });
    const chat = span([s('gen_ai.operation.name', 'chat'), s('gen_ai.provider.name', 'anthropic'), s('gen_ai.request.model', 'claude-sonnet-4-5'), s('gen_ai.input.messages', '[{"role":"user","parts":[{"type":"text","content":"synthetic"}]}]'), ...usage]);
    const tool = span([s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.system', 'openai'), s('gen_ai.tool.name', 'lookup')]);
    const embed = span([s('gen_ai.operation.name', 'embeddings'), s('gen_ai.provider.name', 'openai'), s('gen_ai.request.model', 'text-embedding-3-small'), n('gen_ai.usage.input_tokens', 7)]);
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([root, chat, tool, embed]))) }]);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.model, r.recorded])).toEqual([['claude-sonnet-4-5', { input: 50, cacheRead: 800, cacheWrite5m: 50, cacheWrite1h: 0, output: 10 }]]);
    const only = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([root, tool]))) }]);
    expect(only.errors.map((e) => e.message)).toEqual(['this span file holds no GenAI (LLM call) span: 2 spans, no model call among them (1 invoke_agent, 1 execute_tool: operations that are no model call)']);
  });

  it('a span that kept no prompt (content capture off, the default) is a usage-only request', async () => {
    // Synthetic, as opentelemetry-instrumentation-openai-v2 writes a chat span by default: model and usage, no content.
    const attrs = [s('gen_ai.operation.name', 'chat'), s('gen_ai.system', 'openai'), s('gen_ai.request.model', 'gpt-4o-mini'), n('gen_ai.usage.input_tokens', 1200), n('gen_ai.usage.output_tokens', 12)];
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([span(attrs)]))) }]);
    expect(result.requests.map((r) => [r.recorded!.input, r.notes.map((x) => x.code)])).toEqual([[1200, ['usage_only']]]);
  });

  it("the AI SDK's cache split by version: v6 inputTokenDetails, v5 cachedInputTokens, v4 providerMetadata", async () => {
    // Synthetic doGenerate spans in the shapes of the AI SDK's legacy telemetry. v6 counts include the cache; v5 and v4
    // pass Anthropic's own input count (without the cache); v5 OpenAI's includes the cached reads.
    const base = (provider: string) => [s('ai.operationId', 'ai.generateText.doGenerate'), s('ai.model.provider', provider), s('gen_ai.system', provider), s('gen_ai.request.model', 'claude-sonnet-4-5'), s('ai.prompt.messages', '[{"role":"user","content":[{"type":"text","text":"synthetic"}]}]')];
    const v6 = span([...base('anthropic.messages'), n('ai.usage.inputTokens', 900), n('ai.usage.outputTokens', 10), n('ai.usage.cachedInputTokens', 800), n('ai.usage.inputTokenDetails.noCacheTokens', 50), n('ai.usage.inputTokenDetails.cacheReadTokens', 800), n('ai.usage.inputTokenDetails.cacheWriteTokens', 50), n('gen_ai.usage.input_tokens', 900), n('gen_ai.usage.output_tokens', 10)]);
    const v5 = span([...base('anthropic.messages'), n('ai.usage.inputTokens', 50), n('ai.usage.outputTokens', 10), n('ai.usage.cachedInputTokens', 800), s('ai.response.providerMetadata', '{"anthropic":{"cacheCreationInputTokens":40}}'), n('gen_ai.usage.input_tokens', 50), n('gen_ai.usage.output_tokens', 10)]);
    const v5openai = span([...base('openai.chat'), n('ai.usage.inputTokens', 1000), n('ai.usage.outputTokens', 10), n('ai.usage.cachedInputTokens', 768), n('gen_ai.usage.input_tokens', 1000), n('gen_ai.usage.output_tokens', 10)]);
    const v4 = span([...base('anthropic.messages'), n('ai.usage.promptTokens', 50), n('ai.usage.completionTokens', 10), s('ai.response.providerMetadata', '{"anthropic":{"cacheCreationInputTokens":40,"cacheReadInputTokens":800}}'), n('gen_ai.usage.prompt_tokens', 50), n('gen_ai.usage.completion_tokens', 10)]);
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([v6, v5, v5openai, v4]))) }]);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => r.recorded)).toEqual([
      { input: 50, cacheRead: 800, cacheWrite5m: 50, cacheWrite1h: 0, output: 10 },
      { input: 50, cacheRead: 800, cacheWrite5m: 40, cacheWrite1h: 0, output: 10 },
      { input: 232, cacheRead: 768, cacheWrite5m: 0, cacheWrite1h: 0, output: 10 },
      { input: 50, cacheRead: 800, cacheWrite5m: 40, cacheWrite1h: 0, output: 10 },
    ]);
  });

  it("OpenLIT's Anthropic input count leaves the cache out (its own convention); a count below its cache tokens is one without them", async () => {
    // Synthetic, as openlit's anthropic instrumentation (utils.py) writes it: gen_ai.usage.input_tokens is Anthropic's input_tokens.
    const usage = [s('gen_ai.system', 'anthropic'), s('gen_ai.request.model', 'claude-sonnet-4-5'), n('gen_ai.usage.input_tokens', 300), n('gen_ai.usage.cache_read.input_tokens', 200), n('gen_ai.usage.cache_creation.input_tokens', 50), n('gen_ai.usage.output_tokens', 9)];
    const openlit = { resourceSpans: [{ resource: { attributes: [s('telemetry.sdk.name', 'openlit')] }, scopeSpans: [{ scope: { name: 'openlit.instrumentation.anthropic' }, spans: [span(usage)] }] }] };
    const smaller = span([s('gen_ai.system', 'anthropic'), s('gen_ai.request.model', 'claude-sonnet-4-5'), n('gen_ai.usage.input_tokens', 12), n('gen_ai.usage.cache_read.input_tokens', 1000), n('gen_ai.usage.output_tokens', 9)]);
    const lines = [JSON.stringify(openlit), JSON.stringify(exportRequest([span(usage), smaller]))].join('\n');
    const result = await readRequests([{ name: 'traces.jsonl', bytes: enc(lines) }]);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.recorded!.input, r.recorded!.cacheRead, r.recorded!.cacheWrite5m])).toEqual([
      [300, 200, 50],
      [50, 200, 50],
      [12, 1000, 0],
    ]);
  });

  it('tool calls, tool results and tool definitions: gen_ai.input.messages parts and gen_ai.tool.definitions (util-genai, OpenLLMetry 0.5)', async () => {
    // Synthetic, in the shapes of opentelemetry-util-genai (types.py: ToolCallRequest, ToolCallResponse, FunctionToolDefinition)
    // and OpenLLMetry's anthropic span_utils.py (tool definitions with input_schema).
    const input = JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'weather in Paris?' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: 'sunny' }] },
    ]);
    const system = s('gen_ai.system_instructions', '[{"type":"text","content":"sys"}]');
    const openai = span([s('gen_ai.provider.name', 'openai'), s('gen_ai.request.model', 'gpt-4o'), s('gen_ai.input.messages', input), system, s('gen_ai.tool.definitions', '[{"type":"function","name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}]'), n('gen_ai.usage.input_tokens', 200)]);
    const anthropic = span([s('gen_ai.system', 'anthropic'), s('gen_ai.request.model', 'claude-sonnet-4-5'), s('gen_ai.input.messages', input), system, s('gen_ai.tool.definitions', '[{"name":"get_weather","description":"Weather","input_schema":{"type":"object"}}]'), n('gen_ai.usage.input_tokens', 200)]);
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([openai, anthropic]))) }]);
    expect(result.errors).toEqual([]);
    // system, user, the assistant's call, the tool's result (Chat Completions: a tool message; Anthropic: a user turn).
    expect(result.requests.map((r) => [r.format, r.messageCount])).toEqual([
      ['openai-chat', 4],
      ['anthropic-messages', 3],
    ]);
    for (const request of result.requests) expect(new Set(request.segments.map((seg) => seg.category))).toEqual(new Set(['system', 'tools', 'user', 'tool_call', 'tool_result']));
  });

  it("OpenLLMetry's flat tool calls (gen_ai.prompt.N.tool_calls.M.*, tool_call_id) and flat gen_ai.tool.definitions.N.*", async () => {
    const attrs = [
      s('gen_ai.system', 'openai'),
      s('gen_ai.request.model', 'gpt-4o'),
      s('gen_ai.prompt.0.role', 'user'),
      s('gen_ai.prompt.0.content', 'weather?'),
      s('gen_ai.prompt.1.role', 'assistant'),
      s('gen_ai.prompt.1.tool_calls.0.id', 'call_1'),
      s('gen_ai.prompt.1.tool_calls.0.name', 'get_weather'),
      s('gen_ai.prompt.1.tool_calls.0.arguments', '{"city":"Paris"}'),
      s('gen_ai.prompt.2.role', 'tool'),
      s('gen_ai.prompt.2.content', 'sunny'),
      s('gen_ai.prompt.2.tool_call_id', 'call_1'),
      s('gen_ai.tool.definitions.0.name', 'get_weather'),
      s('gen_ai.tool.definitions.0.parameters', '{"type":"object"}'),
      n('gen_ai.usage.input_tokens', 80),
    ];
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([span(attrs)]))) }]);
    expect(result.errors).toEqual([]);
    expect(result.requests[0]!.messageCount).toBe(3);
    expect(new Set(result.requests[0]!.segments.map((seg) => seg.category))).toEqual(new Set(['tools', 'user', 'tool_call', 'tool_result']));
  });

  it('OpenInference (Arize): LLM spans read from input.value (the call arguments) or llm.input_messages.N.*; llm.token_count.* includes the cache', async () => {
    // Synthetic, in the shapes of openinference-instrumentation-anthropic (_wrappers.py: input.value is the kwargs as JSON;
    // _utils.py: llm.token_count.prompt = input + cache read + cache write) and of a framework's LLM span (flat messages only).
    const kwargs = { model: 'claude-sonnet-4-5', max_tokens: 1024, system: 'be brief', messages: [{ role: 'user', content: 'synthetic question' }], tools: [{ name: 'calc', description: 'calculator', input_schema: { type: 'object' } }] };
    const anthropic = span([s('openinference.span.kind', 'LLM'), s('llm.provider', 'anthropic'), s('llm.system', 'anthropic'), s('llm.model_name', 'claude-sonnet-4-5'), s('input.value', JSON.stringify(kwargs)), s('input.mime_type', 'application/json'), n('llm.token_count.prompt', 3000), n('llm.token_count.completion', 20), n('llm.token_count.prompt_details.cache_read', 2500), n('llm.token_count.prompt_details.cache_write', 400)]);
    const agent = span([s('openinference.span.kind', 'AGENT'), s('input.value', 'synthetic'), n('llm.token_count.prompt', 3000)]);
    const framework = span([
      s('openinference.span.kind', 'LLM'),
      s('llm.provider', 'openai'),
      s('llm.model_name', 'gpt-4o-mini'),
      s('input.value', '{"messages":[[{"lc":1,"type":"constructor"}]]}'),
      s('llm.input_messages.0.message.role', 'system'),
      s('llm.input_messages.0.message.content', 'sys'),
      s('llm.input_messages.1.message.role', 'user'),
      s('llm.input_messages.1.message.contents.0.message_content.type', 'text'),
      s('llm.input_messages.1.message.contents.0.message_content.text', 'synthetic question'),
      s('llm.tools.0.tool.json_schema', '{"type":"function","function":{"name":"calc","parameters":{"type":"object"}}}'),
      n('llm.token_count.prompt', 100),
      n('llm.token_count.completion', 5),
      n('llm.token_count.prompt_details.cache_read', 64),
    ]);
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([anthropic, agent, framework]))) }]);
    expect(result.errors).toEqual([]);
    expect(result.requests.map((r) => [r.format, r.model, r.recorded])).toEqual([
      ['anthropic-messages', 'claude-sonnet-4-5', { input: 100, cacheRead: 2500, cacheWrite5m: 400, cacheWrite1h: 0, output: 20 }],
      ['openai-chat', 'gpt-4o-mini', { input: 36, cacheRead: 64, cacheWrite5m: 0, cacheWrite1h: 0, output: 5 }],
    ]);
    for (const request of result.requests) expect(new Set(request.segments.map((seg) => seg.category))).toEqual(new Set(['system', 'tools', 'user']));
  });

  it('GenAI events as log records (resourceLogs): joined to their span by spanId; operation details with no span are a call of their own', async () => {
    // Synthetic, as opentelemetry-util-genai emits them (a LogRecord with eventName gen_ai.client.inference.operation.details
    // whose attributes hold the messages as lists) and openai-v2's default mode (gen_ai.{role}.message, body {content});
    // an older SDK names the event in an event.name attribute. One collector file holds traces and logs, a line each.
    const logs = (records: unknown[]) => ({ resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ scope: { name: 'synthetic' }, logRecords: records }] }] });
    const messages = { key: 'gen_ai.input.messages', value: { arrayValue: { values: [{ kvlistValue: { values: [s('role', 'user'), { key: 'parts', value: { arrayValue: { values: [{ kvlistValue: { values: [s('type', 'text'), s('content', 'synthetic question')] } }] } } }] } }] } } };
    const details = (spanId: string) => ({ timeUnixNano: '1767225601000000000', eventName: 'gen_ai.client.inference.operation.details', spanId, attributes: [s('gen_ai.provider.name', 'openai'), s('gen_ai.request.model', 'gpt-4o'), n('gen_ai.usage.input_tokens', 500), n('gen_ai.usage.output_tokens', 5), messages] });
    const withSpan = span([s('gen_ai.operation.name', 'chat'), s('gen_ai.provider.name', 'openai'), s('gen_ai.request.model', 'gpt-4o'), n('gen_ai.usage.input_tokens', 500), n('gen_ai.usage.output_tokens', 5)], { spanId: 'aa' });
    const oldSpan = span([s('gen_ai.system', 'openai'), s('gen_ai.request.model', 'gpt-4o-mini'), n('gen_ai.usage.input_tokens', 40)], { spanId: 'bb' });
    const system = { eventName: 'gen_ai.system.message', spanId: 'bb', attributes: [s('gen_ai.system', 'openai')], body: { kvlistValue: { values: [s('content', 'sys')] } } };
    const user = { spanId: 'bb', attributes: [s('event.name', 'gen_ai.user.message')], body: { kvlistValue: { values: [s('content', 'synthetic')] } } };
    const lines = [logs([details('aa'), details('cc'), system]), exportRequest([withSpan, oldSpan]), logs([user])].map((doc) => JSON.stringify(doc)).join('\n');
    const result = await readRequests([{ name: 'otel.jsonl', bytes: enc(lines) }]);
    expect(result.errors).toEqual([]);
    expect(result.files[0]!.format).toBe('otel-spans');
    expect(result.requests.map((r) => [r.line, r.model, r.recorded!.input, r.messageCount, r.timestamp, r.notes.some((x) => x.code === 'usage_only')])).toEqual([
      [2, 'gpt-4o', 500, 1, Date.UTC(2026, 0, 1), false],
      [2, 'gpt-4o-mini', 40, 2, Date.UTC(2026, 0, 1), false],
      [1, 'gpt-4o', 500, 1, Date.UTC(2026, 0, 1, 0, 0, 1), false],
    ]);
    const orphan = await readRequests([{ name: 'logs.json', bytes: enc(JSON.stringify(logs([system, user]))) }]);
    expect(orphan.requests).toHaveLength(0);
    expect(orphan.errors.map((e) => [e.line, e.message])).toEqual([[1, '2 GenAI message events (log records) belong to no span in this file: no call is read from them (their spans were exported elsewhere)']]);
  });

  it("Grafana Tempo's trace by id (batches) and a Jaeger JSON export (data[].spans[], tags and logs)", async () => {
    // Synthetic: Tempo's v1 trace API answers {batches: [ResourceSpans]}; Jaeger's JSON has spans with tags
    // {key, type, value}, startTime in microseconds, span events as logs named by their `event` field.
    const attrs = [s('gen_ai.system', 'openai'), s('gen_ai.request.model', 'gpt-4o'), n('gen_ai.usage.input_tokens', 90), n('gen_ai.usage.output_tokens', 3)];
    const tempo = { batches: exportRequest([span(attrs)]).resourceSpans };
    const tag = (key: string, type: string, value: unknown) => ({ key, type, value });
    const jaeger = {
      data: [
        {
          traceID: 'a',
          spans: [
            { traceID: 'a', spanID: 'b', operationName: 'chat gpt-4o', startTime: 1767225600000000, duration: 1000, tags: [tag('gen_ai.system', 'string', 'openai'), tag('gen_ai.request.model', 'string', 'gpt-4o'), tag('gen_ai.usage.input_tokens', 'int64', 90), tag('gen_ai.usage.output_tokens', 'int64', 3)], logs: [{ timestamp: 1767225600000100, fields: [tag('event', 'string', 'gen_ai.user.message'), tag('content', 'string', 'synthetic')] }] },
            { traceID: 'a', spanID: 'c', operationName: 'GET /', startTime: 1767225600000000, tags: [tag('http.method', 'string', 'GET')], logs: [] },
          ],
          processes: { p1: { serviceName: 'synthetic', tags: [] } },
        },
      ],
    };
    const result = await readRequests([
      { name: 'tempo.json', bytes: enc(JSON.stringify(tempo)) },
      { name: 'jaeger.json', bytes: enc(JSON.stringify(jaeger)) },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.files.map((f) => f.format)).toEqual(['otel-spans', 'otel-spans']);
    expect(result.requests.map((r) => [r.model, r.recorded!.input, r.recorded!.output, r.messageCount, r.timestamp])).toEqual([
      ['gpt-4o', 90, 3, 0, Date.UTC(2026, 0, 1)],
      ['gpt-4o', 90, 3, 1, Date.UTC(2026, 0, 1)],
    ]);
  });

  it("pydantic-ai's parts (tool_call_response result, binary image) and its older model_request_parameters tools", async () => {
    // Synthetic, in the shapes of pydantic-ai's _otel_messages.py (ToolCallResponsePart.result, BinaryDataPart) and of
    // the model_request_parameters attribute its chat spans carried before gen_ai.tool.definitions.
    const input = JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'what is in it?' }, { type: 'binary', media_type: 'image/png', content: 'iVBORw0KGgo=' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'zoom', arguments: { x: 1 } }] },
      { role: 'user', parts: [{ type: 'tool_call_response', id: 'c1', name: 'zoom', result: 'zoomed' }] },
    ]);
    const tools = JSON.stringify({ function_tools: [{ name: 'zoom', description: 'Zoom in', parameters_json_schema: { type: 'object', properties: { x: { type: 'integer' } } } }], output_tools: [] });
    const attrs = [s('gen_ai.operation.name', 'chat'), s('gen_ai.system', 'openai'), s('gen_ai.request.model', 'gpt-4o'), s('gen_ai.input.messages', input), s('model_request_parameters', tools), n('gen_ai.usage.input_tokens', 900)];
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([span(attrs)]))) }]);
    expect(result.errors).toEqual([]);
    const request = result.requests[0]!;
    expect(request.messageCount).toBe(3);
    expect(new Set(request.segments.map((seg) => seg.category))).toEqual(new Set(['tools', 'user', 'image', 'tool_call', 'tool_result']));
    // The image's base64 is an image, not text: the user text segment holds the question alone.
    expect(request.segments.filter((seg) => seg.category === 'user').map((seg) => seg.text)).toEqual(['what is in it?']);
  });

  it('a Gemini span (google-genai, generate_content) is rebuilt as Chat Completions and says its provider is not modelled', async () => {
    // Synthetic, as opentelemetry-instrumentation-google-genai writes it: prompt_token_count (cache included) as input_tokens.
    const attrs = [s('gen_ai.operation.name', 'generate_content'), s('gen_ai.system', 'gemini'), s('gen_ai.request.model', 'gemini-2.5-flash'), s('gen_ai.input.messages', '[{"role":"user","parts":[{"type":"text","content":"synthetic"}]}]'), n('gen_ai.usage.input_tokens', 5000), n('gen_ai.usage.cache_read.input_tokens', 4096), n('gen_ai.usage.output_tokens', 50)];
    const result = await readRequests([{ name: 'trace.json', bytes: enc(JSON.stringify(exportRequest([span(attrs)]))) }]);
    expect(result.requests.map((r) => [r.format, r.recorded!.input, r.recorded!.cacheRead, r.notes.some((x) => x.code === 'provider_not_modelled')])).toEqual([['openai-chat', 904, 4096, true]]);
  });
});
