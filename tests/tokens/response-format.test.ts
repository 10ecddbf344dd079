// Structured-output schemas are part of the prompt: counted (≈, never exact) and part of the prompt's identity.
// The four bodies below are the requests of pydantic-ai cassettes (tests/models/cassettes/test_openai*/, commit
// 4fda38988f29, MIT) whose responses recorded the prompt size given beside each; keys as the cassette stores them.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { renderResponseFormat } from '../../src/core/tokens/openai.ts';

const encoder = new TextEncoder();
const USER = { content: 'What is the largest city in the user country?', role: 'user' };
const COUNTRY_TOOL = { description: '', name: 'get_user_country', parameters: { additionalProperties: false, properties: {}, type: 'object' } };
const CITY_SCHEMA = {
  additionalProperties: false,
  properties: { city: { type: 'string' }, country: { type: 'string' } },
  required: ['city', 'country'],
  type: 'object',
};

const recorded: { name: string; format: 'openai-chat' | 'openai-responses'; body: object; promptTokens: number }[] = [
  {
    name: 'test_openai/test_openai_native_output (Chat, gpt-4o)',
    format: 'openai-chat',
    body: {
      messages: [USER],
      model: 'gpt-4o',
      response_format: { json_schema: { name: 'result', schema: { ...CITY_SCHEMA, additionalProperties: undefined }, strict: false }, type: 'json_schema' },
      tool_choice: 'auto',
      tools: [{ function: COUNTRY_TOOL, type: 'function' }],
    },
    promptTokens: 71,
  },
  {
    name: 'test_openai/test_openai_native_output_multiple (Chat, gpt-4o, description and anyOf)',
    format: 'openai-chat',
    body: {
      messages: [USER],
      model: 'gpt-4o',
      response_format: {
        json_schema: {
          description: 'The final response which ends this conversation',
          name: 'final_result',
          schema: {
            additionalProperties: false,
            properties: {
              result: {
                anyOf: [
                  {
                    additionalProperties: false,
                    description: 'CityLocation',
                    properties: { data: { ...CITY_SCHEMA, additionalProperties: undefined }, kind: { const: 'CityLocation' } },
                    required: ['kind', 'data'],
                    type: 'object',
                  },
                  {
                    additionalProperties: false,
                    description: 'CountryLanguage',
                    properties: {
                      data: { properties: { country: { type: 'string' }, language: { type: 'string' } }, required: ['country', 'language'], type: 'object' },
                      kind: { const: 'CountryLanguage' },
                    },
                    required: ['kind', 'data'],
                    type: 'object',
                  },
                ],
              },
            },
            required: ['result'],
            type: 'object',
          },
        },
        type: 'json_schema',
      },
      tool_choice: 'auto',
      tools: [{ function: COUNTRY_TOOL, type: 'function' }],
    },
    promptTokens: 160,
  },
  {
    name: 'test_openai_responses/test_native_output (Responses, gpt-4o, strict)',
    format: 'openai-responses',
    body: {
      input: [USER],
      model: 'gpt-4o',
      text: { format: { name: 'CityLocation', schema: CITY_SCHEMA, strict: true, type: 'json_schema' } },
      tool_choice: 'auto',
      tools: [{ ...COUNTRY_TOOL, strict: false, type: 'function' }],
    },
    promptTokens: 66,
  },
  {
    name: 'test_openai_responses/test_openai_responses_native_output_decimal_strict (Responses, gpt-5.4-mini)',
    format: 'openai-responses',
    body: {
      input: [{ content: 'Return exactly this payment amount: 12.34', role: 'user' }],
      model: 'gpt-5.4-mini',
      text: {
        format: {
          name: 'Payment',
          schema: {
            additionalProperties: false,
            properties: { amount: { anyOf: [{ type: 'number' }, { description: 'pattern=^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$', type: 'string' }] } },
            required: ['amount'],
            type: 'object',
          },
          strict: true,
          type: 'json_schema',
        },
      },
    },
    promptTokens: 72,
  },
];

