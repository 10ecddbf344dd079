// `ctxray compare` on the terminal: the headline figures before → after with the change and its verdict, then the
// token categories, miss causes and finding codes that changed. Names of the two inputs as given on the command line.
import type { Comparison, MetricRow } from '../../core/compare/index.ts';
import type { CompareSide } from '../../core/compare/index.ts';
import { formatCount, formatSigned, formatUsd } from '../../core/text/format.ts';
import { compareChangeText as changeText, compareValueText as valueText, costBasisText, METRIC_LABELS as LABELS } from '../../render/compare-text.ts';
import { ownSgr } from '../terminal-safe.ts';

export interface CompareTerminalOptions {
  names: { before: string; after: string };
  sides: { before: CompareSide; after: CompareSide };
  color: boolean;
}

function table(rows: readonly string[][], widths: readonly number[]): string[] {
  return rows.map((cells) => `  ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`.trimEnd());
}

function section(title: string, rows: string[][]): string[] {
  if (rows.length === 0) return [];
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return ['', title, ...table(rows, widths)];
}

export function renderCompareReport(comparison: Comparison, options: CompareTerminalOptions): string {
  const paint = (code: number, text: string) => (options.color ? `${ownSgr(code)}${text}${ownSgr(0)}` : text);
  const { before, after } = options.sides;
  const lines = [
    paint(1, 'ctxray compare'),
    `  before: ${options.names.before} (${formatCount(before.requests)} requests, ${costBasisText(before.cost)})`,
    `  after:  ${options.names.after} (${formatCount(after.requests)} requests, ${costBasisText(after.cost)})`,
  ];
  const verdictMark = (row: MetricRow) => (row.verdict === 'better' ? paint(32, 'better') : row.verdict === 'worse' ? paint(31, 'worse') : '');
  const headline = comparison.metrics.map((row) => [LABELS[row.metric], valueText(row.before, row.unit), valueText(row.after, row.unit), changeText(row, row.unit), verdictMark(row)]);
  lines.push(...section(paint(1, 'Totals (before → after)'), [['', 'before', 'after', 'change'], ...headline]));
  const changed = <T extends { change: number | null }>(row: T) => row.change !== 0;
  lines.push(
    ...section(
      paint(1, 'Tokens by category'),
      comparison.tokensByCategory.filter(changed).map((row) => [row.category, formatCount(row.before ?? 0), formatCount(row.after ?? 0), changeText(row, 'tokens')]),
    ),
  );
  lines.push(
    ...section(
      paint(1, 'Misses by cause (count, USD)'),
      comparison.misses
        .filter((row) => row.count.change !== 0 || row.cost.change !== 0)
        .map((row) => [row.cause, `${formatCount(row.count.before ?? 0)} ${formatUsd(row.cost.before ?? 0)}`, `${formatCount(row.count.after ?? 0)} ${formatUsd(row.cost.after ?? 0)}`, changeText(row.cost, 'usd')]),
    ),
  );
  lines.push(
    ...section(
      paint(1, 'Findings by code (findings, requests)'),
      comparison.findings.map((row) => [
        row.code,
        `${formatCount(row.findings.before ?? 0)} on ${formatCount(row.requests.before ?? 0)}`,
        `${formatCount(row.findings.after ?? 0)} on ${formatCount(row.requests.after ?? 0)}`,
        row.findings.change === 0 ? 'same' : formatSigned(row.findings.change ?? 0, formatCount),
      ]),
    ),
  );
  if (before.findingsSource === 'summary' || after.findingsSource === 'summary') {
    lines.push('  (a folder\'s record keeps its ten costliest finding codes; compare two session files for every code)');
  }
  return `${lines.join('\n')}\n`;
}
