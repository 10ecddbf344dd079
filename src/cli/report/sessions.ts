// The terminal table of a folder's sessions (src/core/transcripts/sessions.ts): per session (the costliest first,
// subagent calls counted in their parent's row), per project and per UTC day — requests, recorded input, output,
// cache read and write, recorded cost, hit rate and what misses cost. Names are the paths inside the folder.
import type { GroupRow, SessionRow, SessionTable } from '../../core/transcripts/index.ts';
import { formatLabel } from '../../core/formats/labels.ts';
import { formatCount, formatFraction, formatUsd } from '../../core/text/format.ts';

/** Sessions listed in the terminal; every one is in the JSON record's sessions[]. */
export const TERMINAL_SESSIONS = 25;

const number = { format: formatCount };

function table(header: readonly string[], rows: readonly (readonly string[])[], textColumns: readonly number[]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    '  ' + cells.map((cell, c) => (textColumns.includes(c) ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

const FIGURES = ['requests', 'input', 'output', 'cache read', 'cache write', 'cost', 'hit rate', 'lost to misses'];

function figures(row: SessionRow | GroupRow, requests: string): string[] {
  const r = row.recorded;
  return [
    requests,
    number.format(r.input),
    number.format(r.output),
    number.format(r.cacheRead),
    number.format(r.cacheWrite5m + r.cacheWrite1h),
    formatUsd(row.cost),
    formatFraction(row.hitRate),
    row.misses === null ? 'n/a' : formatUsd(row.misses.cost),
  ];
}

export function renderSessions(sessions: SessionTable, bold: (text: string) => string): string {
  if (sessions.sessions.length === 0) return '';
  const shown = sessions.sessions.slice(0, TERMINAL_SESSIONS);
  const lines = ['', bold(`Sessions (${number.format(sessions.sessions.length)}, costliest first; recorded usage)`)];
  lines.push(
    ...table(
      ['session', 'agent', 'start (UTC)', ...FIGURES],
      shown.map((s) => [
        s.file,
        formatLabel(s.agent),
        s.start === null ? '(no time)' : s.start.slice(0, 16).replace('T', ' '),
        ...figures(s, s.subagents.files > 0 ? `${number.format(s.requests)} (${number.format(s.subagents.requests)} in ${number.format(s.subagents.files)} subagents)` : number.format(s.requests)),
      ]),
      [0, 1, 2],
    ),
  );
  if (sessions.sessions.length > shown.length) lines.push(`  … ${number.format(sessions.sessions.length - shown.length)} more sessions (all in --json sessions[])`);
  if (sessions.projects.length > 1 || (sessions.projects[0]?.key ?? '') !== '') {
    lines.push(bold('  Per project'), ...table(['project', 'sessions', ...FIGURES], sessions.projects.map((p) => [p.key || '(top level)', number.format(p.sessions), ...figures(p, number.format(p.requests))]), [0]));
  }
  lines.push(bold('  Per day (UTC)'), ...table(['day', 'sessions', ...FIGURES], sessions.days.map((d) => [d.key ?? '(no time)', number.format(d.sessions), ...figures(d, number.format(d.requests))]), [0]));
  if (sessions.sessions.every((s) => s.misses === null)) lines.push('  lost to misses: n/a (the cache analysis prices no misses for these requests)');
  return lines.join('\n') + '\n';
}
