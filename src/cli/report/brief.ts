// The default terminal answer of `ctxray analyze`, one screen whatever the input's size: what was read and as
// what, the cost (recorded or simulated, said so), hit rate, what misses cost and why, the top findings with their
// fix, the costliest requests or sessions, and the flags that show more. `-v` gives every request's rows.
import type { Analysis } from '../../core/analysis/types.ts';
import { basisText, SAVINGS_STORY } from '../../core/cache/headline.ts';
import { SEVERITY_RANK, type Finding } from '../../core/cache/index.ts';
import { readAsText } from '../../core/formats/labels.ts';
import { allUsageOnly, CATEGORIES, recordedPromptTokens, type ParsedRequest } from '../../core/model.ts';
import { inWindow, periodTable, wallText, type PeriodRow, type PeriodTable } from '../../core/period/index.ts';
import { formatCount, formatFraction, formatPercent, formatTokens, formatUsd } from '../../core/text/format.ts';
import { formatWarningLines, styleOf, type Style } from './terminal.ts';

export interface BriefOptions {
  color: boolean;
  /** The window and grouping asked for (--since, --until, --tz, --by); `zone` always set (the local one by default). */
  period: { since: number | null; until: number | null; zone: string };
  /** Findings shown (the rest are counted); requests or sessions listed. */
  topFindings?: number;
  topRows?: number;
}

/** The prompt tokens the requests' recorded usage counts. */
function recordedPrompt(requests: readonly ParsedRequest[]): number {
  let total = 0;
  for (const { recorded } of requests) if (recorded !== null) total += recordedPromptTokens(recorded);
  return total;
}

