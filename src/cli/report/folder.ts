// The terminal report of a folder read one session at a time (src/core/folder): what was read, the models and
// their prices, token totals, cost, misses by cause and findings by code over every session, then the time-range
// summary and the session, project and day tables. No per-request lines: a session's own are
// `ctxray analyze <its file>`.
import { duplicateLines } from './duplicates.ts';
import type { FolderAnalysis } from '../../core/folder/index.ts';
import { folderSummary } from '../../core/folder/index.ts';
import { sessionTableOf } from '../../core/transcripts/index.ts';
import { categoryList, fastModeNote, styleOf, totalsLine, type Style } from './terminal.ts';
import { renderSummary } from './transcripts.ts';
import { renderSessions } from './sessions.ts';
import { locatedError } from '../../core/analysis/unreadable.ts';

export interface FolderTerminalOptions {
  color: boolean;
}

const number = new Intl.NumberFormat('en-US');
const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });
const plural = (count: number, noun: string) => `${number.format(count)} ${noun}${count === 1 ? '' : 's'}`;

export function renderFolderReport(folder: FolderAnalysis, options: FolderTerminalOptions): string {
  const style = styleOf(options);
  const { bold, warn } = style;
  const table = sessionTableOf(folder.parts);
  const out: string[] = [
    bold(
      `ctxray analyze: ${plural(folder.files.length, 'file')}, ${plural(table.sessions.length, 'session')}, ${plural(folder.requests, 'request')}` +
        (folder.errors.length > 0 ? `, ${plural(folder.errors.length, 'unreadable record')}` : ''),
    ),
    '  each session read and analysed on its own (with its subagents); per-request detail: ctxray analyze <session file>',
    ...duplicateLines(folder.duplicateCalls, (file) => folder.fileNames[file] ?? `file ${file + 1}`),
    ...modelLines(folder, style),
  ];
  const exact = folder.totals.requests > 0 && folder.totals.exactRequests === folder.totals.requests;
  out.push('', bold(`all files: ${totalsLine(folder.totals)}`), `  by category: ${categoryList(folder.totals.byCategory, { overhead: folder.totals.overhead, exact })}`);
  if (folder.cost !== null) out.push(...costLines(folder, folder.cost, style));
  let text = out.join('\n') + '\n';
  const summary = folderSummary(folder);
  if (summary !== null) text += renderSummary(summary, { color: options.color, fileNames: folder.fileNames });
  text += renderSessions(table, bold);
  if (folder.errors.length > 0) {
    const lines = ['', warn(bold('unreadable records (skipped; the rest was analyzed):'))];
    for (const error of folder.errors) {
      lines.push(warn(`  ${locatedError(folder.fileNames[error.file] ?? `file ${error.file + 1}`, error)}`));
    }
    text += lines.join('\n') + '\n';
  }
  return text;
}

/** Each model the folder names and how it is priced (or why it is not). */
function modelLines(folder: FolderAnalysis, { warn }: Style): string[] {
  return folder.models.map((use) => {
    const count = plural(use.requests, 'request');
    if (use.id === null) return warn(`  no model named (${count}): not priced; pass --model <id>`);
    if (!use.known) return warn(`  model ${use.id} (${count}): unknown model, not priced (no entry in the price table)`);
    const via = use.via === undefined || use.via === null || use.via === 'api' ? '' : `, ${use.via} id`;
    const dated = use.priceSource === 'prices-file' ? `rates from --prices, dated ${use.pricedOn}` : `prices as of ${use.pricedOn ?? folder.pricedOn}`;
    return `  model ${use.id} (${count}): priced as ${use.pricedAs ?? use.id}${via}${fastModeNote(use)}, ${dated}`;
  });
}

/** The cost summed over the sessions, then misses by cause and findings by code. */
function costLines(folder: FolderAnalysis, cost: NonNullable<FolderAnalysis['cost']>, { bold, warn }: Style): string[] {
  const out = ['', bold('Cost (sum over the sessions)')];
  out.push(`  actual cost:          $${dollars.format(cost.actual)}  (${number.format(cost.basis.recordedRequests)} request(s) recorded, ${number.format(cost.basis.simulatedRequests)} simulated)`);
  if (cost.unpricedRequests > 0) out.push(warn(`  ${plural(cost.unpricedRequests, 'request')} on an unpriced model, in no dollar figure`));
  out.push(`  optimized cost:       $${dollars.format(cost.optimized)}`);
  out.push(`  potential savings:    $${dollars.format(cost.potentialSavings)} (${(cost.savingsFraction * 100).toFixed(1)}%)`);
  if (folder.misses.length > 0) {
    out.push('', bold('Cache misses by cause (over hits; docs/cache.md, Misses)'));
    for (const miss of folder.misses) out.push(`  ${miss.cause.padEnd(18)} ${`${number.format(miss.count)} ${miss.count === 1 ? 'miss' : 'misses'}`.padStart(14)}  ${number.format(miss.tokens).padStart(12)} tokens  $${dollars.format(miss.cost)}`);
  }
  if (folder.findings.length > 0) {
    out.push('', bold('Findings by code (summed over the sessions)'));
    for (const f of folder.findings) out.push(`  ${f.code} (${f.severity}): ${plural(f.findings, 'finding')} on ${plural(f.requests, 'request')}`);
  }
  return out;
}
