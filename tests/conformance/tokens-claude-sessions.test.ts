// The Claude estimate on two real pi agent sessions (Sonnet 4.5, Opus 4.5; 910 requests up to ~185K tokens)
// against the usage Anthropic recorded for every turn. The transcripts hold no system prompt or tool
// definitions, so the estimate misses a constant; what must match is how the prompt GROWS turn by turn.
import { reconstructedTokens } from '../../src/core/cache/unrecorded-setup.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { recordedPromptTokens } from '../../src/core/model.ts';
import { FIXTURES, fixturesPresent } from './recorded.ts';

const suite = fixturesPresent ? describe : describe.skip;
if (!fixturesPresent) console.warn('Claude session conformance skipped: ../shared/fixtures/real is absent');

interface Point {
  estimated: number;
  recorded: number;
  toolCalls: number;
  messages: number;
}

function slopeOf(points: readonly Point[]): { slope: number; intercept: number } {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.estimated, 0) / n;
  const my = points.reduce((s, p) => s + p.recorded, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.estimated - mx) * (p.recorded - my);
    sxx += (p.estimated - mx) ** 2;
  }
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

suite('Claude estimate on real pi sessions', () => {
  it.each(['large-session.jsonl', 'before-compaction.jsonl'])('%s: grows with the recorded prompt', async (name) => {
    const full = path.join(FIXTURES, 'transcripts/pi', name);
    const analysis = await analyzeInput([{ name, bytes: new Uint8Array(readFileSync(full)) }]);
    const points: Point[] = [];
    analysis.requests.forEach((request, i) => {
      if (request.format !== 'anthropic-messages' || !request.recorded) return;
      const recorded = recordedPromptTokens(request.recorded);
      if (recorded <= 0) return;
      points.push({
        // What the transcript holds: the request's total also carries the setup inferred from this very usage.
        estimated: reconstructedTokens(analysis.tokens[i]!),
        recorded,
        toolCalls: request.segments.filter((s) => s.category === 'tool_call').length,
        messages: request.messageCount,
      });
    });
    // Turns that add exactly one assistant tool call and its result: the recorded growth minus ours.
    const perCallGap: number[] = [];
    for (let k = 1; k < points.length; k++) {
      const before = points[k - 1]!;
      const after = points[k]!;
      const calls = after.toolCalls - before.toolCalls;
      if (after.messages - before.messages === 2 && calls >= 1 && after.recorded > before.recorded) {
        perCallGap.push((after.recorded - before.recorded - (after.estimated - before.estimated)) / calls);
      }
    }
    const { slope, intercept } = slopeOf(points);
    const offsets = points.map((p) => p.recorded - p.estimated);
    console.log(
      `${name}: ${points.length} requests with recorded usage; recorded ≈ ${slope.toFixed(3)} × estimate + ${intercept.toFixed(0)}; ` +
        `median offset ${median(offsets)} (system prompt + tools absent from the transcript); ` +
        `per tool-call turn, recorded growth − estimated growth: median ${median(perCallGap).toFixed(1)} over ${perCallGap.length} turns`,
    );
    expect(points.length).toBeGreaterThan(400);
    // Measured 0.983 and 1.012.
    expect(slope).toBeGreaterThan(0.97);
    expect(slope).toBeLessThan(1.03);
    // Measured −3 and +5 tokens per call.
    expect(Math.abs(median(perCallGap))).toBeLessThanOrEqual(15);
    // The estimate is a lower bound here: the transcript lacks the system prompt and tools.
    expect(median(offsets)).toBeGreaterThan(0);
    expect(analysis.requests.some((r) => r.notes.some((n) => n.code === 'transcript_missing_system'))).toBe(true);
  });
});
