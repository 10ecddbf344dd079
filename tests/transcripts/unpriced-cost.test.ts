// A conversation (or day, or model) none of whose requests has a price shows "unpriced", not "$0.0000", in the
// terminal summary and in the web app's Summary panel. Figures below are synthetic and worked out by hand.
import { describe, expect, it } from 'vitest';
import { costText as terminalCostText, renderSummary } from '../../src/cli/report/transcripts.ts';
import { costText as panelCostText } from '../../src/ui/panels/summary.ts';
import type { TimeRangeSummary } from '../../src/core/transcripts/index.ts';

type Totals = TimeRangeSummary['totals'];
const totals = (requests: number, cost: number, unpricedRequests: number): Totals => ({
  requests,
  recordedRequests: 0,
  promptTokens: 100 * requests,
  cacheRead: 0,
  cacheWrite: 0,
  output: 0,
  cost,
  unpricedRequests,
});

describe('cost cells', () => {
  it.each([
    ['nothing priced', totals(3, 0, 3), 'unpriced', 'unpriced'],
    ['all priced', totals(2, 0.5, 0), '$0.5000', '$0.5000'],
    ['partly priced', totals(4, 0.25, 1), '$0.2500 (+1 unpriced)', '$0.2500 (+1 unpriced)'],
    ['priced and free', totals(1, 0, 0), '$0.0000', '$0.0000'],
    ['an empty row', totals(0, 0, 0), '$0.0000', '$0.0000'],
  ])('%s', (_name, row, terminal, panel) => {
    expect(terminalCostText(row)).toBe(terminal);
    expect(panelCostText(row)).toBe(panel);
  });
});

describe('terminal summary', () => {
  it('the costliest conversations table says "unpriced" for a conversation with no price', () => {
    const priced = { ...totals(2, 0.0123, 0), conversation: 0, file: 0, start: null, end: null, models: ['gpt-4o'] };
    const unpriced = { ...totals(3, 0, 3), conversation: 1, file: 1, start: null, end: null, models: ['synthetic-unknown-model'] };
    const summary: TimeRangeSummary = {
      start: null,
      end: null,
      totals: totals(5, 0.0123, 3),
      days: [{ day: null, ...totals(5, 0.0123, 3) }],
      models: [],
      topConversations: [priced, unpriced],
      topFindings: [],
    };
    const text = renderSummary(summary, { color: false, fileNames: ['a.jsonl', 'b.jsonl'] });
    const rows = text.split('\n');
    const conversationRow = (file: string) => rows.find((line) => line.trimStart().match(new RegExp(`^\\d+\\s+${file.replace('.', '\\.')}`)));
    expect(conversationRow('a.jsonl')).toMatch(/\$0\.0123$/);
    expect(conversationRow('b.jsonl')).toMatch(/\bunpriced$/);
    expect(conversationRow('b.jsonl')).not.toContain('$');
    expect(text).toContain('$0.0123 (+3 unpriced)');
  });
});
