// Conformance of the Claude token estimate with the usage Anthropic recorded for every real Messages fixture.
// Anthropic's prompt size = input_tokens + cache_read_input_tokens + cache_creation_input_tokens.
import { describe, expect, it } from 'vitest';
import { caseLine, describeStats, errorStats, fixturesPresent, requestFiles, runFixture, type RecordedCase } from './recorded.ts';

const suite = fixturesPresent ? describe : describe.skip;
if (!fixturesPresent) console.warn('tokens-claude conformance skipped: ../shared/fixtures/real is absent');

type Body = Record<string, unknown>;

/** Server tools, MCP servers and task budgets add hidden prompts the estimate does not model. */
function hasHiddenPrompt(body: Body): boolean {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const serverTool = tools.some((t) => typeof t === 'object' && t !== null && !('input_schema' in t));
  const outputConfig = body.output_config;
  const taskBudget = typeof outputConfig === 'object' && outputConfig !== null && 'task_budget' in outputConfig;
  return serverTool || body.mcp_servers !== undefined || taskBudget;
}

function hasMedia(body: Body): boolean {
  return /"type":\s*"(?:image|document)"/.test(JSON.stringify(body.messages ?? []));
}

function hasTools(body: Body): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

const FIT_FILE = 'pai_recorded_usage_requests.jsonl';

suite('Claude token estimate against recorded usage', () => {
  it('stays within the documented error on the modelled requests, the tool requests and the media requests', async () => {
    const cases: RecordedCase[] = [];
    for (const name of requestFiles('anthropic-messages')) {
      const run = await runFixture('anthropic-messages', name);
      expect(run.analysis.errors, name).toEqual([]);
      for (const request of run.analysis.requests) expect(request.unknownShapes, `${name}:${request.line}`).toEqual([]);
      cases.push(...run.cases);
    }
    const recorded = cases.filter((c) => c.recorded !== null);
    const hidden = recorded.filter((c) => hasHiddenPrompt(c.body));
    const media = recorded.filter((c) => !hasHiddenPrompt(c.body) && hasMedia(c.body));
    const modelled = recorded.filter((c) => !hasHiddenPrompt(c.body) && !hasMedia(c.body));
    // These requests are among the 693 of 15 projects the constants are checked on; the held-out (leave one project
    // out) figures are in docs/tokens.md. Every third tool request of the fit file is checked on its own.
    const fitTools = modelled.filter((c) => c.file === FIT_FILE && hasTools(c.body));
    const heldOut = fitTools.filter((_, k) => k % 3 === 0);
    const stats = {
      modelled: errorStats(modelled),
      heldOut: errorStats(heldOut),
      noTools: errorStats(modelled.filter((c) => !hasTools(c.body))),
      media: errorStats(media),
      hidden: errorStats(hidden),
    };
    console.log(
      [
        'anthropic-messages conformance (Claude counts are estimates)',
        ...recorded.map(caseLine),
        describeStats('modelled (text, tools, thinking)', stats.modelled),
        describeStats('every third tool request', stats.heldOut),
        describeStats('no tools', stats.noTools),
        describeStats('images and documents', stats.media),
        describeStats('server tools / MCP / task budget (hidden prompts not modelled)', stats.hidden),
      ].join('\n'),
    );

    expect(recorded.every((c) => !c.tokens.exact && c.tokens.notes.includes('claude_estimate'))).toBe(true);
    expect(stats.modelled.count).toBeGreaterThanOrEqual(60);
    expect(stats.heldOut.count).toBeGreaterThanOrEqual(10);
    expect(stats.heldOut.median).toBeLessThanOrEqual(BOUNDS.heldOutMedian);
    expect(stats.heldOut.p90).toBeLessThanOrEqual(BOUNDS.heldOutP90);
    expect(stats.modelled.median).toBeLessThanOrEqual(BOUNDS.modelledMedian);
    expect(stats.modelled.p90).toBeLessThanOrEqual(BOUNDS.modelledP90);
    expect(stats.media.median).toBeLessThanOrEqual(BOUNDS.mediaMedian);
    // Requests whose tools carry hidden prompts are flagged, so nobody reads their count as complete.
    for (const c of hidden.filter((c) => c.tokens.total < c.recorded! * 0.5)) {
      expect(c.tokens.notes.includes('server_tool_not_modelled') || c.body.mcp_servers !== undefined || 'output_config' in c.body, caseLine(c)).toBe(true);
    }
  });
});

/**
 * Measured with the o200k-based estimate: every third tool request median 0.6%, p90 4.6%; modelled median 1.0%,
 * p90 6.4%; media median 7.1% (before it: 6.8% / 31.3%, 6.8% / 31.3%, 7.1%). Bounds sit a little above the
 * measurement so a regression fails the test.
 */
const BOUNDS = { heldOutMedian: 2, heldOutP90: 7, modelledMedian: 2, modelledP90: 9, mediaMedian: 9 };
