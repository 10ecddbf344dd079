// The comparison record (ctxray.compare/1, from the worker) as the compare view's rows of text and as one export
// table. Only formatting: every figure and verdict is the record's own (src/core/compare made them).
import type { Change, CompareRecord, MetricRow, Unit } from '../../core/compare/index.ts';
import { compareChangeText, compareValueText, METRIC_LABELS } from '../../render/compare-text.ts';
import type { Cell, Table } from '../export.ts';

/** One row as shown: a label, before, after, the change, and (headline rows) the verdict in words. */
export interface ShownRow {
  label: string;
  before: string;
  after: string;
  change: string;
  /** "better", "worse", "same", "n/a"; null where a change has no better way (tokens of one category). */
  verdict: MetricRow['verdict'] | null;
}

export interface ShownSection {
  id: 'totals' | 'categories' | 'misses' | 'findings';
  title: string;
  /** What the section's figures count (its table's caption). */
  caption: string;
  rows: ShownRow[];
}

const shown = (label: string, row: Change, unit: Unit): ShownRow => ({
  label,
  before: compareValueText(row.before, unit),
  after: compareValueText(row.after, unit),
  change: compareChangeText(row, unit),
  verdict: null,
});

/** Two figures of one side in one cell ("3 · $0.41"). */
const pair = (a: number | null, b: string): string => `${compareValueText(a, 'count')} · ${b}`;

export function shownSections(record: CompareRecord): ShownSection[] {
  return [
    {
      id: 'totals',
      title: 'Totals',
      caption: 'Headline figures, before → after, with the change and whether it went the better or the worse way',
      rows: record.metrics.map((row) => ({ ...shown(METRIC_LABELS[row.metric], row, row.unit), verdict: row.verdict })),
    },
    { id: 'categories', title: 'Tokens by category', caption: 'Prompt tokens of each category', rows: record.tokensByCategory.map((row) => shown(row.category, row, 'tokens')) },
    {
      id: 'misses',
      title: 'Misses by cause',
      caption: 'Cache misses of each cause: how many · what they cost over a hit (USD); the change is of the cost',
      rows: record.misses.map((row) => ({
        ...shown(row.cause, row.cost, 'usd'),
        before: pair(row.count.before, compareValueText(row.cost.before, 'usd')),
        after: pair(row.count.after, compareValueText(row.cost.after, 'usd')),
      })),
    },
    {
      id: 'findings',
      title: 'Findings by code',
      caption: 'Findings of each code · the requests they name; the change is of the findings',
      rows: record.findings.map((row) => ({
        ...shown(`${row.code} (${row.severity})`, row.findings, 'count'),
        before: pair(row.findings.before, `${compareValueText(row.requests.before, 'count')} req.`),
        after: pair(row.findings.after, `${compareValueText(row.requests.after, 'count')} req.`),
      })),
    },
  ];
}

const cells = (row: Change): Cell[] => [row.before, row.after, row.change, row.relative];

/** Every row of the record as one table (CSV): section, item, measure, before, after, change, relative, verdict. */
export function compareTable(record: CompareRecord): Table {
  const rows: Cell[][] = [
    ...record.metrics.map((row) => ['totals', row.metric, row.unit, ...cells(row), row.verdict]),
    ...record.tokensByCategory.map((row) => ['tokensByCategory', row.category, 'tokens', ...cells(row), null]),
    ...record.misses.flatMap((row) => (['count', 'tokens', 'cost'] as const).map((measure) => ['misses', row.cause, measure, ...cells(row[measure]), null])),
    ...record.findings.flatMap((row) => (['findings', 'requests'] as const).map((measure) => ['findings', row.code, measure, ...cells(row[measure]), null])),
  ];
  const columns = ['section', 'item', 'measure', 'before', 'after', 'change', 'relative', 'verdict'].map((id) => ({ id, title: id }));
  return { columns, rows };
}
