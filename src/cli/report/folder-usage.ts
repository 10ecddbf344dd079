// The terminal report of a folder's usage pass (src/core/folder/usage-folder.ts): what was read, each model with
// its requests and recorded cost, the folder's recorded totals, then the session, project and day tables
// (sessions.ts). Everything is recorded usage priced at the models' rates; findings, miss causes and token
// categories are the deep analysis' (`--deep`).
import { recordedPromptTokens } from '../../core/model.ts';
import type { UsageFolder } from '../../core/folder/usage-folder.ts';
import { sessionTableOf, type GroupRow, type SessionRow } from '../../core/transcripts/index.ts';
import { formatCount, formatFraction, formatUsd } from '../../core/text/format.ts';
import { duplicateLines } from './duplicates.ts';
import { fastModeNote } from './terminal.ts';
import { renderSessions } from './sessions.ts';
import { locatedError } from '../../core/analysis/unreadable.ts';
import { ownSgr } from '../terminal-safe.ts';

export interface UsageReportOptions {
  color: boolean;
  pricedOn: string;
}

const plural = (count: number, noun: string) => `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;

/** One line of recorded figures: requests, input, output, cache read and write, cost, hit rate, lost to misses. */
export function usageLine(row: Pick<GroupRow, 'requests' | 'recorded' | 'cost' | 'hitRate' | 'misses'>): string {
  const r = row.recorded;
  const lost = row.misses === null ? 'n/a' : formatUsd(row.misses.cost);
  return (
    `${plural(row.requests, 'request')}, input ${formatCount(r.input)}, output ${formatCount(r.output)}, cache read ${formatCount(r.cacheRead)}, ` +
    `cache write ${formatCount(r.cacheWrite5m + r.cacheWrite1h)}, cost ${formatUsd(row.cost)}, hit rate ${formatFraction(row.hitRate)}, lost to misses ${lost}`
  );
}

/** A session's line as it finishes (-v): its path inside the folder and its figures. */
export const sessionLine = (row: SessionRow): string => `  ${row.file}: ${usageLine(row)}`;

/** The sum of the rows (the day table sums every request once). */
export function totalOf(rows: readonly GroupRow[]): GroupRow {
  const total: GroupRow = { key: null, sessions: 0, requests: 0, recorded: { input: 0, output: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 }, cost: 0, hitRate: null, misses: null };
  for (const row of rows) {
    total.sessions += row.sessions;
    total.requests += row.requests;
    for (const key of Object.keys(total.recorded) as (keyof GroupRow['recorded'])[]) total.recorded[key] += row.recorded[key];
    total.cost += row.cost;
    if (row.misses !== null) {
      total.misses ??= { count: 0, tokens: 0, cost: 0 };
      total.misses.count += row.misses.count;
      total.misses.tokens += row.misses.tokens;
      total.misses.cost += row.misses.cost;
    }
  }
  const prompt = recordedPromptTokens(total.recorded);
  total.hitRate = prompt === 0 ? null : total.recorded.cacheRead / prompt;
  return total;
}

/** Recorded cost per model the requests named, from the sessions' per-day, per-model sums. */
function costByModel(folder: UsageFolder): Map<string | null, number> {
  const cost = new Map<string | null, number>();
  for (const part of folder.parts) for (const row of part.dayModels) cost.set(row.model, (cost.get(row.model) ?? 0) + row.cost);
  return cost;
}

export function renderUsageFolderReport(folder: UsageFolder, options: UsageReportOptions): string {
  const wrap = (open: number, close: number) => (text: string) => (options.color ? `${ownSgr(open)}${text}${ownSgr(close)}` : text);
  const bold = wrap(1, 22);
  const warn = wrap(33, 39);
  const table = sessionTableOf(folder.parts);
  const out: string[] = [
    bold(
      `ctxray analyze: ${plural(folder.files.length, 'file')}, ${plural(table.sessions.length, 'session')}, ${plural(folder.requests, 'request')}` +
        (folder.errors.length > 0 ? `, ${plural(folder.errors.length, 'unreadable record')}` : ''),
    ),
    `  recorded usage, each line read once (${plural(folder.analyses - folder.fullAnalyses, 'session')} by the usage pass, ${formatCount(folder.fullAnalyses)} analysed in full);` +
      ' findings, miss causes and token categories: --deep',
    ...duplicateLines(folder.duplicateCalls, (file) => folder.files[file]?.name ?? `file ${file + 1}`),
  ];
  const costs = costByModel(folder);
  for (const use of folder.models) {
    const count = plural(use.requests, 'request');
    if (use.id === null) out.push(warn(`  no model named (${count}): not priced; pass --model <id>`));
    else if (!use.known) out.push(warn(`  model ${use.id} (${count}): unknown model, not priced (no entry in the price table)`));
    else out.push(`  model ${use.id} (${count}, ${formatUsd(costs.get(use.id) ?? 0)}): priced as ${use.pricedAs ?? use.id}${fastModeNote(use)}, prices as of ${options.pricedOn}`);
  }
  out.push('', bold(`all sessions: ${usageLine(totalOf(table.days))}`));
  let text = out.join('\n') + '\n';
  text += renderSessions(table, bold);
  if (folder.errors.length > 0) {
    const lines = ['', warn(bold('unreadable records (skipped; the rest was read):'))];
    for (const error of folder.errors) {
      lines.push(warn(`  ${locatedError(folder.files[error.file]?.name ?? `file ${error.file + 1}`, error)}`));
    }
    text += lines.join('\n') + '\n';
  }
  return text;
}
