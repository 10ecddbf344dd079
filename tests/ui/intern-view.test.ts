// Sharing repeated strings of the analysis view changes no value: every request and segment reads the same after.
import { describe, expect, it } from 'vitest';
import { shareRepeatedStrings } from '../../src/ui/intern-view.ts';
import type { AnalysisView, RequestView, SegmentView } from '../../src/worker/view-model.ts';

const segment = (path: string, toolName: string | null, role: string | null): SegmentView => ({
  category: toolName === null ? 'user' : 'tool_result', path, tokens: 3, bytes: 9, hash: `h-${path}`, cacheMarker: null, messageIndex: 0, role, toolName,
});
const request = (index: number, model: string | null): RequestView => ({
  index, line: index + 1, file: 0, format: 'anthropic-messages', model, exact: false, total: 6, overhead: 0, byCategory: { user: 3, tool_result: 3 },
  segments: [segment('messages[0].content', null, 'user'), segment(`messages[${index}].content[0]`, 'read_file', null)], messageCount: 2, notes: [], recordedPrompt: null, band: null, unrecorded: [],
});

describe('shareRepeatedStrings', () => {
  it('leaves every value as it was, nulls included', () => {
    const view = { requests: [request(0, 'claude-sonnet-4-5'), request(1, 'claude-sonnet-4-5'), request(2, null)] } as unknown as AnalysisView;
    const before = structuredClone(view);
    shareRepeatedStrings(view);
    expect(view).toEqual(before);
    expect(view.requests[2]?.model).toBeNull();
    expect(view.requests[1]?.segments[1]).toEqual({ ...segment('messages[1].content[0]', 'read_file', null) });
  });
});
