// Claude request-level estimates and labels, on bodies of pydantic-ai cassettes (tests/models/cassettes/
// test_anthropic/, commit 4fda38988f29, MIT) whose responses recorded the prompt given beside each, and synthetic
// bodies where said so.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { recordViolation } from '../contracts/validators.ts';
import { calibrationFromUsage } from '../../src/core/cache/calibrate.ts';
import { usageMeasuresOtherPrompt } from '../../src/core/tokens/claude.ts';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import type { CliIO } from '../../src/cli/io.ts';

const encoder = new TextEncoder();
const QUESTION = [{ role: 'user', content: [{ type: 'text', text: 'What is 2+2?' }] }];

async function analyze(bodies: object[]) {
  const text = bodies.map((body) => JSON.stringify(body)).join('\n');
  return analyzeInput([{ name: 'requests.jsonl', bytes: encoder.encode(text) }], { format: 'anthropic-messages' });
}

describe('Claude estimates of recorded request shapes', () => {
  it('adaptive thinking adds 17 before the newer tokenizer and nothing on it (recorded 31, 13, 18)', async () => {
    const analysis = await analyze([
      { max_tokens: 4096, messages: QUESTION, model: 'claude-opus-4-6', thinking: { type: 'adaptive' } }, // test_anthropic_opus_46_features[adaptive-thinking]: 31
      { max_tokens: 4096, messages: QUESTION, model: 'claude-opus-4-8', output_config: { effort: 'xhigh' }, thinking: { display: 'summarized', type: 'adaptive' } }, // test_anthropic_opus_48_features: 13
      { max_tokens: 4096, messages: QUESTION, model: 'claude-opus-4-7', output_config: { effort: 'xhigh' }, thinking: { display: 'summarized', type: 'adaptive' } }, // test_anthropic_opus_47_features: 18
    ]);
    const totals = analysis.tokens.map((t) => t.total);
    // 7 framing + the question's estimate (7 o200k tokens, code-like: × 1.17 → 8, × 1.22 → 9 on the newer
    // tokenizer) + 17 / 0.
    expect(totals).toEqual([32, 16, 16]);
    expect(totals.map((t, i) => Math.abs(t - [31, 13, 18][i]!))).toEqual([1, 3, 2]);
  });

  it('a json_schema output_config.format is counted as a segment (recorded 222)', async () => {
    const analysis = await analyze([
      {
        max_tokens: 4096,
        messages: [{ content: [{ text: 'Return exactly this payment amount: 12.34', type: 'text' }], role: 'user' }],
        model: 'claude-sonnet-4-5',
        output_config: {
          format: {
            schema: {
              additionalProperties: false,
              properties: { amount: { anyOf: [{ type: 'number' }, { description: '{pattern: ^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$}', type: 'string' }] } },
              required: ['amount'],
              type: 'object',
            },
            type: 'json_schema',
          },
        },
      },
    ]);
    expect(analysis.requests[0]!.segments.map((s) => s.path)).toEqual(['output_config.format', 'messages[0].content[0]']);
    expect(analysis.tokens[0]!.notes).toContain('response_format_estimated');
    expect(Math.abs(analysis.tokens[0]!.total - 222)).toBeLessThanOrEqual(5);
  });

  it('a task budget is counted (recorded 54 against 12 without)', async () => {
    const analysis = await analyze([
      { max_tokens: 4096, messages: QUESTION, model: 'claude-opus-4-7', output_config: { effort: 'high', task_budget: { total: 20000, type: 'tokens' } } },
    ]);
    // 7 framing + the question (9, as above) + the budget 32 × 1.3 = 42: the budget's part equals the recorded
    // difference (54 − 12); the question is over by 4.
    expect(analysis.tokens[0]!.total).toBe(58);
    expect(analysis.tokens[0]!.segments).toEqual([42, 9]);
  });

  it('a plain-text document bills its wrapper beside its text (recorded 57)', async () => {
    // test_text_document_as_binary_content_input
    const analysis = await analyze([
      {
        max_tokens: 4096,
        messages: [
          {
            content: [
              { text: 'What does this text file say?', type: 'text' },
              { source: { data: 'Dummy TXT file\n', media_type: 'text/plain', type: 'text' }, type: 'document' },
            ],
            role: 'user',
          },
        ],
        model: 'claude-sonnet-4-5',
        stream: false,
      },
    ]);
    // 7 framing + the question (7 o200k tokens × 1.13 → 8) + the document: 4 o200k tokens × 1.17 (code-like:
    // "\n" and no space after "file") → 5, + the 37-token wrapper.
    expect(analysis.tokens[0]!.segments).toEqual([8, 42]);
    expect(analysis.tokens[0]!.total).toBe(57);
  });
});

