// The default terminal answer for a folder of sessions, one screen however many sessions it holds: what was read
// (sessions per agent), the cost (recorded or simulated, said so), hit rate, what misses cost and why, the findings
// by code with a fix, the costliest sessions, and the flags that show more (`-v` for every table).
import { SAVINGS_STORY } from '../../core/cache/headline.ts';
import { SEVERITY_RANK } from '../../core/cache/index.ts';
import type { FolderAnalysis } from '../../core/folder/index.ts';
import { folderSummary } from '../../core/folder/index.ts';
import { formatLabel } from '../../core/formats/labels.ts';
import { wallText } from '../../core/period/index.ts';
import { formatCount, formatFraction, formatPercent, formatUsd } from '../../core/text/format.ts';
import { sessionTableOf } from '../../core/transcripts/index.ts';
import { columns } from './brief.ts';
import { styleOf } from './terminal.ts';

const plural = (count: number, noun: string) => `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;

type Style = ReturnType<typeof styleOf>;

export function renderFolderBrief(folder: FolderAnalysis, options: { color: boolean; zone: string }): string {
  const style = styleOf(options);
  const table = sessionTableOf(folder.parts);
  const summary = folderSummary(folder);
  const lines = [
    ...readLines(folder, { style, zone: options.zone, sessions: table.sessions, summary }),
    ...(folder.cost === null ? [] : costLines(folder, { cost: folder.cost, totals: summary?.totals, style })),
    ...findingLines(folder, style),
  ];
  const costliest = table.sessions.slice(0, 5).map((row) => [row.file, formatLabel(row.agent), formatCount(row.requests), formatUsd(row.cost), formatFraction(row.hitRate), formatUsd(row.misses?.cost ?? 0)]);
  lines.push('', style.bold(`costliest ${plural(costliest.length, 'session')}`), ...columns([['session', 'agent', 'requests', 'cost', 'hit rate', 'lost to misses'], ...costliest], { text: 2 }));
  lines.push('', style.dim('more: -v every table (sessions, projects, days, models) · --by session|project|day|model · --json <out> · ctxray analyze <session file>'));
  return `${lines.join('\n')}\n`;
}

/** What was read: sessions and requests over which span, by agent, and what was skipped or counted once. */
function readLines(folder: FolderAnalysis, at: { style: Style; zone: string; sessions: ReturnType<typeof sessionTableOf>['sessions']; summary: ReturnType<typeof folderSummary> }): string[] {
  const { style, zone, sessions, summary } = at;
  const agents = new Map<string, number>();
  for (const row of sessions) agents.set(formatLabel(row.agent), (agents.get(formatLabel(row.agent)) ?? 0) + 1);
  const start = summary?.start ?? null;
  const end = summary?.end ?? null;
  const span = start !== null && end !== null ? `, ${wallText(Date.parse(start), zone)} → ${wallText(Date.parse(end), zone)} (${zone})` : '';
  const lines = [
    style.bold(`ctxray analyze: ${plural(sessions.length, 'session')}, ${plural(folder.requests, 'request')}${span}`),
    `  read: ${[...agents.entries()].map(([agent, n]) => `${agent} ×${formatCount(n)}`).join(', ')}; prices as of ${folder.pricedOn}`,
  ];
  if (folder.errors.length > 0) lines.push(style.warn(`  ${plural(folder.errors.length, 'unreadable record')} skipped (-v lists them)`));
  const copies = folder.duplicateCalls.reduce((sum, d) => sum + d.calls, 0);
  if (copies > 0) lines.push(`  ${plural(copies, 'API call')} counted once: copies in ${plural(folder.duplicateCalls.length, 'later file')} of calls an earlier file recorded (-v lists them)`);
  return lines;
}

/** Cost (and on what basis), hit rate, what misses lost and by which causes, the optimized cost. */
function costLines(folder: FolderAnalysis, at: { cost: NonNullable<FolderAnalysis['cost']>; totals: NonNullable<ReturnType<typeof folderSummary>>['totals'] | undefined; style: Style }): string[] {
  const { cost, totals, style } = at;
  const label = (text: string) => style.bold(text.padEnd(16));
  const { recordedRequests: recorded, simulatedRequests: simulated } = cost.basis;
  const basis = simulated === 0 ? `recorded usage of all ${formatCount(recorded)} requests` : recorded === 0 ? 'simulated: the logs record no usage' : `recorded for ${formatCount(recorded)} requests, simulated for ${formatCount(simulated)}`;
  const hit = totals !== undefined && totals.promptTokens > 0 ? totals.cacheRead / totals.promptTokens : null;
  const lost = folder.misses.reduce((sum, miss) => sum + miss.cost, 0);
  const count = folder.misses.reduce((sum, miss) => sum + miss.count, 0);
  const causes = folder.misses.slice(0, 3).map((miss) => `${miss.cause} ${formatUsd(miss.cost)} (${formatCount(miss.count)})`);
  return [
    '',
    `${label('cost')}${formatUsd(cost.actual)}  ${basis}${cost.unpricedRequests > 0 ? style.warn(`; ${plural(cost.unpricedRequests, 'request')} on unpriced models left out`) : ''}`,
    `${label('cache hit rate')}${formatFraction(hit)}${totals === undefined ? '' : `  (${formatCount(totals.cacheRead)} of ${formatCount(totals.promptTokens)} prompt tokens read from cache)`}`,
    `${label('lost to misses')}${formatUsd(lost)}  on ${formatCount(count)} miss${count === 1 ? '' : 'es'}${causes.length > 0 ? `: ${causes.join(', ')}` : ''}`,
    `${label('optimized')}${formatUsd(cost.optimized)}  fixing the findings would save ${formatUsd(cost.potentialSavings)} (${formatPercent(cost.potentialSavings, cost.actual)})`,
    style.dim(`  ${SAVINGS_STORY}`),
  ];
}

/** The findings by code, the three most severe with their fix. */
function findingLines(folder: FolderAnalysis, style: Style): string[] {
  const findings = [...folder.findings].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.requests - a.requests);
  const lines = ['', style.bold(`findings (${formatCount(findings.reduce((sum, f) => sum + f.findings, 0))} over the sessions${findings.length > 3 ? `; ${findings.length} codes, the 3 most severe` : ''})`)];
  if (findings.length === 0) lines.push('  none: nothing to fix was found');
  for (const finding of findings.slice(0, 3)) {
    lines.push(`  ${finding.severity} ${finding.code}: ${plural(finding.findings, 'finding')} on ${plural(finding.requests, 'request')}`);
    lines.push(style.dim(`    fix: ${finding.fix}`));
  }
  return lines;
}
