import { describe, expect, it } from 'vitest';
import {
  CLAUDE_TOOL_SYSTEM_ANY,
  CLAUDE_TOOL_SYSTEM_AUTO,
  claudeImageTokens,
  estimateClaudeTextTokens,
  usesNewTokenizer,
} from '../../src/core/tokens/claude.ts';
import { TokenCounter } from '../../src/core/tokens/counter.ts';
import { pdfPageCount } from '../../src/core/tokens/media.ts';
import { request, segment } from './build.ts';

describe('estimateClaudeTextTokens', () => {
  it('uses 4 characters per token for prose and 2.5 for symbol-dense text', () => {
    expect(estimateClaudeTextTokens('')).toBe(0);
    expect(estimateClaudeTextTokens('a'.repeat(400))).toBe(100);
    // 350 letters + 50 spaces: no symbols → 400 / 4.
    expect(estimateClaudeTextTokens('abcdefg '.repeat(50))).toBe(100);
    // Half symbols (≥ 35%) → fully dense: 400 / 2.5.
    expect(estimateClaudeTextTokens('a{'.repeat(200))).toBe(160);
  });

  it('counts digits, both letter cases and every non-ASCII character as prose, and only ASCII punctuation as symbols', () => {
    // No symbols: 400 characters / 4 = 100 each (an astral emoji is one character).
    for (const prose of ['Z9z0', 'AZaz', '09 \t', '\n\r é', 'é', '😀']) {
      expect(estimateClaudeTextTokens(prose.repeat(400 / [...prose].length)), JSON.stringify(prose)).toBe(100);
    }
    // The characters just outside each alphanumeric range, and DEL (127), are symbols: fully dense, 400 / 2.5.
    for (const symbol of ['/', ':', '@', '[', '`', '{', '\u007f']) {
      expect(estimateClaudeTextTokens(symbol.repeat(400)), JSON.stringify(symbol)).toBe(160);
    }
  });

  it('never returns 0 for non-empty text', () => {
    expect(estimateClaudeTextTokens('.')).toBe(1);
  });
});

describe('claude image and document estimates', () => {
  it('is w×h/750 after resizing to 1568 px and 1.15 MP', () => {
    expect(claudeImageTokens(400, 301)).toBe(161); // 120,400 / 750 = 160.5
    expect(claudeImageTokens(1000, 1000)).toBe(1333);
    // 3000×2000 → 1568×1045 (1.64 MP) → scaled to 1.15 MP → 1,533.
    expect(claudeImageTokens(3000, 2000)).toBe(1533);
  });

  it('counts PDF page objects in inline base64 data, not the /Pages node', () => {
    const pdf = '%PDF-1.4\n1 0 obj <</Type /Pages /Kids [2 0 R 3 0 R]>>\n2 0 obj <</Type /Page>>\n3 0 obj <</Type/Page>>';
    expect(pdfPageCount(`{"type":"document","source":{"type":"base64","data":"${btoa(pdf)}"}}`)).toBe(2);
    expect(pdfPageCount('{"type":"document","source":{"type":"url","url":"https://x"}}')).toBeNull();
    expect(pdfPageCount(`{"data":"${btoa('not a pdf at all, just text')}"}`)).toBeNull();
  });
});

describe('Claude document segments', () => {
  it('estimates a text document from its text, and a document with neither pages nor text as one page', () => {
    const counter = new TokenCounter();
    const textDocument = segment({
      category: 'document',
      text: 'a'.repeat(400),
      wire: '{"type":"document","source":{"type":"text","media_type":"text/plain","data":"..."}}',
      messageIndex: 0,
      role: 'user',
    });
    const remote = segment({ category: 'document', text: '', wire: '{"type":"document","source":{"type":"url","url":"https://x"}}', messageIndex: 0, role: 'user' });
    const counted = counter.count(request('anthropic-messages', 'claude-sonnet-4-5', [textDocument, remote]), 'claude-sonnet-4-5');
    expect(counted.segments).toEqual([100, 1600]);
  });
});

