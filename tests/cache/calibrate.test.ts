// Claude estimate calibration (offline from recorded usage, and from one exact count) on synthetic requests.
import { describe, expect, it } from 'vitest';
import {
  applyCalibration,
  calibrationFromCount,
  calibrationFromUsage,
  countTokensBody,
  largestClaudeRequest,
} from '../../src/core/cache/calibrate.ts';
import type { RecordedUsage } from '../../src/core/model.ts';
import { buildRequests } from './anthropic-builders.ts';

const usage = (input: number, cacheRead = 0, cacheWrite5m = 0): RecordedUsage => ({
  input,
  cacheRead,
  cacheWrite5m,
  cacheWrite1h: 0,
  output: 0,
});

describe('calibration from recorded usage', () => {
  const built = buildRequests([
    { blocks: [{ id: 'a', tokens: 900 }], overhead: 100, recorded: usage(1100) }, // 1,100 / 1,000 = 1.10
    { blocks: [{ id: 'b', tokens: 1000 }], recorded: usage(20, 1000, 180) }, // 1,200 / 1,000 = 1.20
    { blocks: [{ id: 'c', tokens: 500 }], recorded: usage(400, 100) }, // 500 / 500 = 1.00
    { blocks: [{ id: 'd', tokens: 500 }] }, // no usage: not measured
    { blocks: [{ id: 'e', tokens: 500 }], format: 'openai-chat', model: 'gpt-4o', recorded: usage(9999) }, // exact counts
  ]);

  it('takes the median recorded ÷ estimated ratio over Claude requests with usage', () => {
    expect(calibrationFromUsage(built.requests, built.segmentTokens, built.overheadTokens)).toEqual({
      factor: 1.1,
      source: 'recorded-usage',
      requests: 3,
    });
  });

  it('averages the two middle ratios for an even count, and gives null without usage', () => {
    const even = buildRequests([
      { blocks: [{ id: 'a', tokens: 1000 }], recorded: usage(1100) },
      { blocks: [{ id: 'b', tokens: 1000 }], recorded: usage(1300) },
    ]);
    expect(calibrationFromUsage(even.requests, even.segmentTokens, even.overheadTokens)?.factor).toBeCloseTo(1.2, 12);
    const none = buildRequests([{ blocks: [{ id: 'a', tokens: 10 }] }]);
    expect(calibrationFromUsage(none.requests, none.segmentTokens, none.overheadTokens)).toBeNull();
  });

  it('rescales Claude segment and overhead tokens only', () => {
    const scaled = applyCalibration(built.requests, built.segmentTokens, built.overheadTokens, 1.1);
    expect(scaled.segmentTokens).toEqual([[990], [1100], [550], [550], [500]]);
    expect(scaled.overheadTokens).toEqual([110, 0, 0, 0, 0]);
    // The input arrays are left as they were.
    expect(built.segmentTokens[0]).toEqual([900]);
  });
});

describe('calibration from one exact count', () => {
  it('divides the exact count by the estimate and rejects non-counts', () => {
    expect(calibrationFromCount(1300, 1000)).toEqual({ factor: 1.3, source: 'count-tokens', requests: 1 });
    expect(calibrationFromCount(0, 1000)).toBeNull();
    expect(calibrationFromCount(1000, 0)).toBeNull();
    expect(calibrationFromCount(Number.NaN, 10)).toBeNull();
  });

  it('picks the largest Claude request that names a model', () => {
    const built = buildRequests([
      { blocks: [{ id: 'a', tokens: 100 }] },
      { blocks: [{ id: 'b', tokens: 5000 }], format: 'openai-chat', model: 'gpt-4o' },
      { blocks: [{ id: 'c', tokens: 300 }], overhead: 50 },
      { blocks: [{ id: 'd', tokens: 200 }] },
    ]);
    expect(largestClaudeRequest(built.requests, built.segmentTokens, built.overheadTokens)).toBe(2);
    expect(largestClaudeRequest([], [], [])).toBeNull();
  });
});

describe('count_tokens body rebuilt from segments', () => {
  it('puts tools, system and messages back in order without cache markers', () => {
    const built = buildRequests([{ blocks: [{ id: '"x"', tokens: 1 }] }]);
    const request = built.requests[0]!;
    const seg = (path: string, wire: string, messageIndex: number, role: string | null) => ({
      ...request.segments[0]!,
      path,
      wire,
      messageIndex,
      role,
    });
    request.segments = [
      seg('tools[0]', '{"name":"read","input_schema":{"type":"object"}}', -1, null),
      seg('system[0]', '{"type":"text","text":"be brief"}', -1, 'system'),
      seg('messages[0].content', '{"role":"user","content":"hi"}', 0, 'user'),
      seg('messages[1].content[0]', '{"type":"text","text":"hello"}', 1, 'assistant'),
      seg('messages[1].content[1]', '{"type":"tool_use","id":"t1","name":"read","input":{}}', 1, 'assistant'),
      seg('messages[2].content[0]', '{"type":"tool_result","tool_use_id":"t1","content":[]}', 2, 'user'),
      seg('messages[2].content[0].content[0]', '{"type":"image"}', 2, 'user'),
    ];
    request.options.toolChoice = 'tool:read';
    expect(countTokensBody(request)).toEqual({
      model: 'claude-sonnet-4-5',
      tools: [{ name: 'read', input_schema: { type: 'object' } }],
      system: [{ type: 'text', text: 'be brief' }],
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'hello' },
            { type: 'tool_use', id: 't1', name: 'read', input: {} },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [] }] },
      ],
      tool_choice: { type: 'tool', name: 'read' },
    });
    request.model = null;
    expect(countTokensBody(request)).toBeNull();
  });
});
