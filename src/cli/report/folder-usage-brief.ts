// The default terminal answer for a folder read by its usage pass (src/core/folder/usage-folder.ts), one screen
// however many sessions it holds: what was read (sessions per agent, the time span), the recorded cost, hit rate
// and what misses cost by the usage rule, the costliest sessions, and the flags that show more. Findings and miss
// causes are the deep analysis' (`--deep`), said so rather than left blank.
import { recordedPromptTokens } from '../../core/model.ts';
import type { UsageFolder } from '../../core/folder/usage-folder.ts';
import { formatLabel } from '../../core/formats/labels.ts';
import { wallText } from '../../core/period/index.ts';
import { formatCount, formatFraction, formatUsd } from '../../core/text/format.ts';
import { sessionTableOf } from '../../core/transcripts/index.ts';
import { columns } from './brief.ts';
import { totalOf } from './folder-usage.ts';
import { styleOf } from './terminal.ts';

/** Sessions listed in the brief; -v lists 25 with every table, --json all of them. */
const TOP_SESSIONS = 5;

const plural = (count: number, noun: string) => `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;

export interface UsageBriefOptions {
  color: boolean;
  zone: string;
  pricedOn: string;
  /** The --since / --until window the figures cover, as said on the command line; null for all of it. */
  window: string | null;
}

function spanOf(rows: readonly { start: string | null; end: string | null }[], zone: string): string {
  let first: number | null = null;
  let last: number | null = null;
  for (const row of rows) {
    if (row.start !== null) first = Math.min(first ?? Infinity, Date.parse(row.start));
    if (row.end !== null) last = Math.max(last ?? -Infinity, Date.parse(row.end));
  }
  return first === null || last === null ? '' : `, ${wallText(first, zone)} → ${wallText(last, zone)} (${zone})`;
}

export function renderUsageFolderBrief(folder: UsageFolder, options: UsageBriefOptions): string {
  const style = styleOf(options);
  const label = (text: string) => style.bold(text.padEnd(16));
  const table = sessionTableOf(folder.parts);
  const agents = new Map<string, number>();
  for (const row of table.sessions) agents.set(formatLabel(row.agent), (agents.get(formatLabel(row.agent)) ?? 0) + 1);
  const lines = [
    style.bold(`ctxray analyze: ${plural(table.sessions.length, 'session')}, ${plural(folder.requests, 'request')}${spanOf(table.sessions, options.zone)}`),
    `  read: ${[...agents.entries()].map(([agent, n]) => `${agent} ×${formatCount(n)}`).join(', ')}; recorded usage, each line read once; prices as of ${options.pricedOn}`,
  ];
  if (options.window !== null) lines.push(`  only requests ${options.window}`);
  if (folder.errors.length > 0) lines.push(style.warn(`  ${plural(folder.errors.length, 'unreadable record')} skipped (-v lists them)`));
  const copies = folder.duplicateCalls.reduce((sum, d) => sum + d.calls, 0);
  if (copies > 0) lines.push(`  ${plural(copies, 'API call')} counted once: copies in ${plural(folder.duplicateCalls.length, 'later file')} of calls an earlier file recorded (-v lists them)`);
  const fast = folder.models.reduce((sum, model) => sum + (model.fastRequests ?? 0), 0);
  if (fast > 0) lines.push(`  ${plural(fast, 'call')} in fast mode, priced at the fast-mode rates where the price table has them (-v says by model)`);
  const total = totalOf(table.days);
  const unpriced = table.sessions.reduce((sum, row) => sum + row.unpricedRequests, 0);
  const prompt = recordedPromptTokens(total.recorded);
  const recorded = table.sessions.reduce((sum, row) => sum + row.recordedRequests, 0);
  lines.push(
    '',
    `${label('cost')}${formatUsd(total.cost)}  recorded usage of ${formatCount(recorded)} of ${plural(total.requests, 'request')}${unpriced > 0 ? style.warn(`; ${plural(unpriced, 'request')} on unpriced models left out`) : ''}`,
    `${label('cache hit rate')}${formatFraction(total.hitRate)}  (${formatCount(total.recorded.cacheRead)} of ${formatCount(prompt)} prompt tokens read from cache)`,
    `${label('lost to misses')}${total.misses === null ? 'n/a' : `${formatUsd(total.misses.cost)}  on ${formatCount(total.misses.count)} miss${total.misses.count === 1 ? '' : 'es'} (by the usage rule: a cache read below what the call before sent)`}`,
    style.dim('  findings, miss causes and what fixing them saves: --deep (every session analysed in full, on --jobs cores)'),
  );
  const costliest = table.sessions.slice(0, TOP_SESSIONS).map((row) => [row.file, formatLabel(row.agent), formatCount(row.requests), formatUsd(row.cost), formatFraction(row.hitRate), row.misses === null ? 'n/a' : formatUsd(row.misses.cost)]);
  lines.push('', style.bold(`costliest ${plural(costliest.length, 'session')}`), ...columns([['session', 'agent', 'requests', 'cost', 'hit rate', 'lost to misses'], ...costliest], { text: 2 }));
  lines.push('', style.dim('more: -v every table (sessions, projects, days, models) · --deep findings · --json <out> · ctxray analyze <session file>'));
  return `${lines.join('\n')}\n`;
}
