// The `--markdown` evidence view line by line: the summary table's labels, the verdict of each result with the
// located detail of an unknown one, the duplicate table's shortened index lists. Every block text is synthetic.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RefusalDetail } from '../../src/core/dupes/codes.ts';
import { dupesMarkdown } from '../../src/core/dupes/markdown.ts';
import { buildDupesRecord, dupesRecordJson } from '../../src/core/dupes/record.ts';
import { nativeEnvelope, recordOf } from './helpers.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const DISCLAIMERS = [
  '## What this report does not claim',
  '',
  '- Token counts are `unicode-whitespace v1.0` (runs of non-white-space code points), not the tokens of any provider model, and nothing here is a billing estimate.',
  '- Only exact whole-block duplicates are found: no substring repetition, no semantic (paraphrase) duplication, no context truncation.',
  '- Adapters are one-way imports; the report does not assert that every block was transmitted to a provider.',
  "- Content hashes are pseudonyms: anyone who can guess a block's text can confirm it by hashing. They are not anonymization.",
  '- Evaluation is static: no payload was executed, no URL fetched, no provider contacted.',
  '- Have the owner of the data review this report before disclosing it.',
  '',
  '## Record (JSON, verbatim)',
  '',
  '```json',
];

/** The report's lines before the verbatim JSON, and that JSON. */
function split(markdown: string): { head: string[]; json: string } {
  const lines = markdown.split('\n');
  const fence = lines.indexOf('```json');
  expect(lines.slice(-2)).toEqual(['```', '']);
  return { head: lines.slice(0, fence + 1), json: lines.slice(fence + 1, -2).join('\n') };
}

function unknownRecord(reason: 'LIMIT_RECORDS' | 'TOO_DEEP', detail: RefusalDetail) {
  return buildDupesRecord({ ok: false, refusal: { reason, detail }, adapter: null, mapping: null });
}

