// The worker's text-free view and the request the app opens on, from hand-built requests.
import { wireIdOf } from '../wire-ids.ts';
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../src/core/analysis/types.ts';
import type { Category, ParsedRequest, Segment } from '../../src/core/model.ts';
import type { RequestTokens } from '../../src/core/tokens/counter.ts';
import { isOneGrowingConversation, openingRequest } from '../../src/worker/opening.ts';
import { buildView, sectionsOf } from '../../src/worker/view.ts';
import { emptyOptions } from '../../src/core/formats/request-parts.ts';

const SECRET = 'PAYLOAD-TEXT-MUST-NOT-CROSS';

function segment(category: Category, messageIndex: number, text: string): Segment {
  return {
    category,
    path: messageIndex < 0 ? 'system' : `messages[${messageIndex}].content`,
    text,
    wire: JSON.stringify(text),
    bytes: text.length + 2,
    hash: `h-${text}`.padEnd(16, '0').slice(0, 16),
    wireId: wireIdOf(JSON.stringify(text)),
    cacheMarker: null,
    position: Math.max(0, messageIndex + 1),
    messageIndex,
    role: messageIndex < 0 ? null : messageIndex % 2 ? 'assistant' : 'user',
    toolName: null,
    callId: null,
    media: null,
    cacheable: true,
  };
}

function request(index: number, messages: string[]): ParsedRequest {
  return {
    index,
    line: index + 1,
    file: 0,
    format: 'anthropic-messages',
    model: 'claude-sonnet-4-5',
    segments: [segment('system', -1, `${SECRET} system`), ...messages.map((m, i) => segment(i % 2 ? 'assistant' : 'user', i, m))],
    messageCount: messages.length,
    topLevelCacheMarker: null,
    unknownShapes: [],
    notes: [],
    customId: null,
    timestamp: null,
    recorded: null,
    options: emptyOptions(),
  };
}

function tokensOf(r: ParsedRequest, perSegment: number): RequestTokens {
  const segments = r.segments.map(() => perSegment);
  const byCategory: RequestTokens['byCategory'] = {};
  for (const s of r.segments) byCategory[s.category] = (byCategory[s.category] ?? 0) + perSegment;
  return {
    segments,
    overhead: { framing: 3, toolsPreamble: 0, toolUseSystem: 0 },
    overheadTotal: 3,
    framing: [],
    total: perSegment * segments.length + 3,
    exact: false,
    byCategory,
    tokenizer: 'claude-estimate',
    notes: ['claude_estimate'],
  };
}

function analysisOf(requests: ParsedRequest[], extra: Record<string, unknown> = {}): Analysis {
  const tokens = requests.map((r) => tokensOf(r, 10));
  return {
    generatedBy: 'ctxray test',
    pricedOn: '2026-11-10',
    files: [{ name: 'synthetic.jsonl', format: 'anthropic-messages', envelope: 'none', records: requests.length, requests: requests.length, errors: 0, totals: { requests: 0, tokens: 0, exactRequests: 0, byCategory: {}, overhead: 0 } }],
    requests,
    models: requests.map(() => ({ id: 'claude-sonnet-4-5', source: 'request' as const, pricing: null, via: null })),
    tokens,
    segmentTokens: tokens.map((t) => t.segments),
    overheadTokens: tokens.map((t) => t.overheadTotal),
    totals: { requests: requests.length, tokens: tokens.reduce((s, t) => s + t.total, 0), exactRequests: 0, byCategory: {}, overhead: 3 * requests.length },
    modelUse: [{ id: 'claude-sonnet-4-5', requests: requests.length, known: true, pricedAs: 'claude-sonnet-4-5' }],
    errors: [{ file: 0, line: 4, message: 'not JSON' }],
    distinctTexts: 5,
    ...extra,
  } as Analysis;
}

describe('opening request', () => {
  const growing = [request(0, ['a']), request(1, ['a', 'b', 'c']), request(2, ['a', 'b', 'c', 'd', 'e'])];

  it('opens one growing conversation on its last request', () => {
    expect(isOneGrowingConversation(growing)).toBe(true);
    // Totals deliberately make request 0 the largest: the rule still picks the last.
    expect(openingRequest(growing, [999, 10, 20])).toBe(2);
  });

  it('opens several interleaved conversations on the largest request', () => {
    const interleaved = [request(0, ['a']), request(1, ['x']), request(2, ['a', 'b', 'c']), request(3, ['x', 'y', 'z'])];
    expect(isOneGrowingConversation(interleaved)).toBe(false);
    expect(openingRequest(interleaved, [10, 12, 40, 35])).toBe(2);
    // Equal largest totals: the later one.
    expect(openingRequest(interleaved, [10, 40, 40, 35])).toBe(2);
  });

  it('treats a shrinking message count as a new conversation and an empty input as nothing to open', () => {
    expect(isOneGrowingConversation([request(0, ['a', 'b', 'c']), request(1, ['a'])])).toBe(false);
    expect(openingRequest([], [])).toBe(-1);
  });
});

describe('worker view', () => {
  const view = buildView(analysisOf([request(0, ['a']), request(1, ['a', 'b', 'c'])], { findings: [{ code: 'x' }], cache: undefined }));

  it('carries counts, paths and categories but no payload text', () => {
    expect(view.requests).toHaveLength(2);
    const second = view.requests[1];
    expect(second?.segments.map((s) => s.category)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(second?.segments.map((s) => s.tokens)).toEqual([10, 10, 10, 10]);
    expect(second?.total).toBe(43);
    expect(second?.overhead).toBe(3);
    expect(second?.exact).toBe(false);
    expect(JSON.stringify(view)).not.toContain(SECRET);
  });

  it('lists defined optional sections only and opens on the last request of one conversation', () => {
    expect(view.sections).toEqual(['findings']);
    expect(view.initialRequest).toBe(1);
    // 2 segments × 10 + 3 overhead, plus 4 × 10 + 3
    expect(view.totals).toEqual({ total: 66, exact: false, byCategory: {} });
    expect(view.errors).toEqual([{ file: 0, line: 4, message: 'not JSON' }]);
    expect(view.files[0]).toMatchObject({ name: 'synthetic.jsonl', records: 2, requests: 2 });
  });

  it('labels a tool result with the name of the tool call it answers', () => {
    const r = request(0, ['a', 'b', 'c']);
    r.segments[2] = { ...(r.segments[2] as Segment), category: 'tool_call', toolName: 'read_file', callId: 'call_1' };
    r.segments[3] = { ...(r.segments[3] as Segment), category: 'tool_result', toolName: null, callId: 'call_1' };
    const orphan = { ...(r.segments[3] as Segment), callId: 'call_unknown' };
    r.segments.push(orphan);
    const labelled = buildView(analysisOf([r])).requests[0]?.segments.map((s) => s.toolName);
    expect(labelled).toEqual([null, null, 'read_file', 'read_file', null]);
  });

  it('passes on the prompt size the provider recorded, and null where the log has none', () => {
    const r = request(0, ['a']);
    r.recorded = { input: 120, cacheRead: 1000, cacheWrite5m: 30, cacheWrite1h: 4, output: 77 };
    const views = buildView(analysisOf([r, request(1, ['a', 'b', 'c'])])).requests;
    // 120 + 1,000 + 30 + 4; output tokens are not part of the prompt
    expect(views.map((v) => v.recordedPrompt)).toEqual([1154, null]);
  });

  it('keeps the per-request data out of the sections', () => {
    const sections = sectionsOf(analysisOf([request(0, ['a'])], { conversations: { count: 1 } }));
    expect(Object.keys(sections)).toEqual(['conversations']);
  });
});
