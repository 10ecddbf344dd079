import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { TokenCounter } from '../../src/core/tokens/counter.ts';
import { imageDetailOf } from '../../src/core/tokens/media.ts';
import {
  encodingForModel,
  framingForModel,
  functionToolOf,
  imagePatches,
  imageRuleForModel,
  openaiImageTokens,
  renderFunctionTool,
} from '../../src/core/tokens/openai.ts';
import type { ParsedRequest } from '../../src/core/model.ts';
import { chatMessage, request, segment } from './build.ts';

async function countAll(requests: ParsedRequest[]) {
  const counter = new TokenCounter();
  await counter.prepare(requests, (r) => r.model);
  return { counter, results: requests.map((r) => counter.count(r, r.model)) };
}

describe('encodingForModel', () => {
  it('maps tiktoken families and flags GPT-6 and unknown ids as assumed', () => {
    expect(encodingForModel('gpt-4o-mini')).toEqual({ encoding: 'o200k_base', assumed: false });
    expect(encodingForModel('gpt-4.1-2025-04-14')).toEqual({ encoding: 'o200k_base', assumed: false });
    expect(encodingForModel('o3-mini')).toEqual({ encoding: 'o200k_base', assumed: false });
    expect(encodingForModel('gpt-5.6-sol')).toEqual({ encoding: 'o200k_base', assumed: false });
    expect(encodingForModel('gpt-4')).toEqual({ encoding: 'cl100k_base', assumed: false });
    expect(encodingForModel('gpt-4-turbo')).toEqual({ encoding: 'cl100k_base', assumed: false });
    expect(encodingForModel('gpt-3.5-turbo')).toEqual({ encoding: 'cl100k_base', assumed: false });
    expect(encodingForModel('gpt-6-sol')).toEqual({ encoding: 'o200k_base', assumed: true });
    expect(encodingForModel(null)).toEqual({ encoding: 'o200k_base', assumed: true });
  });

  it('picks the framing family per model', () => {
    expect(framingForModel('gpt-4o').priming).toBe(3);
    expect(framingForModel('gpt-5').priming).toBe(2);
    expect(framingForModel('o1-mini').fixed).toBe(8);
    expect(framingForModel('gpt-4o-search-preview').billsSystemMessages).toBe(false);
  });
});

