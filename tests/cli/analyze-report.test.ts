import { describe, expect, it } from 'vitest';
import { formatTokens, renderTerminalReport } from '../../src/cli/report/terminal.ts';
import { analyzeRead } from '../../src/core/analysis/analyze.ts';
import type { ReadResult } from '../../src/core/input/index.ts';
import { chatMessage, request, segment } from '../tokens/build.ts';
import { terminalSafe } from '../../src/cli/terminal-safe.ts';

// Synthetic requests built by hand.
function read(): ReadResult {
  const claude = request('anthropic-messages', 'us.anthropic.claude-haiku-4-5-20251001-v1:0', [
    segment({ category: 'user', text: 'a'.repeat(4000), messageIndex: 0, role: 'user', path: 'messages[0].content[0]' }),
  ]);
  const nameless = request('openai-chat', null, [chatMessage(0, 'user', 'hello')], { index: 1, line: 2 });
  return {
    requests: [claude, nameless],
    errors: [{ file: 0, line: 3, message: 'invalid JSON at column 2' }],
    files: [{ format: 'mixed', envelope: 'none', layout: 'jsonl', records: 3, requests: 2, errors: 1 }],
    distinctTexts: 3,
  };
}

describe('terminal report', () => {
  it('formats exact and estimated counts', () => {
    expect(formatTokens(1234567, true)).toBe('1,234,567');
    expect(formatTokens(12, false)).toBe('≈12');
  });

  it('names the priced model with its id form, the missing model, estimates and errors', async () => {
    const text = renderTerminalReport(await analyzeRead(read(), ['log.jsonl']), { color: false, verbose: false });
    expect(text).toContain('ctxray analyze: 1 file, 2 requests, 1 unreadable record');
    // `us.` is a regional endpoint: Haiku 4.5 there is billed 10% above the list price (docs/pricing.md).
    expect(text).toContain('priced as Claude Haiku 4.5, bedrock id, Bedrock regional endpoint, +10%, prices as of 2026-11-10');
    expect(text).toContain('no model named (1 request): not priced; pass --model <id>');
    // 4,000 × 'a': 500 o200k_base tokens × 1.13 (prose) = 565; framing 4 + 3 × 1 message.
    expect(text).toMatch(/#0 line 1\s+us\.anthropic\.claude-haiku-4-5-20251001-v1:0\s+≈572 {2}user ≈565 · overhead ≈7/);
    expect(text).toContain('log.jsonl:3: invalid JSON at column 2');
    expect(text).not.toContain('\u001b');
  });

  it('colors headings only when asked', async () => {
    const text = renderTerminalReport(await analyzeRead(read(), ['log.jsonl']), { color: true, verbose: false });
    expect(terminalSafe(text)).toContain('\u001b[1mctxray analyze');
    expect(terminalSafe(text, { ownSequences: false })).not.toContain('\u001b');
  });
});
