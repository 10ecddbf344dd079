// The worker's `transcripts` query (Timeline and Summary panels) and the timeline points, on SYNTHETIC Claude Code
// sessions read through the real importer and analysis.
import { reconstructedTokens } from '../../src/core/cache/unrecorded-setup.ts';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { agreementOf, timelineOf } from '../../src/core/transcripts/index.ts';
import { transcriptsQuery } from '../../src/worker/handlers/transcripts.ts';
import { QueryError, type WorkerSession } from '../../src/worker/session.ts';
import { syntheticClaudeCodeSession } from './claude-code-session.ts';

const encoder = new TextEncoder();
const SESSION_A = syntheticClaudeCodeSession('synthetic-a', '2026-03-01T10:00:00.000Z', [
  { input: 1000, read: 0, write5m: 2000, output: 100 }, // prompt 3000
  { input: 10, read: 3000, write5m: 200, output: 50 }, // prompt 3210
]);
const SESSION_B = syntheticClaudeCodeSession('synthetic-b', '2026-03-02T09:00:00.000Z', [{ input: 500, read: 0, write5m: 0, output: 20 }]);

async function analyze() {
  return analyzeInput([
    { name: 'synthetic-a.jsonl', bytes: encoder.encode(SESSION_A) },
    { name: 'synthetic-b.jsonl', bytes: encoder.encode(SESSION_B) },
  ]);
}

describe('timelineOf', () => {
  it('places every request by its send time with the recorded and reconstructed prompt', async () => {
    const analysis = await analyze();
    const timeline = timelineOf(analysis, agreementOf(analysis)!);
    expect(timeline.timed).toBe(true);
    expect(timeline.points.map((p) => [p.request, p.conversation, p.timestamp, p.recordedPrompt, p.recordedRead])).toEqual([
      [0, 0, Date.parse('2026-03-01T10:00:00.000Z'), 3000, 0],
      [1, 0, Date.parse('2026-03-01T10:01:00.000Z'), 3210, 3000],
      [2, 1, Date.parse('2026-03-02T09:00:00.000Z'), 500, 0],
    ]);
    // The reconstruction is what the transcript holds; the request's total adds the inferred setup (= recorded).
    expect(timeline.points.map((p) => p.reconstructed)).toEqual(analysis.tokens.map(reconstructedTokens));
    expect(analysis.tokens.map((t) => t.total)).toEqual([3000, 3210, 500]);
    // The setup is inferred on each conversation's first request, so its prediction equals the recorded prompt.
    expect(timeline.points[0]?.predicted).toBe(3000);
    expect(timeline.points[2]?.predicted).toBe(500);
    expect(timeline.compactions).toBe(0);
  });
});

describe('transcripts worker query', () => {
  it('answers the timeline, the agreement without per-request rows and the summary, once per session', async () => {
    const analysis = await analyze();
    const session: WorkerSession = { requests: analysis.requests, sections: {}, analysis, inputs: [] };
    const answer = transcriptsQuery(session);
    expect(answer.timeline.points).toHaveLength(3);
    expect(answer.agreement?.recordedRequests).toBe(3);
    expect(answer.agreement && 'requests' in answer.agreement).toBe(false);
    expect(answer.summary.days.map((d) => [d.day, d.promptTokens])).toEqual([
      ['2026-03-01', 6210],
      ['2026-03-02', 500],
    ]);
    expect(transcriptsQuery(session)).toBe(answer);
    // Structured-clone safe: it crosses to the page as is.
    expect(structuredClone(answer)).toEqual(answer);
  });

  it('has no agreement for a log without recorded usage, and needs an analyzed input', async () => {
    const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'synthetic' }] });
    const analysis = await analyzeInput([{ name: 'synthetic.json', bytes: encoder.encode(body) }]);
    const answer = transcriptsQuery({ requests: analysis.requests, sections: {}, analysis, inputs: [] });
    expect(answer.agreement).toBeNull();
    expect(answer.timeline.timed).toBe(false);
    expect(() => transcriptsQuery(null)).toThrow(QueryError);
  });
});