describe('Claude request estimate', () => {
  it('adds framing, the tool-use system prompt by tool_choice and the 4.7+ factor', async () => {
    const counter = new TokenCounter();
    const tool = segment({
      category: 'tools',
      text: '{"name":"t","description":"","input_schema":{"type":"object","properties":{}}}',
      wire: '{"name":"t","input_schema":{"type":"object","properties":{}}}',
      path: 'tools[0]',
    });
    const user = segment({ category: 'user', text: 'a'.repeat(400), messageIndex: 0, role: 'user' });
    const base = request('anthropic-messages', 'claude-sonnet-4-5', [user]);
    const plain = counter.count(base, 'claude-sonnet-4-5');
    expect(plain.exact).toBe(false);
    expect(plain.notes).toEqual(['claude_estimate']);
    expect(plain.segments).toEqual([100]);
    expect(plain.overhead.framing).toBe(4 + 3);
    expect(plain.total).toBe(107);

    const newer = counter.count(base, 'claude-opus-4-7');
    // Text × 1.3; framing is not scaled.
    expect(newer.total).toBe(130 + 7);

    const auto = counter.count(request('anthropic-messages', 'claude-sonnet-4-5', [tool, user]), 'claude-sonnet-4-5');
    expect(auto.overhead.toolUseSystem).toBe(CLAUDE_TOOL_SYSTEM_AUTO);
    const forced = request('anthropic-messages', 'claude-sonnet-4-5', [tool, user]);
    forced.options.toolChoice = 'any';
    expect(counter.count(forced, 'claude-sonnet-4-5').overhead.toolUseSystem).toBe(CLAUDE_TOOL_SYSTEM_ANY);
    forced.options.toolChoice = 'tool:get_weather';
    expect(counter.count(forced, 'claude-sonnet-4-5').overhead.toolUseSystem).toBe(CLAUDE_TOOL_SYSTEM_ANY);
    forced.options.toolChoice = 'none';
    forced.options.thinking = 'enabled';
    expect(counter.count(forced, 'claude-sonnet-4-5').overhead.toolUseSystem).toBe(CLAUDE_TOOL_SYSTEM_AUTO + 28);
    const effortOnly = request('anthropic-messages', 'claude-opus-4-6', [user]);
    effortOnly.options.thinking = 'high';
    expect(counter.count(effortOnly, 'claude-opus-4-6').overhead.toolUseSystem).toBe(0);
  });

  it('drops earlier turns\' thinking on models before Opus 4.5 / Sonnet 4.6 and keeps it on newer ones', () => {
    const counter = new TokenCounter();
    const segments = [
      segment({ category: 'user', text: 'a'.repeat(40), messageIndex: 0, role: 'user' }),
      segment({ category: 'thinking', text: 'b'.repeat(400), messageIndex: 1, role: 'assistant' }),
      segment({ category: 'assistant', text: 'c'.repeat(40), messageIndex: 1, role: 'assistant' }),
      segment({ category: 'user', text: 'd'.repeat(40), messageIndex: 2, role: 'user' }),
    ];
    const older = counter.count(request('anthropic-messages', 'claude-sonnet-4-5', segments), 'claude-sonnet-4-5');
    expect(older.segments).toEqual([10, 0, 10, 10]);
    const newer = counter.count(request('anthropic-messages', 'claude-sonnet-4-6', segments), 'claude-sonnet-4-6');
    expect(newer.segments).toEqual([10, 100, 10, 10]);
  });

  it('recognizes the models on the newer tokenizer', () => {
    for (const id of ['claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5-5', 'claude-sonnet-5', 'claude-haiku-5-5', 'claude-fable-5-1', 'us.anthropic.claude-opus-5-5']) {
      expect(usesNewTokenizer(id), id).toBe(true);
    }
    for (const id of ['claude-opus-4-6', 'claude-sonnet-4-5-20250929', 'claude-haiku-4-5', 'claude-3-opus-latest']) {
      expect(usesNewTokenizer(id), id).toBe(false);
    }
    expect(usesNewTokenizer(null)).toBe(false);
  });
});
