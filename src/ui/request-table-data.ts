// What the request table shows, without the DOM: the miss causes in words, the columns, the filter and the sort, the
// fitted column widths and the export rows.
import { blockNameMatches } from '../render/treemap-zoom.ts';
import { formatCount, formatTokens, formatUsd } from '../render/format.ts';
import type { MissCause, RequestRowsAnswer } from '../worker/handlers/request-rows.ts';
import type { AnalysisView } from '../worker/view-model.ts';
import { sortByKey, type GridColumn, type GridSort } from './virtual-grid.ts';
import { fitWidth, longest } from './column-widths.ts';
import type { ExportColumn } from './export.ts';

/** The cache analysis' miss causes (docs/cache.md, "Misses") in a few words each. */
const MISS_LABELS: Record<MissCause, string> = {
  cold_start: 'cold start',
  compaction: 'compaction',
  model_switch: 'model switch',
  ttl_expired: 'TTL expired',
  below_minimum: 'below minimum',
  breakpoint_missing: 'breakpoint missing',
  setup_changed: 'setup changed',
  history_edited: 'history edited',
  unexplained: 'unexplained',
};

export function missLabel(cause: MissCause): string {
  return MISS_LABELS[cause];
}

/** "setup changed at tools[1], $0.0069 over a hit": the miss of request `i` in one line. */
export function missTitle(rows: RequestRowsAnswer, i: number): string {
  const cause = rows.missCause[i];
  if (cause === null || cause === undefined) return '';
  const block = rows.missBlock[i];
  const cost = rows.missCost[i];
  return `${missLabel(cause)}${block ? ` at ${block}` : ''}${cost !== null && cost !== undefined ? `, ${formatUsd(cost)} over a hit` : ''}`;
}

export type ColumnId = 'index' | 'model' | 'conversation' | 'tokens' | 'recorded' | 'simulated' | 'cost' | 'miss' | 'findings';

/** What a column sorts by, from the view and the worker's rows (null until they arrive). */
interface SortSource {
  view: AnalysisView;
  rows: RequestRowsAnswer | null;
}

/** A grid column of the request table with the key it sorts request `i` by. */
interface RequestColumn extends GridColumn<ColumnId> {
  key: (source: SortSource, i: number) => number | string;
}

export const COLUMNS: readonly RequestColumn[] = [
  { id: 'index', title: '#', numeric: true, describe: 'Request number (order in the input)', key: (_, i) => i },
  { id: 'model', title: 'Model', numeric: false, describe: 'Model as named in the request', key: ({ view }, i) => view.requests[i]?.model ?? '' },
  { id: 'conversation', title: 'Conv.', numeric: true, describe: 'Conversation the request belongs to', key: ({ rows }, i) => rows?.conversation[i] ?? -1 },
  { id: 'tokens', title: 'Tokens', numeric: true, describe: 'Prompt tokens of the request (≈ estimated)', key: ({ view }, i) => view.requests[i]?.total ?? 0 },
  {
    id: 'recorded',
    title: 'Recorded read',
    numeric: true,
    describe: 'Cache read tokens the provider recorded (– where the log has no usage)',
    key: ({ rows }, i) => rows?.recordedRead[i] ?? -1,
  },
  { id: 'simulated', title: 'Simulated read', numeric: true, describe: 'Cache read tokens of the simulation', key: ({ rows }, i) => rows?.simulatedRead[i] ?? -1 },
  { id: 'cost', title: 'Cost', numeric: true, describe: 'Simulated cost as sent, USD', key: ({ rows }, i) => rows?.cost[i] ?? -1 },
  { id: 'miss', title: 'Miss', numeric: false, describe: 'Why the request missed the simulated cache (empty: it read it)', key: ({ rows }, i) => rows?.missCause[i] ?? '' },
  { id: 'findings', title: 'Findings', numeric: true, describe: 'How many findings name this request', key: ({ rows }, i) => rows?.findings[i]?.length ?? 0 },
];

export interface RequestFilter {
  text: string;
  model: string | null;
  /** 1-based conversation number, or null for all. */
  conversation: number | null;
  /** 'any' | 'with' (some finding) | a finding code. */
  finding: string;
  /** 'any' | 'misses' | a miss cause. */
  miss: string;
}

export const NO_FILTER: RequestFilter = { text: '', model: null, conversation: null, finding: 'any', miss: 'any' };

