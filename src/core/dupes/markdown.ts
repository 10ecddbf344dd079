// The human-readable evidence view (`--markdown`): summary, duplicate-block table, disclaimers, record verbatim.
// Built only from the record, which holds counts, codes, indices and hashes — never block text.
import { REASON_MEANINGS, type RefusalDetail } from './codes.ts';
import { dupesRecordJson, type DupesRecord } from './record.ts';

/** Index lists longer than this are shortened in the table (the JSON below it keeps them all). */
const MAX_LISTED_INDICES = 20;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function describeDetail(detail: RefusalDetail): string {
  const parts: string[] = [];
  if (detail.field !== undefined) parts.push(`field \`${detail.field}\``);
  if (detail.blockIndex !== undefined) parts.push(`block ${detail.blockIndex}`);
  if (detail.messageIndex !== undefined) parts.push(`message ${detail.messageIndex}`);
  if (detail.partIndex !== undefined) parts.push(`part ${detail.partIndex}`);
  if (detail.eventIndex !== undefined) parts.push(`event ${detail.eventIndex}`);
  if (detail.line !== undefined) parts.push(`line ${detail.line}`);
  if (detail.byteOffset !== undefined) parts.push(`byte offset ${detail.byteOffset}`);
  if (detail.limit !== undefined) parts.push(`limit ${detail.limit}`);
  if (detail.actual !== undefined) parts.push(`found ${detail.actual}`);
  if (detail.skippedRecords !== undefined) parts.push(`${plural(detail.skippedRecords, 'record', 'records')} skipped`);
  return parts.join(', ');
}

function headline(record: DupesRecord): string {
  const { totals } = record;
  if (record.result === 'fail') {
    return (
      `**Result: FAIL** — ${plural(totals.duplicateBlocks, 'duplicate block', 'duplicate blocks')} ` +
      `(${plural(record.duplicates.length, 'repeated content hash', 'repeated content hashes')}) ` +
      `cost ${totals.wastedBytes} bytes and ${totals.wastedTokens} tokens.`
    );
  }
  if (record.result === 'pass') return `**Result: PASS** — no exact duplicate among ${plural(totals.blocks, 'block', 'blocks')}.`;
  const meaning = record.reason === null ? '' : ` ${REASON_MEANINGS[record.reason]}`;
  const where = record.detail === null ? '' : describeDetail(record.detail);
  return `**Result: UNKNOWN** — \`${record.reason ?? 'none'}\`.${meaning}${where === '' ? '' : ` (${where})`}`;
}

function indexList(indices: readonly number[]): string {
  const shown = indices.slice(0, MAX_LISTED_INDICES).join(', ');
  return indices.length > MAX_LISTED_INDICES ? `${shown}, … (+${indices.length - MAX_LISTED_INDICES})` : shown;
}

export function dupesMarkdown(record: DupesRecord): string {
  const { totals } = record;
  const lines: string[] = [
    '# ctxray dupes — duplicate-context report',
    '',
    headline(record),
    '',
    '| Field | Value |',
    '|---|---|',
    `| Schema | \`${record.schema}\` |`,
    `| Suite | \`${record.suite}\` |`,
    `| Adapter | ${record.adapter === null ? 'none' : `\`${record.adapter}\``} |`,
    `| Mapping | ${record.mapping === null ? 'none' : `\`${record.mapping}\``} |`,
    `| Tokenizer | \`${record.tokenizer}\` (not a provider-model tokenizer) |`,
    `| Hash | SHA-256 of each block's UTF-8 bytes |`,
    `| Result | \`${record.result}\` |`,
    `| Reason | ${record.reason === null ? '—' : `\`${record.reason}\``} |`,
    `| Blocks | ${totals.blocks} (${totals.bytes} bytes, ${totals.tokens} tokens) |`,
    `| Duplicate blocks | ${totals.duplicateBlocks} |`,
    `| Wasted | ${totals.wastedBytes} bytes, ${totals.wastedTokens} tokens |`,
    `| Ignored parts | ${record.ignoredParts} |`,
    `| Skipped records | ${record.skippedRecords} |`,
    '',
    '## Duplicate blocks',
    '',
  ];
  if (record.duplicates.length === 0) {
    lines.push(record.result === 'unknown' ? 'Not measured: the run is unknown.' : 'No block occurs more than once.');
  } else {
    lines.push(
      '| Content hash (SHA-256) | Occurrences | Copies | Bytes/block | Tokens/block | Wasted bytes | Wasted tokens | Block indices |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
    );
    for (const group of record.duplicates) {
      lines.push(
        `| \`${group.hash}\` | ${group.occurrences} | ${group.copies} | ${group.bytesPerBlock} | ${group.tokensPerBlock} | ` +
          `${group.wastedBytes} | ${group.wastedTokens} | ${indexList(group.indices)} |`,
      );
    }
  }
  lines.push(
    '',
    '## What this report does not claim',
    '',
    '- Token counts are `unicode-whitespace v1.0` (runs of non-white-space code points), not the tokens of any provider model, and nothing here is a billing estimate.',
    '- Only exact whole-block duplicates are found: no substring repetition, no semantic (paraphrase) duplication, no context truncation.',
    '- Adapters are one-way imports; the report does not assert that every block was transmitted to a provider.',
    '- Content hashes are pseudonyms: anyone who can guess a block\'s text can confirm it by hashing. They are not anonymization.',
    '- Evaluation is static: no payload was executed, no URL fetched, no provider contacted.',
    '- Have the owner of the data review this report before disclosing it.',
    '',
    '## Record (JSON, verbatim)',
    '',
    '```json',
    dupesRecordJson(record).trimEnd(),
    '```',
    '',
  );
  return lines.join('\n');
}
