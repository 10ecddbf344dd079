import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { analyzeCache } from '../../src/core/cache/index.ts';
import { escapeHtml, MAX_DIFF_LINES, renderHtmlReport } from '../../src/render/report/html.ts';

// Synthetic two-turn session whose payload carries markup and a secret-looking tool name, and whose tool list is
// reordered on the second turn (so there is a finding with a detail and a diff to draw).
const tools = (order: string[]) =>
  order.map((name) => ({ name, description: 'synthetic tool', input_schema: { type: 'object', properties: {} } }));
const body = (messages: unknown[], order: string[]) =>
  JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, tools: tools(order), system: 'synthetic system prompt', messages });
const first = [{ role: 'user', content: 'synthetic <script>alert(1)</script> & "quotes"' }];
const second = [...first, { role: 'assistant', content: 'synthetic answer' }, { role: 'user', content: 'synthetic follow-up' }];
const log = [body(first, ['tool_alpha', 'tool_<b>beta</b>']), body(second, ['tool_<b>beta</b>', 'tool_alpha'])].join('\n') + '\n';

async function report(content: boolean): Promise<string> {
  const analysis = await analyzeInput([{ name: 'synthetic.jsonl', bytes: new TextEncoder().encode(log) }]);
  const cache = analyzeCache({
    requests: analysis.requests,
    segmentTokens: analysis.segmentTokens,
    overheadTokens: analysis.overheadTokens,
    pricingOf: (i) => analysis.models[i]?.pricing ?? null,
  });
  return renderHtmlReport(analysis, cache, { content });
}

describe('renderHtmlReport', () => {
  it('is self-contained: no script, a CSP that allows only its own stylesheet by hash, nothing fetched', async () => {
    const html = await report(false);
    expect(html).not.toMatch(/<script/i);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const hash = createHash('sha256').update(style, 'utf8').digest('base64');
    expect(html).toContain(`content="default-src &#39;none&#39;; style-src &#39;sha256-${hash}&#39;`);
    // The only URL is the SVG namespace (of the wide and the narrow treemap); no src=, no link rel=stylesheet.
    expect(html.match(/https?:\/\/[^"\s<]+/g)).toEqual(['http://www.w3.org/2000/svg', 'http://www.w3.org/2000/svg']);
    expect(html).not.toMatch(/\ssrc=|<link/i);
    expect(html).not.toMatch(/\sstyle="/);
  });

  it('shows findings, the cache table, the treemap and the diff without payload text by default', async () => {
    const html = await report(false);
    expect(html).toContain('tools_reordered');
    expect(html).toContain('<svg');
    expect(html).toContain('id="request-2"');
    expect(html).toContain('Prefix diffs (1)');
    expect(html).not.toContain('tool_alpha');
    expect(html).not.toContain('alert(1)');
  });

  it('escapes payload text when content is requested', async () => {
    const html = await report(true);
    expect(html).toContain('tool_alpha');
    expect(html).toContain('tool_&#60;b&#62;beta&#60;/b&#62;');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).not.toContain('<b>beta');
    expect(html).not.toMatch(/<script/i);
  });

  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
});

describe('renderHtmlReport on reordered histories', () => {
  it('labels a coarse diff and draws at most MAX_DIFF_LINES lines of it, counting the rest', async () => {
    // Two synthetic requests of one conversation: 4,000 blocks, the second rotated by 2,000 (D = 4,000, past the
    // diff's work budget).
    const blocks = Array.from({ length: 4000 }, (_, i) => ({ type: 'text', text: `synthetic block ${i}` }));
    const request = (content: unknown[]) => JSON.stringify({ model: 'claude-sonnet-4-5', system: 'synthetic system prompt', messages: [{ role: 'user', content: [{ type: 'text', text: 'synthetic task' }, ...content] }] });
    const text = [request(blocks), request([...blocks.slice(2000), ...blocks.slice(0, 2000)])].join('\n') + '\n';
    const analysis = await analyzeInput([{ name: 'synthetic.jsonl', bytes: new TextEncoder().encode(text) }]);
    const html = renderHtmlReport(analysis, analysis.cache!, { content: false });
    expect(html).toContain('Coarse diff: the requests differ by too many edits');
    const diff = html.slice(html.indexOf('<pre>', html.indexOf('id="diff-2"')), html.indexOf('</pre>', html.indexOf('id="diff-2"')));
    const drawn = diff.match(/class="(del|add)"/g) ?? [];
    // Two equal lines (the shared system prompt and task) lead; 498 changed lines are drawn, the other 7,502 counted.
    expect(drawn.length).toBe(MAX_DIFF_LINES - 2);
    expect(diff).toContain(`diff cut at ${MAX_DIFF_LINES} lines: ${8000 - (MAX_DIFF_LINES - 2)} more removed or added block(s) not drawn`);
  });
});
