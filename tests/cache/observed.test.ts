// Observed vs simulated: hand-built (synthetic) cases, then real third-party request sequences with the usage the
// provider recorded for them (read in place from ../shared/fixtures/real).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { calibrationFromUsage, applyCalibration } from '../../src/core/cache/calibrate.ts';
import { compareObserved } from '../../src/core/cache/observed.ts';
import { simulateCache } from '../../src/core/cache/simulate.ts';
import { readRequests } from '../../src/core/input/index.ts';
import { recordedUsage } from '../../src/core/input/usage.ts';
import type { ParsedRequest } from '../../src/core/model.ts';
import { lookupModel } from '../../src/core/pricing/lookup.ts';
import { usageMeasuresOtherPrompt } from '../../src/core/tokens/claude.ts';
import { TokenCounter } from '../../src/core/tokens/index.ts';
import { buildRequests, pricingByModel } from './anthropic-builders.ts';

/** Built, simulated and compared in each test (beforeEach), not when the suite is collected: a mutation run only
 * sees code a test runs. */
function comparedSession(): ReturnType<typeof compareObserved> {
  const built = buildRequests([
    // Recorded: wrote 1,500. Simulated: writes 1,500 → agree.
    {
      blocks: [{ id: 's', tokens: 1500, marker: '5m' }],
      recorded: { input: 0, cacheRead: 0, cacheWrite5m: 1600, cacheWrite1h: 0, output: 5 },
    },
    // Recorded: read 1,600. Simulated: reads 1,500 → agree on "read the cache".
    {
      blocks: [{ id: 's', tokens: 1500, marker: '5m' }, { id: 'u', tokens: 20 }],
      recorded: { input: 22, cacheRead: 1600, cacheWrite5m: 0, cacheWrite1h: 0, output: 5 },
    },
    // No usage: not compared.
    { blocks: [{ id: 's', tokens: 1500, marker: '5m' }] },
    // Recorded: no read (say the entry had expired). Simulated: read → disagree.
    {
      blocks: [{ id: 's', tokens: 1500, marker: '5m' }],
      recorded: { input: 0, cacheRead: 0, cacheWrite5m: 1600, cacheWrite1h: 0, output: 5 },
    },
  ]);
  const simulation = simulateCache({ ...built, pricingOf: pricingByModel(built.requests), scenario: 'actual' });
  return compareObserved(built.requests, simulation);
}

describe('observed vs simulated (synthetic)', () => {
  let observed: ReturnType<typeof compareObserved>;
  beforeEach(() => {
    observed = comparedSession();
  });

  it('compares only requests with recorded usage and counts read agreement', () => {
    expect(observed.rows.map((r) => r.requestIndex)).toEqual([0, 1, 3]);
    expect(observed.rows.map((r) => r.readAgrees)).toEqual([true, true, false]);
    expect(observed).toMatchObject({ compared: 3, readAgreements: 2, writeAgreements: 2 });
    expect(observed.readAgreementRate).toBeCloseTo(2 / 3, 12);
  });

  it('puts the recorded prompt beside the reconstructed one', () => {
    expect(observed.rows[1]).toMatchObject({
      recorded: { read: 1600, write: 0, uncached: 22, prompt: 1622 },
      simulated: { read: 1500, write: 0, uncached: 20, prompt: 1520 },
    });
    expect(observed.rows[1]!.promptRatio).toBeCloseTo(1622 / 1520, 12);
  });
});

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/real');
const haveFixtures = existsSync(FIXTURES);
if (!haveFixtures) console.warn(`observed.test: ${FIXTURES} is absent; skipping the real-fixture agreement tests`);

interface Loaded {
  requests: ParsedRequest[];
  segmentTokens: number[][];
  overheadTokens: number[];
}

/** Reads a real request file with the importer, attaches its recorded usage and counts tokens. */
async function load(relative: string): Promise<Loaded> {
  const file = path.join(FIXTURES, relative);
  const { requests, errors } = await readRequests([{ name: path.basename(file), bytes: new Uint8Array(readFileSync(file)) }]);
  expect(errors).toEqual([]);
  const usageLines = readFileSync(file.replace(/\.jsonl?$/, '.usage.jsonl'), 'utf8').split('\n').filter(Boolean);
  for (const line of usageLines) {
    const row = JSON.parse(line) as { request_line: number; usage: Record<string, object | undefined> };
    const request = requests[row.request_line]!;
    // Streams record the cache counters in message_start and the final output count in message_delta.
    const usage = row.usage['final'] ?? { ...row.usage['message_start'], ...row.usage['message_delta'] };
    request.recorded = recordedUsage(usage, request.format);
  }
  const counter = new TokenCounter();
  await counter.prepare(requests, (r) => r.model);
  const counts = requests.map((r) => counter.count(r, r.model));
  return { requests, segmentTokens: counts.map((c) => c.segments), overheadTokens: counts.map((c) => c.overheadTotal) };
}

function simulateLoaded(loaded: Loaded) {
  const pricingOf = (i: number) => lookupModel(loaded.requests[i]?.model ?? '')?.pricing ?? null;
  return simulateCache({ ...loaded, pricingOf, scenario: 'actual' });
}