describe('dupes markdown report', () => {
  it('a pass: title, verdict, the summary table with "none" and "—" for absent labels, no duplicate table', () => {
    // "a" is 1 byte and 1 token, "b c" 3 bytes and 2 tokens.
    const record = recordOf(nativeEnvelope(['a', 'b c']));
    const { head, json } = split(dupesMarkdown(record));
    expect(head).toEqual([
      '# ctxray dupes — duplicate-context report',
      '',
      '**Result: PASS** — no exact duplicate among 2 blocks.',
      '',
      '| Field | Value |',
      '|---|---|',
      '| Schema | `ctxray.dupes/1` |',
      '| Suite | `v1` |',
      '| Adapter | none |',
      '| Mapping | `envelope-blocks-v1` |',
      '| Tokenizer | `unicode-whitespace v1.0` (not a provider-model tokenizer) |',
      "| Hash | SHA-256 of each block's UTF-8 bytes |",
      '| Result | `pass` |',
      '| Reason | — |',
      '| Blocks | 2 (4 bytes, 3 tokens) |',
      '| Duplicate blocks | 0 |',
      '| Wasted | 0 bytes, 0 tokens |',
      '| Ignored parts | 0 |',
      '| Skipped records | 0 |',
      '',
      '## Duplicate blocks',
      '',
      'No block occurs more than once.',
      '',
      ...DISCLAIMERS,
    ]);
    expect(json).toBe(dupesRecordJson(record).trimEnd());
  });

  it('a pass of one block says "1 block"', () => {
    expect(dupesMarkdown(recordOf(nativeEnvelope(['a'])))).toContain('**Result: PASS** — no exact duplicate among 1 block.\n');
  });

  it('a fail through an adapter: its adapter and mapping, ignored parts, one row per repeated hash', () => {
    // Message 0: "look" (text part), an image part (ignored), "look" again; message 1: "see it" twice as strings.
    const record = recordOf({
      adapter: 'openai-chat-v1',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { type: 'text', text: 'look' }] },
        { role: 'user', content: 'see it' },
        { role: 'user', content: 'see it' },
      ],
    });
    const lines = dupesMarkdown(record).split('\n');
    // Blocks: look, look, see it, see it = 4 + 4 + 6 + 6 = 20 bytes, 1 + 1 + 2 + 2 = 6 tokens; each hash has one copy.
    expect(lines[2]).toBe('**Result: FAIL** — 2 duplicate blocks (2 repeated content hashes) cost 10 bytes and 3 tokens.');
    expect(lines.slice(8, 10)).toEqual(['| Adapter | `openai-chat-v1` |', '| Mapping | `openai-chat-messages-v1` |']);
    expect(lines.slice(12, 19)).toEqual([
      '| Result | `fail` |',
      '| Reason | — |',
      '| Blocks | 4 (20 bytes, 6 tokens) |',
      '| Duplicate blocks | 2 |',
      '| Wasted | 10 bytes, 3 tokens |',
      '| Ignored parts | 1 |',
      '| Skipped records | 0 |',
    ]);
    const table = lines.slice(lines.indexOf('## Duplicate blocks') + 2, lines.indexOf('## What this report does not claim') - 1);
    expect(table).toEqual([
      '| Content hash (SHA-256) | Occurrences | Copies | Bytes/block | Tokens/block | Wasted bytes | Wasted tokens | Block indices |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
      `| \`${sha256('look')}\` | 2 | 1 | 4 | 1 | 4 | 1 | 0, 1 |`,
      `| \`${sha256('see it')}\` | 2 | 1 | 6 | 2 | 6 | 2 | 2, 3 |`,
    ]);
  });

  it('a fail of one duplicate says "1 duplicate block (1 repeated content hash)"', () => {
    expect(dupesMarkdown(recordOf(nativeEnvelope(['x', 'x'])))).toContain('**Result: FAIL** — 1 duplicate block (1 repeated content hash) cost 1 bytes and 1 tokens.');
  });

  it('lists at most 20 block indices and counts the rest', () => {
    const rowOf = (copies: number) =>
      dupesMarkdown(recordOf(nativeEnvelope(Array.from({ length: copies }, () => 'same'))))
        .split('\n')
        .find((line) => line.startsWith(`| \`${sha256('same')}\``));
    const first20 = Array.from({ length: 20 }, (_, i) => i).join(', ');
    expect(rowOf(20)?.endsWith(`| ${first20} |`)).toBe(true);
    expect(rowOf(21)?.endsWith(`| ${first20}, … (+1) |`)).toBe(true);
    expect(rowOf(23)?.endsWith(`| ${first20}, … (+3) |`)).toBe(true);
  });

  it('an unknown run: code, meaning, the summary table, "not measured"', () => {
    const record = unknownRecord('TOO_DEEP', { byteOffset: 40, limit: 32 });
    const lines = dupesMarkdown(record).split('\n');
    expect(lines[2]).toBe('**Result: UNKNOWN** — `TOO_DEEP`. JSON nesting is deeper than 32 levels. (byte offset 40, limit 32)');
    expect(lines.slice(8, 10)).toEqual(['| Adapter | none |', '| Mapping | none |']);
    expect(lines.slice(12, 14)).toEqual(['| Result | `unknown` |', '| Reason | `TOO_DEEP` |']);
    expect(lines.slice(lines.indexOf('## Duplicate blocks'), lines.indexOf('## Duplicate blocks') + 3)).toEqual(['## Duplicate blocks', '', 'Not measured: the run is unknown.']);
  });

  it('an unknown run without detail has no location', () => {
    const lines = dupesMarkdown(unknownRecord('TOO_DEEP', {})).split('\n');
    expect(lines[2]).toBe('**Result: UNKNOWN** — `TOO_DEEP`. JSON nesting is deeper than 32 levels.');
  });

  it.each<[RefusalDetail, string]>([
    [{ field: 'messages' }, 'field `messages`'],
    [{ blockIndex: 3 }, 'block 3'],
    [{ messageIndex: 4 }, 'message 4'],
    [{ partIndex: 5 }, 'part 5'],
    [{ eventIndex: 6 }, 'event 6'],
    [{ line: 7 }, 'line 7'],
    [{ byteOffset: 8 }, 'byte offset 8'],
    [{ limit: 9 }, 'limit 9'],
    [{ actual: 10 }, 'found 10'],
    [{ skippedRecords: 1 }, '1 record skipped'],
    [{ skippedRecords: 2 }, '2 records skipped'],
  ])('locates an unknown run by %j', (detail, where) => {
    expect(dupesMarkdown(unknownRecord('LIMIT_RECORDS', detail)).split('\n')[2]).toBe(
      `**Result: UNKNOWN** — \`LIMIT_RECORDS\`. The request log has more records than the reader's work limit (1,000,000 per file by default). (${where})`,
    );
  });

  it('gives every member of the location in a fixed order', () => {
    const detail: RefusalDetail = { skippedRecords: 2, actual: 10, limit: 9, byteOffset: 8, line: 7, eventIndex: 6, partIndex: 5, messageIndex: 4, blockIndex: 3, field: 'text' };
    expect(dupesMarkdown(unknownRecord('TOO_DEEP', detail)).split('\n')[2]).toBe(
      '**Result: UNKNOWN** — `TOO_DEEP`. JSON nesting is deeper than 32 levels. (field `text`, block 3, message 4, part 5, event 6, line 7, byte offset 8, limit 9, found 10, 2 records skipped)',
    );
  });
});