describe('requests whose recorded usage measures another prompt are labelled', () => {
  const plainTool = { name: 'get_weather', description: 'Weather.', input_schema: { type: 'object', properties: {} } };
  const bodies = [
    { model: 'claude-sonnet-4-6', max_tokens: 8, messages: QUESTION, context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50000 } }] } },
    { model: 'claude-sonnet-4-5', max_tokens: 8, messages: QUESTION, tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }] },
    { model: 'claude-sonnet-4-5', max_tokens: 8, messages: QUESTION, tools: [plainTool] },
  ];

  it('server tools and context_management carry their note; a plain tool does not (synthetic)', async () => {
    const analysis = await analyze(bodies);
    expect(analysis.requests[0]!.notes.map((n) => n.code)).toContain('context_management');
    expect(analysis.tokens[1]!.notes).toContain('server_tool_not_modelled');
    expect(analysis.requests.map((r) => usageMeasuresOtherPrompt(r))).toEqual([true, true, false]);
  });

  it('a resent server tool keeps its note and count; another tokenizer generation counts the same blocks anew (synthetic)', async () => {
    // The second and third bodies resend the first one's blocks: their segments are the first request's objects.
    const resent = { model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: [{ type: 'text', text: 'Search the weather in Lisbon, then in Porto, and compare both.' }] }], tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }] };
    const analysis = await analyze([resent, resent, { ...resent, model: 'claude-opus-4-7' }]);
    const [first, second, newer] = analysis.tokens;
    expect(analysis.requests[1]!.segments[0]).toBe(analysis.requests[0]!.segments[0]);
    expect(second!.notes).toEqual(first!.notes);
    expect(second!.notes).toContain('server_tool_not_modelled');
    expect(second!.segments).toEqual(first!.segments);
    // The newer tokenizer's counts of the shared blocks are what the body alone gets, not the first model's.
    const alone = (await analyze([{ ...resent, model: 'claude-opus-4-7' }])).tokens[0]!;
    expect(newer!.segments).toEqual(alone.segments);
    expect(newer!.notes).toEqual(alone.notes);
    expect(newer!.segments).not.toEqual(first!.segments);
  });

  it('calibration from recorded usage leaves them out (synthetic usage)', async () => {
    const analysis = await analyze(bodies);
    const total = analysis.tokens[2]!.total;
    // The labelled two record 100× their estimate (as summed iterations would); the plain one twice its estimate.
    analysis.requests.forEach((r, i) => {
      r.recorded = { input: i < 2 ? analysis.tokens[i]!.total * 100 : total * 2, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 1 };
    });
    const calibration = calibrationFromUsage(analysis.requests, analysis.segmentTokens, analysis.overheadTokens);
    expect(calibration).toEqual({ factor: 2, source: 'recorded-usage', requests: 1 });
  });
});

