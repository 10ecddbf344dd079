import { describe, expect, it } from 'vitest';
import {
  CLAUDE_TOOL_SYSTEM,
  claudeGeneration,
  claudeImageTokens,
  claudeTokensFromO200k,
  isCodeLikeText,
  usageMeasuresOtherPrompt,
  usesNewTokenizer,
} from '../../src/core/tokens/claude.ts';
import { TokenCounter } from '../../src/core/tokens/counter.ts';
import { pdfPageCount } from '../../src/core/tokens/media.ts';
import type { ParsedRequest } from '../../src/core/model.ts';
import { request, segment } from './build.ts';

/** A counter with o200k_base loaded (the Claude estimate scales its counts). */
async function preparedCounter(requests: ParsedRequest[]): Promise<TokenCounter> {
  const counter = new TokenCounter();
  await counter.prepare(requests, (r) => r.model);
  return counter;
}

// o200k_base counts used below (gpt-tokenizer): 'hello world ' × 50 → 101, '{"a":[1,2]}' × 20 → 140,
// 'a' × 40 → 5, 'b' × 400 → 100, 'c' × 40 → 10, the empty tool definition below → 19.
const PROSE = 'hello world '.repeat(50);
const CODE = '{"a":[1,2]}'.repeat(20);

describe('Claude text estimate over o200k_base', () => {
  it('scales the o200k count by the factor of the text kind and tokenizer generation', () => {
    expect(claudeTokensFromO200k(0, 'prose', false)).toBe(0);
    expect(claudeTokensFromO200k(101, 'prose', false)).toBe(114); // 101 × 1.13 = 114.1
    expect(claudeTokensFromO200k(140, 'code', false)).toBe(164); // 140 × 1.17 = 163.8
    expect(claudeTokensFromO200k(19, 'tools', false)).toBe(22); // 19 × 1.14 = 21.7
    expect(claudeTokensFromO200k(100, 'thinking', false)).toBe(88);
    expect(claudeTokensFromO200k(101, 'prose', true)).toBe(143); // 101 × 1.42 = 143.4
    expect(claudeTokensFromO200k(140, 'code', true)).toBe(171); // 140 × 1.22 = 170.8
    // Never 0 for a non-empty text.
    expect(claudeTokensFromO200k(1, 'thinking', false)).toBe(1);
  });

  it('calls a text code-like when more than 10% of its characters are ASCII symbols', () => {
    expect(isCodeLikeText('')).toBe(false);
    expect(isCodeLikeText('abcdefghi{')).toBe(false); // exactly 10%
    expect(isCodeLikeText('abcdefgh{')).toBe(true); // 11%
    expect(isCodeLikeText(CODE)).toBe(true);
    expect(isCodeLikeText(PROSE)).toBe(false);
    // Digits, both cases, whitespace and every non-ASCII character count as letters (non-Latin prose is prose).
    for (const prose of ['Z9z0', 'AZaz', '09 \t', '\n\r é', '日本語のテキスト', '😀']) expect(isCodeLikeText(prose), JSON.stringify(prose)).toBe(false);
    // The characters just outside each alphanumeric range, and DEL (127), are symbols.
    for (const symbol of ['/', ':', '@', '[', '`', '{', '\u007f']) expect(isCodeLikeText(symbol.repeat(4)), JSON.stringify(symbol)).toBe(true);
  });

  it('maps model ids to the generation of their hidden tool prompt', () => {
    for (const id of ['claude-3-5-haiku-20241022', 'claude-3-5-sonnet-20240620', 'claude-3-opus-20240229', 'claude-3-haiku-20240307']) {
      expect(claudeGeneration(id), id).toBe('claude-3');
    }
    for (const id of ['claude-3-7-sonnet-20250219', 'claude-sonnet-4-0', 'claude-sonnet-4-20250514', 'claude-opus-4-1-20250805', 'claude-sonnet-4', 'claude-sonnet-4@20250514', 'anthropic.claude-opus-4-20250514-v1:0']) {
      expect(claudeGeneration(id), id).toBe('claude-4.0');
    }
    for (const id of ['claude-sonnet-4-5', 'claude-haiku-4-5-20251001', 'claude-opus-4-5', 'claude-sonnet-4-6', 'claude-opus-4-6', 'some-proxy-model']) {
      expect(claudeGeneration(id), id).toBe('claude-4.5');
    }
    expect(claudeGeneration(null)).toBe('claude-4.5');
    expect(claudeGeneration('claude-opus-4-7')).toBe('newer-tokenizer');
    expect(claudeGeneration('claude-sonnet-5')).toBe('newer-tokenizer');
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
  it('estimates a text document from its text plus its 37-token wrapper, and a document with neither pages nor text as one page', async () => {
    const textDocument = segment({
      category: 'document',
      text: PROSE,
      wire: '{"type":"document","source":{"type":"text","media_type":"text/plain","data":"..."}}',
      messageIndex: 0,
      role: 'user',
    });
    const remote = segment({ category: 'document', text: '', wire: '{"type":"document","source":{"type":"url","url":"https://x"}}', messageIndex: 0, role: 'user' });
    const documents = request('anthropic-messages', 'claude-sonnet-4-5', [textDocument, remote]);
    const counted = (await preparedCounter([documents])).count(documents, 'claude-sonnet-4-5');
    // The prose's 114 + 37.
    expect(counted.segments).toEqual([151, 1600]);
    // The newer tokenizer scales the wrapper and a page estimate as a whole: 143 + round(37 × 1.3).
    expect((await preparedCounter([documents])).count(documents, 'claude-opus-4-7').segments).toEqual([191, 2080]);
  });
});

describe('Claude request estimate', () => {
  it('adds framing, the tool-use system prompt by generation and tool_choice, and the 4.7+ factors', async () => {
    const tool = segment({
      category: 'tools',
      text: '{"name":"t","description":"","input_schema":{"type":"object","properties":{}}}',
      wire: '{"name":"t","input_schema":{"type":"object","properties":{}}}',
      path: 'tools[0]',
    });
    const user = segment({ category: 'user', text: PROSE, messageIndex: 0, role: 'user' });
    const base = request('anthropic-messages', 'claude-sonnet-4-5', [user]);
    const withTool = request('anthropic-messages', 'claude-sonnet-4-5', [tool, user]);
    const counter = await preparedCounter([base, withTool]);
    const plain = counter.count(base, 'claude-sonnet-4-5');
    expect(plain.exact).toBe(false);
    expect(plain.notes).toEqual(['claude_estimate']);
    expect(plain.segments).toEqual([114]);
    expect(plain.overhead.framing).toBe(4 + 3);
    expect(plain.total).toBe(121);

    // Text × 1.42 over o200k; framing is not scaled.
    expect(counter.count(base, 'claude-opus-4-7').total).toBe(143 + 7);

    const auto = counter.count(withTool, 'claude-sonnet-4-5');
    expect(auto.segments).toEqual([22, 114]);
    expect(auto.overhead.toolUseSystem).toBe(502);
    expect(auto.total).toBe(22 + 114 + 7 + 502);
    expect(counter.count(withTool, 'claude-sonnet-4-20250514').overhead.toolUseSystem).toBe(329);
    expect(counter.count(withTool, 'claude-3-5-haiku-20241022').overhead.toolUseSystem).toBe(279);
    expect(counter.count(withTool, 'claude-opus-4-7').overhead.toolUseSystem).toBe(393);
    // Sonnet 5 bills 59 more than Opus 5 for the same tool request; a Sonnet 4.x does not.
    expect(counter.count(withTool, 'claude-opus-5').overhead.toolUseSystem).toBe(393);
    expect(counter.count(withTool, 'claude-sonnet-5').overhead.toolUseSystem).toBe(393 + 59);
    expect(counter.count(withTool, 'claude-sonnet-4-6').overhead.toolUseSystem).toBe(502);
    const forced = request('anthropic-messages', 'claude-sonnet-4-5', [tool, user]);
    forced.options.toolChoice = 'any';
    expect(counter.count(forced, 'claude-sonnet-4-5').overhead.toolUseSystem).toBe(610);
    expect(counter.count(forced, 'claude-sonnet-4-0').overhead.toolUseSystem).toBe(306);
    forced.options.toolChoice = 'tool:get_weather';
    expect(counter.count(forced, 'claude-sonnet-4-5').overhead.toolUseSystem).toBe(CLAUDE_TOOL_SYSTEM['claude-4.5'].any);
    forced.options.toolChoice = 'none';
    forced.options.thinking = 'enabled';
    expect(counter.count(forced, 'claude-sonnet-4-5').overhead.toolUseSystem).toBe(502 + 28);
    const effortOnly = request('anthropic-messages', 'claude-opus-4-6', [user]);
    effortOnly.options.thinking = 'high';
    expect(counter.count(effortOnly, 'claude-opus-4-6').overhead.toolUseSystem).toBe(0);
  });

  it('labels a request with MCP servers as not modelled and leaves it out of accuracy figures', async () => {
    const user = segment({ category: 'user', text: PROSE, messageIndex: 0, role: 'user' });
    const plain = request('anthropic-messages', 'claude-sonnet-4-5', [user]);
    const mcp = request('anthropic-messages', 'claude-sonnet-4-5', [user]);
    mcp.options.mcpServers = true;
    const counter = await preparedCounter([plain, mcp]);
    expect(counter.count(plain, 'claude-sonnet-4-5').notes).toEqual(['claude_estimate']);
    expect(counter.count(mcp, 'claude-sonnet-4-5').notes).toEqual(['claude_estimate', 'server_tool_not_modelled']);
    expect(usageMeasuresOtherPrompt(plain)).toBe(false);
    expect(usageMeasuresOtherPrompt(mcp)).toBe(true);
  });

  it('drops earlier turns\' thinking on models before Opus 4.5 / Sonnet 4.6 and keeps it on newer ones', async () => {
    const segments = [
      segment({ category: 'user', text: 'a'.repeat(40), messageIndex: 0, role: 'user' }),
      segment({ category: 'thinking', text: 'b'.repeat(400), messageIndex: 1, role: 'assistant' }),
      segment({ category: 'assistant', text: 'c'.repeat(40), messageIndex: 1, role: 'assistant' }),
      segment({ category: 'user', text: 'd'.repeat(40), messageIndex: 2, role: 'user' }),
    ];
    const counter = await preparedCounter([request('anthropic-messages', null, segments)]);
    // o200k: 5, 100, 10, 10 → ×1.13 (prose), thinking ×0.88.
    const older = counter.count(request('anthropic-messages', 'claude-sonnet-4-5', segments), 'claude-sonnet-4-5');
    expect(older.segments).toEqual([6, 0, 11, 11]);
    const newer = counter.count(request('anthropic-messages', 'claude-sonnet-4-6', segments), 'claude-sonnet-4-6');
    expect(newer.segments).toEqual([6, 88, 11, 11]);
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