/** Whether request `i` passes the filters that need the worker's rows (conversation, miss, finding). */
function passesRowFilters(rows: RequestRowsAnswer, i: number, filter: RequestFilter): boolean {
  if (filter.conversation !== null && rows.conversation[i] !== filter.conversation - 1) return false;
  const miss = rows.missCause[i] ?? null;
  if (filter.miss === 'misses' && miss === null) return false;
  if (filter.miss !== 'any' && filter.miss !== 'misses' && miss !== filter.miss) return false;
  const findings = rows.findings[i] ?? [];
  if (filter.finding === 'with' && findings.length === 0) return false;
  if (filter.finding !== 'any' && filter.finding !== 'with' && !findings.some((f) => rows.findingCodes[f] === filter.finding)) return false;
  return true;
}

/** Request indices that pass the filter, in input order. Text matches the model, block paths and tool names. */
export function filterRequests(view: AnalysisView, rows: RequestRowsAnswer | null, filter: RequestFilter): number[] {
  const text = filter.text.trim().toLowerCase();
  const out: number[] = [];
  for (let i = 0; i < view.requests.length; i++) {
    const request = view.requests[i]!;
    if (filter.model !== null && (request.model ?? '') !== filter.model) continue;
    if (rows !== null && !passesRowFilters(rows, i, filter)) continue;
    if (text !== '' && !(request.model ?? '').toLowerCase().includes(text) && !request.segments.some((s) => blockNameMatches(s, text))) continue;
    out.push(i);
  }
  return out;
}

/** Sorts `order` in place by a column (ties keep input order). */
export function sortRequests(order: number[], view: AnalysisView, rows: RequestRowsAnswer | null, sort: GridSort<ColumnId>): number[] {
  const column = COLUMNS.find((c) => c.id === sort.column)!;
  return sortByKey(order, (i) => column.key({ view, rows }, i), sort);
}

/**
 * Column widths fitted to the values (so no number clips), as CSS variables: `--rt-cols` for every column and
 * `--rt-cols-compact` for the side list's four (#, tokens, cost, miss; styles.css hides the others there).
 */
export function requestColumnWidths(view: AnalysisView, rows: RequestRowsAnswer | null): { all: string; compact: string } {
  const n = view.requests.length;
  const width = (title: string, text: (i: number) => string): string => fitWidth(longest(n, text, title));
  const index = width('#', (i) => String(i + 1));
  const tokens = width('Tokens', (i) => formatTokens(view.requests[i]!.total, view.requests[i]!.exact));
  const cost = rows ? width('Cost', (i) => (rows.cost[i] === null || rows.cost[i] === undefined ? 'unpriced' : formatUsd(rows.cost[i]!))) : fitWidth(8);
  const recorded = rows ? width('Recorded read', (i) => formatCount(rows.recordedRead[i] ?? 0)) : fitWidth(13);
  const simulated = rows ? width('Simulated read', (i) => formatTokens(rows.simulatedRead[i] ?? 0, view.requests[i]!.exact)) : fitWidth(14);
  const conversation = rows ? width('Conv.', (i) => String((rows.conversation[i] ?? 0) + 1)) : fitWidth(5);
  const findings = width('Findings', () => '');
  return {
    all: `${index} minmax(9em, 1.6fr) ${conversation} ${tokens} ${recorded} ${simulated} ${cost} minmax(9em, 1fr) ${findings}`,
    compact: `${index} ${tokens} ${cost} minmax(6em, 1fr)`,
  };
}

/**
 * The export's columns over request numbers: 1-based numbers as on screen, raw counts and USD, finding codes joined by
 * spaces; the cache columns are empty (null) until the worker's rows arrive.
 */
export function requestExportColumns(view: AnalysisView, rows: RequestRowsAnswer | null): ExportColumn<number>[] {
  const request = (i: number) => view.requests[i]!;
  return [
    { id: 'request', title: 'Request', value: (i) => i + 1 },
    { id: 'model', title: 'Model', value: (i) => request(i).model },
    { id: 'conversation', title: 'Conversation', value: (i) => (rows ? (rows.conversation[i] ?? 0) + 1 : null) },
    { id: 'tokens', title: 'Tokens', value: (i) => request(i).total },
    { id: 'exact', title: 'Exact', value: (i) => request(i).exact },
    { id: 'recordedRead', title: 'Recorded cache read', value: (i) => rows?.recordedRead[i] ?? null },
    { id: 'simulatedRead', title: 'Simulated cache read', value: (i) => rows?.simulatedRead[i] ?? null },
    { id: 'cost', title: 'Cost (USD)', value: (i) => rows?.cost[i] ?? null },
    { id: 'miss', title: 'Miss', value: (i) => rows?.missCause[i] ?? null },
    { id: 'missBlock', title: 'Miss block', value: (i) => rows?.missBlock[i] ?? null },
    { id: 'findings', title: 'Findings', value: (i) => (rows ? (rows.findings[i] ?? []).map((f) => rows.findingCodes[f] ?? '').join(' ') : null) },
  ];
}