const REAL_ANTHROPIC = [
  'anthropic-messages/pai_cache_inline_system_prefix_reused.jsonl',
  'anthropic-messages/pai_recorded_usage_requests.jsonl',
  'anthropic-messages/pai_tool_with_thinking_seq.jsonl',
  'anthropic-messages/pai_thinking_part_multiturn_seq.jsonl',
  'anthropic-messages/pai_redacted_thinking_seq.jsonl',
  'anthropic-messages/pai_parallel_tool_calls_seq.jsonl',
  'anthropic-messages/pai_web_search_server_tool_seq.jsonl',
  'anthropic-messages/llm-anthropic_tool_chain_thinking_seq.jsonl',
  'anthropic-messages/llm-anthropic_tools_seq.jsonl',
];

const REAL_OPENAI = [
  'openai-responses/pai_thinking_with_tool_calls_seq.jsonl',
  'openai-responses/llm_round_trip_encrypted_reasoning_seq.jsonl',
  'openai-responses/pai_mcp_server_tool_seq.jsonl',
  'openai-responses/pai_simple_tool_call_seq.jsonl',
  'openai-chat/llm_tool_chain_of_two_calls_seq.jsonl',
  'openai-chat/llm_tools_streaming_seq.jsonl',
  'openai-chat/pai_image_url_tool_response_seq.jsonl',
  'openai-chat/pai_multiple_agent_tool_calls_seq.jsonl',
  'openai-chat/pai_text_only_requests.jsonl',
];

describe.skipIf(!haveFixtures)('observed vs simulated on real recorded usage', () => {
  it('write then read of the 1,590-token inline system prefix (pydantic-ai cassette)', async () => {
    const loaded = await load('anthropic-messages/pai_cache_inline_system_prefix_reused.jsonl');
    const simulation = simulateLoaded(loaded);
    expect(loaded.requests.map((r) => r.recorded?.cacheWrite5m)).toEqual([1590, 0]);
    expect(loaded.requests.map((r) => r.recorded?.cacheRead)).toEqual([0, 1590]);
    expect(simulation.requests.map((r) => r.hit)).toEqual([false, true]);
    expect(simulation.requests[0]!.write5m).toBeGreaterThan(0);
    const observed = compareObserved(loaded.requests, simulation);
    expect(observed.readAgreementRate).toBe(1);
    expect(observed.writeAgreements).toBe(2);
  });

  it('reads the cached prefix OpenAI recorded on the second Responses request (2,048 cached tokens)', async () => {
    const loaded = await load('openai-responses/pai_thinking_with_tool_calls_seq.jsonl');
    const simulation = simulateLoaded(loaded);
    expect(loaded.requests.map((r) => r.recorded?.cacheRead)).toEqual([0, 2048]);
    expect(simulation.requests.map((r) => r.hit)).toEqual([false, true]);
    // Segment granularity and 128-token rounding: never more than OpenAI recorded.
    expect(simulation.requests[1]!.read % 128).toBe(0);
    expect(simulation.requests[1]!.read).toBeLessThanOrEqual(2048);
  });

  it.each([...REAL_ANTHROPIC, ...REAL_OPENAI])('agrees on whether each request read the cache: %s', async (relative) => {
    const loaded = await load(relative);
    const observed = compareObserved(loaded.requests, simulateLoaded(loaded));
    expect(observed.compared).toBe(loaded.requests.length);
    const disagreeing = observed.rows.filter((row) => !row.readAgrees).map((row) => row.requestIndex);
    expect(disagreeing).toEqual([]);
  });

  it('calibrates Claude estimates offline from the recorded prompts', async () => {
    const loaded = await load('anthropic-messages/pai_recorded_usage_requests.jsonl');
    const calibration = calibrationFromUsage(loaded.requests, loaded.segmentTokens, loaded.overheadTokens);
    expect(calibration?.source).toBe('recorded-usage');
    // 18 of the 95 use server tools and 2 MCP servers: their usage sums server-side iterations (and the MCP
    // servers' tool definitions), so they do not calibrate.
    expect(calibration?.requests).toBe(75);
    expect(loaded.requests.filter((r) => usageMeasuresOtherPrompt(r))).toHaveLength(20);
    const factor = calibration!.factor;
    expect(factor).toBeGreaterThan(0.5);
    expect(factor).toBeLessThan(2);
    // After scaling, the median recorded ÷ estimated ratio is 1 up to per-segment rounding.
    const scaled = applyCalibration(loaded.requests, loaded.segmentTokens, loaded.overheadTokens, factor);
    const again = calibrationFromUsage(loaded.requests, scaled.segmentTokens, scaled.overheadTokens);
    expect(again!.factor).toBeCloseTo(1, 1);
  });
});

describe('observed vs simulated: empty recorded usage', () => {
  it('leaves out calls whose recorded usage is all zeros (aborted, not billed)', () => {
    const zero = { input: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 0 };
    const built = buildRequests([
      { blocks: [{ id: 's', tokens: 1500, marker: '5m' }], recorded: { ...zero, cacheWrite5m: 1500 } },
      { blocks: [{ id: 's', tokens: 1500, marker: '5m' }], recorded: zero },
    ]);
    const simulation = simulateCache({ ...built, pricingOf: pricingByModel(built.requests), scenario: 'actual' });
    const observed = compareObserved(built.requests, simulation);
    expect(observed).toMatchObject({ compared: 1, emptyUsage: 1, readAgreements: 1, readAgreementRate: 1 });
    expect(observed.rows.map((r) => r.requestIndex)).toEqual([0]);
  });
});