describe('OpenAI Chat request totals (values recorded by the API in pai_text_only_requests)', () => {
  it('matches recorded prompt_tokens for text-only requests of several families', async () => {
    const requests = [
      request('openai-chat', 'gpt-4o', [chatMessage(0, 'user', 'hello')], { messageCount: 1 }), // recorded 8
      request('openai-chat', 'o3-mini', [chatMessage(0, 'user', 'hello')], { messageCount: 1 }), // recorded 7
      request('openai-chat', 'gpt-5', [chatMessage(0, 'user', 'What is the capital of France?')]), // recorded 13
      request('openai-chat', 'gpt-4o', [
        chatMessage(0, 'system', 'You are a helpful assistant.'),
        chatMessage(1, 'user', 'What is the capital of France?'),
      ]), // recorded 24
      request('openai-chat', 'gpt-4o-search-preview', [
        chatMessage(0, 'system', 'You are a helpful assistant.'),
        chatMessage(1, 'user', 'What day is today?'),
      ]), // recorded 11
    ];
    const { results } = await countAll(requests);
    expect(results.map((r) => r.total)).toEqual([8, 7, 13, 24, 11]);
    expect(results.every((r) => r.exact)).toBe(true);
    // 'hello' is 1 token; the remaining 7 are framing (3 + role 1 + priming 3).
    expect(results[0]?.segments).toEqual([1]);
    expect(results[0]?.overhead.framing).toBe(7);
    expect(results[0]?.byCategory).toEqual({ user: 1 });
  });

  it('frames an empty assistant message that has no segment', async () => {
    const r = request('openai-chat', 'gpt-4o', [chatMessage(0, 'user', 'hello')], { messageCount: 2 });
    const { results } = await countAll([r]);
    expect(results[0]?.total).toBe(12); // 1 + (3+1) + (3+1) + 3
  });

  it('frames Responses instructions as one more system message', async () => {
    const user = segment({ category: 'user', text: 'hello', messageIndex: 0, role: 'user', path: 'input[0].content' });
    const instructions = segment({ category: 'system', text: 'Be brief.', messageIndex: -1, role: 'system', path: 'instructions' });
    const { results } = await countAll([
      request('openai-responses', 'gpt-4o', [user], { messageCount: 1 }),
      request('openai-responses', 'gpt-4o', [instructions, user], { messageCount: 1 }),
    ]);
    // One more message: 3 framing tokens and 1 for its role.
    expect(results[1]!.overhead.framing - results[0]!.overhead.framing).toBe(4);
  });

  it('adds a participant name to the framing and flags the rule as unverified', async () => {
    const named = segment({
      category: 'user',
      text: 'hello',
      wire: '{"role":"user","name":"alice","content":"hello"}',
      messageIndex: 0,
      role: 'user',
      path: 'messages[0].content',
    });
    const { results } = await countAll([request('openai-chat', 'gpt-4o', [named], { messageCount: 1 })]);
    expect(results[0]?.total).toBe(8 + 1 + 1); // 'alice' is 1 token, plus 1 per name
    expect(results[0]?.notes).toEqual(['framing_unverified']);
  });

  it('calls a text-only count exact only on model ids whose framing a recording confirms', async () => {
    const text = (model: string) => request('openai-chat', model, [segment({ category: 'user', text: 'hello', messageIndex: 0, role: 'user', path: 'messages[0].content' })], { messageCount: 1 });
    const models = ['gpt-4o-2024-08-06', 'gpt-4.1-nano', 'gpt-3.5-turbo-0125', 'gpt-5.6-sol', 'o3-mini', 'o1', 'o4-mini', 'chatgpt-4o-latest', 'gpt-4o-audio-preview', 'gpt-4-turbo'];
    const { results } = await countAll(models.map(text));
    expect(results.map((r) => r.exact)).toEqual([true, true, true, true, true, false, false, false, false, false]);
    expect(results[5]!.notes).toEqual(['framing_unverified']);
  });

  it('tokenizes each distinct text once per counter', async () => {
    const shared = 'The same system prompt resent every turn.';
    const requests = [1, 2, 3].map((n) =>
      request('openai-chat', 'gpt-4o', [chatMessage(0, 'system', shared), chatMessage(1, 'user', `turn ${n}`)]),
    );
    const { counter } = await countAll(requests);
    // shared text, 3 user texts, the role names 'system' and 'user'.
    expect(counter.distinctTexts('o200k_base')).toBe(6);
  });

  it('counts function tools through the namespace rendering and flags the total as an estimate', async () => {
    const tool = {
      type: 'function',
      function: {
        name: 'get_capital',
        description: 'Get the capital of a country.',
        parameters: { type: 'object', properties: { country: { type: 'string', description: 'The country name.' } }, required: ['country'] },
      },
    };
    const r = request('openai-chat', 'gpt-4o-mini', [
      segment({ category: 'tools', text: JSON.stringify(tool), wire: JSON.stringify(tool), path: 'tools[0]' }),
      chatMessage(0, 'user', 'What is the capital of France?'),
    ]);
    const { results } = await countAll([r]);
    const result = results[0]!;
    expect(result.exact).toBe(false);
    expect(result.notes).toContain('tools_rendering_estimated');
    expect(result.overhead.toolsPreamble).toBeGreaterThan(9);
    expect(result.total).toBe(result.segments.reduce((a, b) => a + b, 0) + result.overheadTotal);
  });

  it('adds the GPT-5 family\'s hidden Chat tool instruction (pydantic-ai test_tool_choice_matrix[auto-openai]: recorded 132)', async () => {
    const body = {
      messages: [{ content: "What's the weather in Paris?", role: 'user' }],
      model: 'gpt-5-mini',
      stream: false,
      tool_choice: 'auto',
      tools: [
        {
          function: {
            description: 'Get the current weather for a city.',
            name: 'get_weather',
            parameters: { additionalProperties: false, properties: { city: { type: 'string' } }, required: ['city'], type: 'object' },
            strict: true,
          },
          type: 'function',
        },
      ],
    };
    const bodies = [body, { ...body, model: 'gpt-4.1-mini' }].map((b) => JSON.stringify(b)).join('\n');
    const analysis = await analyzeInput([{ name: 'requests.jsonl', bytes: new TextEncoder().encode(bodies) }], { format: 'openai-chat' });
    const [gpt5, gpt41] = analysis.tokens;
    // 52 without the instruction (80 under); with it 133, 1 over.
    expect(gpt5!.total).toBe(133);
    // The same request on gpt-4.1-mini has no such instruction; its framing is 1 token longer (reply priming 3).
    expect(gpt5!.overhead.toolsPreamble - gpt41!.overhead.toolsPreamble).toBe(81);
  });
});

