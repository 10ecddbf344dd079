// Conformance of OpenAI token counts with the usage OpenAI recorded for every real Chat and Responses fixture.
import { describe, expect, it } from 'vitest';
import { caseLine, describeStats, errorStats, fixturesPresent, requestFiles, runFixture, type RecordedCase } from './recorded.ts';

const suite = fixturesPresent ? describe : describe.skip;
if (!fixturesPresent) console.warn('tokens-openai conformance skipped: ../shared/fixtures/real is absent');

/** Text-only Chat request without tools: every message content is a string. */
function textOnlyChat(body: Record<string, unknown>): boolean {
  const messages = body.messages;
  return (
    body.tools === undefined &&
    Array.isArray(messages) &&
    messages.every((m) => typeof m === 'object' && m !== null && typeof (m as { content?: unknown }).content === 'string')
  );
}

// llm_tools_streaming_seq: its recorded usage came through OpenRouter (cost fields; MANIFEST), not OpenAI's own
// count, so it is printed but not held to OpenAI's numbers.
const NOT_OPENAI_COUNTED = new Set(['llm_tools_streaming_seq.jsonl']);

function usesHostedTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.some((t) => typeof t === 'object' && t !== null && (t as { type?: unknown }).type !== 'function');
}

async function collect(dir: string): Promise<RecordedCase[]> {
  const cases: RecordedCase[] = [];
  for (const name of requestFiles(dir)) {
    const run = await runFixture(dir, name);
    expect(run.analysis.errors, `${dir}/${name} read errors`).toEqual([]);
    for (const request of run.analysis.requests) expect(request.unknownShapes, `${name}:${request.line}`).toEqual([]);
    cases.push(...run.cases);
  }
  return cases;
}

suite('OpenAI token counts against recorded usage', () => {
  it('openai-chat: exact for every text-only request without tools, bounded elsewhere', async () => {
    const cases = await collect('openai-chat');
    const textOnly = cases.filter((c) => textOnlyChat(c.body));
    const rest = cases.filter((c) => !textOnlyChat(c.body) && !NOT_OPENAI_COUNTED.has(c.file));
    console.log(['openai-chat conformance', ...cases.map(caseLine), describeStats('text-only, no tools', errorStats(textOnly)), describeStats('tools / media', errorStats(rest))].join('\n'));

    // 18 in pai_text_only_requests, 4 in openllmetry_prompt_caching_seq.
    expect(textOnly.length).toBe(22);
    for (const c of textOnly) expect(c.tokens.total, caseLine(c)).toBe(c.recorded);
    // Only o1-mini (framing seen on one request) is not claimed exact.
    expect(textOnly.filter((c) => c.tokens.exact).map((c) => c.model)).not.toContain('o1-mini');
    expect(textOnly.filter((c) => c.tokens.exact).length).toBe(21);
    // Whatever is flagged exact must be exact.
    for (const c of cases.filter((c) => c.tokens.exact)) expect(c.tokens.total, caseLine(c)).toBe(c.recorded);
    // Tool rendering, images, audio and PDFs: estimates within 7% on these recordings (measured max 6.3%).
    expect(rest.length).toBe(9);
    for (const c of rest) {
      expect(c.tokens.exact).toBe(false);
      expect(Math.abs(c.tokens.total - c.recorded!) / c.recorded!, caseLine(c)).toBeLessThanOrEqual(0.07);
    }
  });

  it('openai-responses: bounded error; server-side state and hosted tools only as lower bounds', async () => {
    const cases = await collect('openai-responses');
    const chained = cases.filter((c) => typeof c.body.previous_response_id === 'string');
    const hosted = cases.filter((c) => usesHostedTools(c.body));
    const modelled = cases.filter((c) => !chained.includes(c) && !hosted.includes(c));
    console.log(
      [
        'openai-responses conformance',
        ...cases.map(caseLine),
        describeStats('function tools, reasoning items', errorStats(modelled)),
        describeStats('previous_response_id (server-side history not in the file)', errorStats(chained)),
        describeStats('hosted tools (mcp)', errorStats(hosted)),
      ].join('\n'),
    );
    expect(cases.every((c) => !c.tokens.exact)).toBe(true);
    expect(modelled.length).toBe(8);
    for (const c of modelled) expect(Math.abs(c.tokens.total - c.recorded!) / c.recorded!, caseLine(c)).toBeLessThanOrEqual(0.07);
    // What the file holds is part of what was billed: the count never exceeds the recorded prompt.
    for (const c of chained) expect(c.tokens.total, caseLine(c)).toBeLessThanOrEqual(c.recorded!);
    for (const c of chained) expect(c.tokens.notes.length).toBeGreaterThan(0);
  });
});
