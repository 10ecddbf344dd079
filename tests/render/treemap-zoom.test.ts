// Treemap zoom groups and search: which blocks a zoom draws, what a breadcrumb calls it, which blocks a search marks.
import { describe, expect, it } from 'vitest';
import { blockMatches, isZoomGroup, searchBlocks, searchNeedle, zoomGroupLabel, zoomGroupOf, zoomMembers, type SearchBlock } from '../../src/render/treemap-zoom.ts';
import { layoutTreemap } from '../../src/render/treemap-layout.ts';

// An Anthropic request: tools, system, a user turn, an assistant turn with a tool call, a user turn of two results.
const blocks: (SearchBlock & { tokens: number })[] = [
  { category: 'tools', messageIndex: -1, role: null, path: 'tools[0]', toolName: 'read_file', tokens: 300 },
  { category: 'system', messageIndex: -1, role: null, path: 'system[0]', toolName: null, tokens: 900 },
  { category: 'user', messageIndex: 0, role: 'user', path: 'messages[0].content[0]', toolName: null, tokens: 40 },
  { category: 'assistant', messageIndex: 1, role: 'assistant', path: 'messages[1].content[0]', toolName: null, tokens: 60 },
  { category: 'tool_call', messageIndex: 1, role: 'assistant', path: 'messages[1].content[1]', toolName: 'read_file', tokens: 20 },
  { category: 'tool_result', messageIndex: 2, role: 'user', path: 'messages[2].content[0]', toolName: 'read_file', tokens: 2000 },
  { category: 'tool_result', messageIndex: 2, role: 'user', path: 'messages[2].content[1]', toolName: 'grep', tokens: 0 },
];

describe('treemap zoom', () => {
  it('groups blocks by message, and blocks outside the messages by category', () => {
    expect(blocks.map(zoomGroupOf)).toEqual(['tools', 'system', 'm0', 'm1', 'm1', 'm2', 'm2']);
    expect(zoomMembers(blocks, 'm1')).toEqual([3, 4]);
    expect(zoomMembers(blocks, 'm2')).toEqual([5, 6]);
    expect(zoomMembers(blocks, 'system')).toEqual([1]);
    // A zoom the request does not have draws nothing: the view falls back to the whole request.
    expect(zoomMembers(blocks, 'm9')).toEqual([]);
  });

  it('names a group for the breadcrumb', () => {
    expect(zoomGroupLabel(blocks, 'm1')).toBe('message 1 · assistant');
    expect(zoomGroupLabel(blocks, 'tools')).toBe('Tool definitions');
    expect(zoomGroupLabel(blocks, 'm9')).toBe('message 9');
  });

  it('accepts only message and category keys from a link', () => {
    expect(['m0', 'm1234567', 'system', 'setup_inferred'].map(isZoomGroup)).toEqual([true, true, true, true]);
    expect(['m', 'm-1', 'm12345678', 'messages[1]', 'System', ''].map(isZoomGroup)).toEqual([false, false, false, false, false, false]);
  });

  it('lays out only the zoomed blocks over the whole map, keeping their indices', () => {
    const cells = layoutTreemap(blocks, 400, 200, zoomMembers(blocks, 'm2'));
    expect(cells.map((c) => c.segment)).toEqual([5, 6]);
    // The empty result still gets a visible cell (the 2% floor is over the zoomed blocks), the other fills the rest.
    const [big, empty] = cells as [(typeof cells)[number], (typeof cells)[number]];
    expect(empty.x1 - empty.x0).toBeGreaterThan(0);
    expect(empty.y1 - empty.y0).toBeGreaterThan(0);
    expect(((big.x1 - big.x0) * (big.y1 - big.y0)) / (400 * 200)).toBeGreaterThan(0.9);
    expect(layoutTreemap(blocks, 400, 200, [])).toEqual([]);
  });
});

describe('treemap search', () => {
  it('matches paths and tool names, case-folded and trimmed', () => {
    expect(searchBlocks(blocks, '  READ_FILE ')).toEqual([0, 4, 5]);
    expect(searchBlocks(blocks, 'messages[2]')).toEqual([5, 6]);
    expect(searchBlocks(blocks, 'grep')).toEqual([6]);
  });

  it('matches kinds: category ids, their labels and the role', () => {
    expect(searchBlocks(blocks, 'tool_result')).toEqual([5, 6]);
    expect(searchBlocks(blocks, 'tool results')).toEqual([5, 6]);
    expect(searchBlocks(blocks, 'assistant')).toEqual([3, 4]);
    expect(searchBlocks(blocks, 'definitions')).toEqual([0]);
  });

  it('an empty search marks nothing, and a miss marks nothing', () => {
    expect(searchBlocks(blocks, '   ')).toEqual([]);
    expect(searchBlocks(blocks, 'no-such-block')).toEqual([]);
    expect(blockMatches(blocks[0]!, searchNeedle(''))).toBe(false);
  });
});