const plural = (count: number, noun: string) => `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;

function headerLines(analysis: Analysis, table: PeriodTable, style: Style): string[] {
  const files = analysis.files;
  const what = files.length === 1 ? (files[0]!.folderPath ?? files[0]!.name) : plural(files.length, 'file');
  const times = analysis.requests.flatMap((request) => (request.timestamp === null ? [] : [request.timestamp]));
  const span = times.length > 0 ? `, ${wallText(Math.min(...times), table.zone)} → ${wallText(Math.max(...times), table.zone)} (${table.zone})` : '';
  const lines = [style.bold(`ctxray analyze: ${what} — ${readAsText(files)}, ${plural(analysis.requests.length, 'request')}${span}`)];
  const models = analysis.modelUse.map((use) => `${use.id ?? '(no model named)'} ×${formatCount(use.requests)}${use.known ? '' : ' (not priced)'}`);
  const estimated = analysis.totals.exactRequests < analysis.totals.requests;
  lines.push(`  models: ${models.join(', ')}; prices as of ${analysis.pricedOn}${estimated ? '; ≈ marks estimates' : ''}`);
  const total = analysis.totals.tokens;
  const shares = CATEGORIES.flatMap((category) => {
    const value = analysis.totals.byCategory[category] ?? 0;
    return value > 0 ? [{ category, value }] : [];
  })
    .sort((a, b) => b.value - a.value)
    .slice(0, 4)
    .map(({ category, value }) => `${category} ${formatPercent(value, total)}`);
  if (allUsageOnly(analysis.requests)) lines.push(`  tokens sent: ${formatCount(recordedPrompt(analysis.requests))} recorded (the files hold no request body: nothing to break down)`);
  else lines.push(`  tokens sent: ${formatTokens(total, !estimated)} (${shares.join(', ')})`);
  if (table.since !== null || table.until !== null) {
    const from = table.since === null ? 'the start' : wallText(table.since, table.zone);
    const to = table.until === null ? 'the end' : wallText(table.until, table.zone);
    const untimed = table.untimed > 0 ? `; ${plural(table.untimed, 'request')} without a time left out` : '';
    lines.push(style.bold(`  window ${from} → ${to} (${table.zone}): ${formatCount(table.totals.requests)} of ${plural(analysis.requests.length, 'request')}${untimed}`));
  }
  if (analysis.errors.length > 0) lines.push(style.warn(`  ${plural(analysis.errors.length, 'unreadable record')} skipped (-v lists them)`));
  analysis.files.forEach((_, f) => lines.push(...formatWarningLines(analysis, f, style)));
  return lines;
}

function missCauses(analysis: Analysis, requests: readonly number[]): string {
  const causes = new Map<string, { count: number; cost: number }>();
  for (const r of requests) {
    const miss = analysis.cache?.misses.requests[r];
    if (!miss) continue;
    const entry = causes.get(miss.cause) ?? { count: 0, cost: 0 };
    entry.count++;
    entry.cost += miss.cost ?? 0;
    causes.set(miss.cause, entry);
  }
  return [...causes.entries()]
    .sort((a, b) => b[1].cost - a[1].cost)
    .slice(0, 3)
    .map(([cause, entry]) => `${cause} ${formatUsd(entry.cost)} (${formatCount(entry.count)})`)
    .join(', ');
}

function costLines(analysis: Analysis, table: PeriodTable, requests: readonly number[], style: Style): string[] {
  const t = table.totals;
  if (analysis.cache === undefined) return ['', '  no cost: nothing was priced'];
  const label = (text: string) => style.bold(text.padEnd(16));
  const batchRequests = requests.filter((r) => analysis.requests[r]?.batch === true).length;
  const fastRequests = requests.filter((r) => analysis.requests[r]?.recorded?.speed === 'fast').length;
  const basis = basisText({ recordedRequests: t.recordedRequests, simulatedRequests: t.requests - t.recordedRequests, batchRequests, fastRequests });
  const unpriced = t.unpricedRequests > 0 ? style.warn(`; ${plural(t.unpricedRequests, 'request')} on unpriced models left out`) : '';
  const savings = t.cost - t.optimized;
  const causes = missCauses(analysis, requests);
  return [
    '',
    `${label('cost')}${formatUsd(t.cost)}  ${basis}${unpriced}`,
    `${label('cache hit rate')}${formatFraction(t.hitRate)}  (${formatCount(t.cacheRead)} of ${formatCount(t.promptTokens)} prompt tokens read from cache)`,
    `${label('lost to misses')}${formatUsd(t.lostToMisses)}  on ${formatCount(t.misses)} miss${t.misses === 1 ? '' : 'es'}${causes === '' ? '' : `: ${causes}`}`,
    `${label('optimized')}${formatUsd(t.optimized)}  fixing the findings would save ${formatUsd(savings)} (${formatPercent(savings, t.cost)})`,
    style.dim(`  ${SAVINGS_STORY}`),
  ];
}

function findingLines(findings: readonly Finding[], top: number, style: Style): string[] {
  if (findings.length === 0) return ['', `${style.bold('findings')}  none: nothing to fix was found`];
  const sorted = [...findings].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
  const shown = sorted.slice(0, top);
  const lines = ['', style.bold(`findings (${formatCount(findings.length)}${findings.length > top ? `, the ${top} most severe` : ''})`)];
  const paint = { error: style.warn, warning: style.warn, info: (text: string) => text };
  for (const finding of shown) {
    lines.push(`  ${paint[finding.severity](finding.severity)} ${finding.code}: ${finding.message}`);
    lines.push(style.dim(`    fix: ${finding.fix}`));
  }
  return lines;
}

function rowCells(row: Pick<PeriodRow, 'requests' | 'cost' | 'hitRate' | 'lostToMisses'>): string[] {
  return [formatCount(row.requests), formatUsd(row.cost), formatFraction(row.hitRate), formatUsd(row.lostToMisses)];
}

/** The first `text` columns (default 1) left-aligned, the figures after them right-aligned. */
export function columns(rows: readonly string[][], options: { text?: number } = {}): string[] {
  const text = options.text ?? 1;
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) => `  ${row.map((cell, i) => (i < text ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`.trimEnd());
}

/** The costliest sessions when several files were read, else the costliest requests. */
function costliestLines(analysis: Analysis, options: { table: PeriodTable; requests: readonly number[]; top: number; style: Style }): string[] {
  const { table, requests, top, style } = options;
  if (analysis.cache === undefined) return [];
  if (analysis.files.length > 1) {
    const sessions = periodTable(analysis, { since: table.since, until: table.until, zone: table.zone, by: 'session' }).rows.slice(0, top);
    return ['', style.bold(`costliest ${plural(sessions.length, 'session')}`), ...columns([['session', 'requests', 'cost', 'hit rate', 'lost to misses'], ...sessions.map((row) => [row.key ?? '', ...rowCells(row)])])];
  }
  const billed = analysis.cache.cost.billed.requests;
  const costliest = [...requests].sort((a, b) => (billed[b]?.cost.total ?? 0) - (billed[a]?.cost.total ?? 0)).slice(0, top);
  const rows = costliest.map((r) => {
    const request = analysis.requests[r]!;
    const tokens = analysis.tokens[r];
    return [
      `request ${r + 1}`,
      formatCount(request.line),
      analysis.models[r]?.id ?? 'no model',
      formatTokens(tokens?.total ?? 0, tokens?.exact ?? false),
      formatUsd(billed[r]?.cost.total ?? 0),
      billed[r]?.basis ?? 'simulated',
      request.timestamp === null ? '' : wallText(request.timestamp, table.zone),
    ];
  });
  return ['', style.bold(`costliest ${plural(rows.length, 'request')}`), ...columns([['', 'line', 'model', 'tokens', 'cost', 'basis', 'time'], ...rows])];
}

export function renderBrief(analysis: Analysis, options: BriefOptions): string {
  const style = styleOf(options);
  const table = periodTable(analysis, { ...options.period, by: null });
  const requests = inWindow(analysis, options.period);
  const inside = new Set(requests);
  const findings = (analysis.findings ?? []).filter((finding) => finding.requests.some((r) => inside.has(r)));
  const lines = [
    ...headerLines(analysis, table, style),
    ...costLines(analysis, table, requests, style),
    ...findingLines(findings, options.topFindings ?? 3, style),
    ...costliestLines(analysis, { table, requests, top: options.topRows ?? 5, style }),
    '',
    style.dim('more: -v every request and the full cache report · --by session|project|day|week|month|model · --since/--until · --json <out> · --html <out>'),
  ];
  return `${lines.join('\n')}\n`;
}

/** `--by`: one row per group in the window, and the window's total. */
export function renderGroups(table: PeriodTable, options: { color: boolean }): string {
  const style = styleOf(options);
  const rows = table.rows.map((row) => [row.key ?? '(no time)', formatCount(row.requests), formatUsd(row.cost), formatFraction(row.hitRate), formatUsd(row.lostToMisses), formatUsd(row.optimized)]);
  const total = ['total', formatCount(table.totals.requests), formatUsd(table.totals.cost), formatFraction(table.totals.hitRate), formatUsd(table.totals.lostToMisses), formatUsd(table.totals.optimized)];
  const zone = table.by === 'day' || table.by === 'week' || table.by === 'month' ? ` (${table.zone})` : '';
  return `\n${[style.bold(`by ${table.by ?? ''}${zone}`), ...columns([[table.by ?? '', 'requests', 'cost', 'hit rate', 'lost to misses', 'optimized'], ...rows, total])].join('\n')}\n`;
}
