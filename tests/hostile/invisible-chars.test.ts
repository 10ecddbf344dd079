// Invisible and text-direction characters in shown payload text (the app, the --html report): found, marked, and
// given back exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/render/report/html.ts';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { codePointLabel, joinPieces, splitInvisible, visibleLabel } from '../../src/core/text/invisible.ts';

describe('splitInvisible', () => {
  it('cuts out bidi overrides, isolates and controls as code points, keeping the runs between them', () => {
    // Synthetic: the classic "gnp.exe shown as exe.png" override, an isolate pair, a bell, an escape, a NUL.
    expect(splitInvisible('bidi \u202egnp.exe\u202c iso \u2066x\u2069 bell\u0007 esc\u001b[0m nul\u0000')).toEqual([
      'bidi ',
      { codePoint: 0x202e },
      'gnp.exe',
      { codePoint: 0x202c },
      ' iso ',
      { codePoint: 0x2066 },
      'x',
      { codePoint: 0x2069 },
      ' bell',
      { codePoint: 0x07 },
      ' esc',
      { codePoint: 0x1b },
      '[0m nul',
      { codePoint: 0x00 },
    ]);
  });

  it('marks every bidi embedding, override and isolate, LRM/RLM/ALM, zero-width space, BOM, soft hyphen, C1 and tags', () => {
    const marked = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0xfeff, 0x00ad, 0x0085, 0x007f, 0x2060, 0xe0041, 0xe007f];
    for (const codePoint of marked) expect(splitInvisible(String.fromCodePoint(codePoint))).toEqual([{ codePoint }]);
  });

  it('leaves tab, newline, CR, ordinary text, emoji with ZWJ and surrogate pairs alone', () => {
    for (const text of ['a\tb\nc\r\nd', 'plain ASCII', 'עברית ومرحبا', '👨\u200d👩\u200d👧', '\ud83d\ude00', 'e\u0301']) {
      expect(splitInvisible(text)).toEqual([text]);
    }
  });

  it('marks an unpaired surrogate (the reader notes it as lone_surrogate)', () => {
    expect(splitInvisible('a\ud800b')).toEqual(['a', { codePoint: 0xd800 }, 'b']);
    expect(splitInvisible('\udfff')).toEqual([{ codePoint: 0xdfff }]);
  });

  it('joins back to exactly the text it was given (any string)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => joinPieces(splitInvisible(text)) === text),
      { numRuns: 2000, seed: 13 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\u202e', '\u2066', '\u0000', '\ud800', '\udc00', '\u200b') }), (text) => joinPieces(splitInvisible(text)) === text),
      { numRuns: 2000, seed: 14 },
    );
  });

  it('never leaves a reordering character inside a text run', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) =>
        splitInvisible(text).every((piece) => typeof piece !== 'string' || !/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/.test(piece)),
      ),
      { numRuns: 2000, seed: 15 },
    );
  });
});

describe('labels', () => {
  it('codePointLabel pads to four hex digits', () => {
    expect(codePointLabel(0x7)).toBe('U+0007');
    expect(codePointLabel(0x202e)).toBe('U+202E');
    expect(codePointLabel(0xe0041)).toBe('U+E0041');
  });

  it('visibleLabel writes each invisible as ⟨U+XXXX⟩ and nothing else changes', () => {
    expect(visibleLabel('read\u202eelif')).toBe('read⟨U+202E⟩elif');
    expect(visibleLabel('tool_name')).toBe('tool_name');
    expect(visibleLabel('x\u200by')).toBe('x⟨U+200B⟩y');
  });
});

describe('the --html report with --content', () => {
  it('writes bidi and invisible characters of block excerpts as ⟨U+XXXX⟩, never the characters themselves', async () => {
    // Synthetic: the first user message is edited on turn 2, so the prefix diff shows both excerpts.
    const body = (text: string, more: unknown[]) => JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'system', content: 'synthetic system' }, { role: 'user', content: text }, ...more] });
    const log = `${body('synthetic \u202egnp.exe\u202c one', [])}\n${body('synthetic \u2066x\u2069 two\u200b', [{ role: 'assistant', content: 'synthetic reply' }, { role: 'user', content: 'synthetic next' }])}\n`;
    const analysis = await analyzeInput([{ name: 'synthetic.jsonl', bytes: new TextEncoder().encode(log) }]);
    const html = renderHtmlReport(analysis, analysis.cache!, { content: true });
    expect(html).toContain('synthetic ⟨U+202E⟩gnp.exe⟨U+202C⟩ one');
    expect(html).toContain('synthetic ⟨U+2066⟩x⟨U+2069⟩ two⟨U+200B⟩');
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
  });
});