describe('renderFunctionTool', () => {
  it('renders the TypeScript namespace form, optional and enum properties included', () => {
    const tool = functionToolOf({
      type: 'function',
      name: 'search',
      description: 'Find things.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What to find.' },
          limit: { type: 'integer' },
          mode: { type: 'string', enum: ['fast', 'deep'] },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['query'],
      },
    });
    expect(tool).not.toBeNull();
    expect(renderFunctionTool(tool!)).toBe(
      '// Find things.\ntype search = (_: {\n// What to find.\nquery: string,\nlimit?: number,\nmode?: "fast" | "deep",\ntags?: string[],\n}) => any;\n\n',
    );
    expect(renderFunctionTool({ name: 'ping', description: null, parameters: null })).toBe('type ping = () => any;\n\n');
  });

  it('renders custom (freeform) tools of both APIs as a text-taking function, with their grammar', () => {
    const grammar = 'start: "yes" | "no"';
    const chat = functionToolOf({ type: 'custom', custom: { name: 'answer', description: 'Say it.', format: { type: 'grammar', grammar: { syntax: 'lark', definition: grammar } } } });
    const responses = functionToolOf({ type: 'custom', name: 'answer', description: 'Say it.', format: { type: 'grammar', syntax: 'lark', definition: grammar } });
    expect(chat).toEqual({ name: 'answer', description: 'Say it.', parameters: null, grammar });
    expect(responses).toEqual({ name: 'answer', description: 'Say it.', parameters: null, grammar });
    expect(renderFunctionTool(responses!)).toBe(`// Say it.\ntype answer = (_: string) => any;\n${grammar}\n\n`);
    expect(renderFunctionTool(functionToolOf({ type: 'custom', name: 'note' })!)).toBe('type note = (_: string) => any;\n\n');
  });

  it('does not treat hosted tools as function tools', () => {
    expect(functionToolOf({ type: 'mcp', server_label: 'x' })).toBeNull();
    expect(functionToolOf('not an object')).toBeNull();
  });
});

describe('OpenAI media estimates', () => {
  it('applies the tile rule', () => {
    expect(openaiImageTokens(540, 360, 'low')).toBe(85);
    expect(openaiImageTokens(540, 360, 'high')).toBe(85 + 170 * 2);
    // 4096² → 2048² → 768² → 2×2 tiles.
    expect(openaiImageTokens(4096, 4096, 'auto')).toBe(85 + 170 * 4);
  });

  it('bills by model: the same 640×480 image as recorded on each (crewAI cassettes, image tokens = recorded − text)', () => {
    const tokens = (model: string, detail: 'low' | 'high' | 'auto' = 'auto') => openaiImageTokens(640, 480, detail, imageRuleForModel(model));
    // 2 tiles (640×480 is under 768 on its short side): 85 + 2 × 170; gpt-4o-mini 2,833 + 2 × 5,667; GPT-5 70 + 2 × 140.
    expect(tokens('gpt-4o')).toBe(425); // recorded 472 − 47
    expect(tokens('gpt-4o-mini-2024-07-18')).toBe(14167); // recorded 14,214 − 47
    expect(tokens('gpt-5')).toBe(350); // recorded 366 − 16
    // 20 × 15 = 300 patches × 1.72 / 1.62.
    expect(tokens('o4-mini')).toBe(516); // recorded 563 − 47
    expect(tokens('gpt-4.1-mini')).toBe(486); // recorded 681 − 193 (another prompt)
    // Low detail bills the base; patch models ignore detail.
    expect(tokens('gpt-4o-mini', 'low')).toBe(2833);
    expect(tokens('o4-mini', 'low')).toBe(516);
    // Models not listed keep the GPT-4o tiles.
    expect(tokens('some-future-model')).toBe(425);
  });

  it('scales a large image down to at most 1,536 patches of whole patches (OpenAI\'s 1800×2400 example: 1,452)', () => {
    expect(imagePatches(1024, 1024)).toBe(1024);
    expect(imagePatches(1800, 2400)).toBe(1452);
    expect(imagePatches(1, 1)).toBe(1);
    // 540×360 on gpt-4.1-nano: 17 × 12 = 204 patches × 2.46 = 502 (recorded 515 − 12 of text).
    expect(openaiImageTokens(540, 360, 'auto', imageRuleForModel('gpt-4.1-nano'))).toBe(502);
  });

  it('reads detail near the ends of the wire JSON only', () => {
    expect(imageDetailOf('{"type":"image_url","image_url":{"url":"https://x","detail":"low"}}')).toBe('low');
    expect(imageDetailOf('{"type":"image_url","image_url":{"url":"https://x"}}')).toBe('auto');
  });
});