async function analyzeBodies(format: 'openai-chat' | 'openai-responses', bodies: object[]) {
  const text = bodies.map((body) => JSON.stringify(body)).join('\n');
  return analyzeInput([{ name: 'requests.jsonl', bytes: encoder.encode(text) }], { format });
}

describe('structured-output schemas are counted', () => {
  it.each(recorded)('$name: within 2 tokens of the recorded prompt, never exact', async ({ format, body, promptTokens }) => {
    const analysis = await analyzeBodies(format, [body]);
    const tokens = analysis.tokens[0]!;
    expect(tokens.exact).toBe(false);
    expect(tokens.notes).toContain('response_format_estimated');
    expect(Math.abs(tokens.total - promptTokens)).toBeLessThanOrEqual(2);
    // The schema is a segment of its own, after the tools.
    const request = analysis.requests[0]!;
    const schemaAt = request.segments.findIndex((s) => s.path === (format === 'openai-chat' ? 'response_format' : 'text.format'));
    expect(schemaAt).toBeGreaterThan(request.segments.findIndex((s) => s.category === 'tools'));
    expect(request.segments[schemaAt]!.category).toBe('system');
  });

  it('a request with a schema and nothing else estimated is still not exact (was exact and 77% under)', async () => {
    const analysis = await analyzeBodies('openai-chat', [
      { model: 'gpt-4o', messages: [USER], response_format: { type: 'json_schema', json_schema: { name: 'result', schema: CITY_SCHEMA } } },
    ]);
    const tokens = analysis.tokens[0]!;
    expect(tokens.exact).toBe(false);
    expect(tokens.notes).toEqual(['response_format_estimated']);
    // 17 for the message (exact, as without a schema) + the schema: 21 tokens of JSON + 9.
    expect(tokens.total).toBe(17 + 21 + 9);
  });

  it('json_object and text formats add no segment and keep an exact count', async () => {
    const analysis = await analyzeBodies('openai-chat', [
      { model: 'gpt-4o', messages: [USER], response_format: { type: 'json_object' } },
      { model: 'gpt-4o', messages: [USER], response_format: { type: 'text' } },
    ]);
    expect(analysis.requests.map((r) => r.segments.length)).toEqual([1, 1]);
    expect(analysis.tokens.map((t) => [t.total, t.exact])).toEqual([
      [17, true],
      [17, true],
    ]);
  });

  it('renders without required / additionalProperties / $schema keywords, but keeps properties named so', () => {
    const rendered = renderResponseFormat({
      type: 'json_schema',
      name: 'x',
      schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { required: { type: 'boolean' } }, required: ['required'], additionalProperties: false },
    });
    expect(rendered).toEqual({ description: null, schema: '{"type":"object","properties":{"required":{"type":"boolean"}}}' });
    expect(renderResponseFormat({ type: 'json_object' })).toBeNull();
    expect(renderResponseFormat('json_schema')).toBeNull();
  });
});

describe('structured-output schemas are part of the prompt identity', () => {
  it('a property-order change in the schema is a different prompt; the same schema again reads the cache', async () => {
    const long = 'Stable evidence for the decision. '.repeat(400);
    const body = (properties: object) => ({
      model: 'gpt-4o',
      input: [{ role: 'user', content: long }],
      text: { format: { type: 'json_schema', name: 'result', schema: { type: 'object', properties } } },
    });
    const field = { type: 'string' };
    const analysis = await analyzeBodies('openai-responses', [
      body({ evidence: field, decision: field }),
      body({ decision: field, evidence: field }),
      body({ evidence: field, decision: field }),
    ]);
    const reads = analysis.cache!.cost.actual.simulation.requests.map((r) => r.read);
    expect(reads[0]).toBe(0);
    expect(reads[2]).toBeGreaterThan(0);
    // The reordered schema sits before the conversation: only the tool-less prefix before it could match, and
    // nothing precedes it, so the second request reads nothing.
    expect(reads[1]).toBe(0);
  });
});