describe('ctxray analyze applies the calibration from recorded usage by default', () => {
  it('says so, and --no-usage-calibration keeps the plain estimates (synthetic gateway capture)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ctxray-usage-calibration-'));
    try {
      const file = path.join(dir, 'synthetic-capture.jsonl');
      const request = { model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'Synthetic question about caching. '.repeat(30) }] };
      writeFileSync(file, JSON.stringify({ request, response: { usage: { input_tokens: 300, output_tokens: 4 } } }) + '\n');
      const run = async (argv: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), readStdin: () => Promise.resolve(new Uint8Array()), env: {}, cwd: dir };
        const code = await analyzeCommand(argv, io);
        const record = JSON.parse(out.join('')) as { requests: { tokens: { total: number } }[]; calibration?: { factor: number; source: string } };
        return { code, record, err: err.join('') };
      };
      const calibrated = await run([file, '--json', '-']);
      const plain = await run([file, '--json', '-', '--no-usage-calibration']);
      expect(calibrated.code).toBe(0);
      expect(plain.code).toBe(0);
      expect(calibrated.err).toMatch(/calibrated Claude estimates on this log's recorded usage: ×\d+\.\d{4} \(median over 1 request/);
      expect(calibrated.record.calibration?.source).toBe('recorded-usage');
      expect(plain.record.calibration).toBeUndefined();
      expect(plain.err).not.toContain('calibrated');
      // One request: rescaled to its own recorded prompt, up to per-segment rounding.
      expect(Math.abs(calibrated.record.requests[0]!.tokens.total - 300)).toBeLessThanOrEqual(2);
      expect(plain.record.requests[0]!.tokens.total).not.toBe(calibrated.record.requests[0]!.tokens.total);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deferred tools (tool search)', () => {
  // test_tool_search/test_anthropic_custom_callable_round_trip, first request: recorded 759.
  const TOOLS = [
    {
      "description": "Get the current weather for a city.",
      "input_schema": {
        "additionalProperties": false,
        "properties": {
          "city": {
            "type": "string"
          }
        },
        "required": [
          "city"
        ],
        "type": "object"
      },
      "name": "get_weather"
    },
    {
      "defer_loading": true,
      "description": "Look up the current exchange rate between two currencies.",
      "input_schema": {
        "additionalProperties": false,
        "properties": {
          "from_currency": {
            "type": "string"
          },
          "to_currency": {
            "type": "string"
          }
        },
        "required": [
          "from_currency",
          "to_currency"
        ],
        "type": "object"
      },
      "name": "get_exchange_rate"
    },
    {
      "defer_loading": true,
      "description": "Look up stock price by ticker symbol.",
      "input_schema": {
        "additionalProperties": false,
        "properties": {
          "symbol": {
            "type": "string"
          }
        },
        "required": [
          "symbol"
        ],
        "type": "object"
      },
      "name": "stock_lookup"
    },
    {
      "description": "There are additional tools not yet visible to you. When you need a capability not provided by your current tools, search here by providing one or more queries to discover and activate relevant tools. Each query is tokenized into words; tool names and descriptions are scored by token overlap. If no tools are found, they do not exist -- do not retry.",
      "input_schema": {
        "additionalProperties": false,
        "properties": {
          "queries": {
            "description": "List of search queries to match against tool names and descriptions. Use specific words likely to appear in tool names or descriptions to narrow down relevant tools. Each query is independently tokenized; matches across queries are unioned.",
            "items": {
              "type": "string"
            },
            "type": "array"
          }
        },
        "required": [
          "queries"
        ],
        "type": "object"
      },
      "name": "search_tools"
    }
  ];
  const question = { content: [{ text: 'What is the USD to EUR exchange rate?', type: 'text' }], role: 'user' };
  const body = (messages: object[]) => ({ max_tokens: 4096, messages, model: 'claude-sonnet-4-5', stream: false, tool_choice: { type: 'auto' }, tools: TOOLS });

  it('a definition marked defer_loading is not in the prompt until a tool_reference names it', async () => {
    const searched = [
      question,
      { content: [{ id: 'toolu_1', input: { queries: ['exchange rate'] }, name: 'search_tools', type: 'tool_use' }], role: 'assistant' },
      { content: [{ content: [{ tool_name: 'get_exchange_rate', type: 'tool_reference' }], tool_use_id: 'toolu_1', type: 'tool_result' }], role: 'user' },
    ];
    // The call alone, with no reference (synthetic): calling a deferred tool does not load it.
    const called = [
      question,
      { content: [{ id: 'toolu_2', input: { from_currency: 'USD', to_currency: 'EUR' }, name: 'get_exchange_rate', type: 'tool_use' }], role: 'assistant' },
      { content: [{ content: '0.92', tool_use_id: 'toolu_2', type: 'tool_result' }], role: 'user' },
    ];
    const analysis = await analyze([body([question]), body(searched), body(called)]);
    const [first, second, third] = analysis.tokens;
    // The four definitions in order: get_weather, get_exchange_rate (deferred), stock_lookup (deferred), search_tools.
    expect(first!.segments.slice(0, 4).map((t) => t > 0)).toEqual([true, false, false, true]);
    expect(second!.segments.slice(0, 4).map((t) => t > 0)).toEqual([true, true, false, true]);
    expect(third!.segments.slice(0, 4).map((t) => t > 0)).toEqual([true, false, false, true]);
    // Within 2% of the recorded 759 (877, 15.5% over, when the deferred two were counted).
    expect(Math.abs(first!.total - 759) / 759).toBeLessThan(0.02);
  });
});

describe('Claude 3 tool prompts and the estimate band', () => {
  it("bills Claude 3 Opus's documented 530-token tool prompt (magentic cassette: recorded 610, was ≈343)", async () => {
    // jackmpcollins/magentic tests/chat_model/cassettes/test_anthropic_chat_model/
    // test_anthropic_chat_model_acomplete_async_streamed_response.yaml (commit 58b72cf58134, MIT): recorded 610.
    const analysis = await analyze([
      {
        max_tokens: 1024,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Pick a random city. Then get its weather.' }] }],
        model: 'claude-3-opus-20240229',
        tools: [{ name: 'get_weather', description: 'Get the weather for a location.', input_schema: { properties: { location: { title: 'Location', type: 'string' } }, required: ['location'], type: 'object' } }],
        stream: true,
      },
    ]);
    const tokens = analysis.tokens[0]!;
    expect(tokens.overhead.toolUseSystem).toBe(530);
    expect(Math.abs(tokens.total - 610) / 610).toBeLessThan(0.05);
    // A text and tool request of the older tokenizer above 30 tokens is within the target: no band.
    expect(tokens.band).toBeUndefined();
    expect(tokens.notes).not.toContain('estimate_wide');
  });

  it('gives an image by URL the widest band and a short prompt a ±20% one, in the record too (synthetic bodies)', async () => {
    const analysis = await analyze([
      { max_tokens: 64, model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }, { type: 'text', text: 'What is in this picture?' }] }] },
      { max_tokens: 64, model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi' }] },
    ]);
    const [url, short] = analysis.tokens;
    expect(url!.band).toBe(1);
    expect(url!.notes).toContain('estimate_wide');
    expect(short!.total).toBeLessThan(30);
    expect(short!.band).toBe(0.2);
    const record = buildRecord(analysis) as { requests: { tokens: { band?: number }; notes: string[] }[] };
    expect(record.requests.map((r) => r.tokens.band)).toEqual([1, 0.2]);
    expect(record.requests[0]!.notes).toContain('estimate_wide');
    expect(recordViolation('analysis', record)).toBeNull();
  });
});
