// The terminal part for transcripts and folders: recorded vs reconstructed prompt (with the setup inferred from
// recorded usage, the redaction estimate), cache and cost agreement, TTL check; and the time-range summary (per
// day, per model, the costliest conversations and finding codes). Counts, model ids and file names only.
import type { Analysis } from '../../core/analysis/types.ts';
import { agreementOf, sessionsOf, summaryOf, type TranscriptAgreement, type TimeRangeSummary } from '../../core/transcripts/index.ts';
import { renderSessions } from './sessions.ts';
import { ownSgr } from '../terminal-safe.ts';

export interface TranscriptTerminalOptions {
  color: boolean;
  /** Input names by file index (shown to the user; never written to machine-readable output). */
  fileNames: readonly string[];
}

const number = new Intl.NumberFormat('en-US');
const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });
const pct = (value: number | null): string => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
const share = (part: number, whole: number): string => (whole === 0 ? 'n/a' : pct(part / whole));

function painter({ color }: { color: boolean }): (text: string) => string {
  return (text) => (color ? `${ownSgr(1)}${text}${ownSgr(0)}` : text);
}

/** A right-aligned table with a left-aligned first column. */
/** Numbers align right; the first column and any listed in `textColumns` (file names, dates, codes) align left. */
function table(header: readonly string[], rows: readonly (readonly string[])[], textColumns: readonly number[] = []): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] ?? '').length)));
  const left = (c: number) => c === 0 || textColumns.includes(c);
  const line = (cells: readonly string[]) =>
    '  ' + cells.map((cell, c) => (left(c) ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

export function renderAgreement(agreement: TranscriptAgreement, options: TranscriptTerminalOptions): string {
  const bold = painter(options);
  const lines: string[] = ['', bold('Observed vs simulated (recorded usage)')];
  const n = agreement.recordedRequests;
  lines.push(`  ${number.format(n)} request${n === 1 ? '' : 's'} carry the provider's recorded usage`);
  if (agreement.setupUnrecordedRequests > 0) {
    lines.push(
      `  ${number.format(agreement.setupUnrecordedRequests)} were rebuilt from a transcript without their system prompt and/or tools: that part is`,
      '  UNKNOWN; its size is inferred from recorded usage (recorded − reconstructed on each conversation\'s first request)',
    );
  }
  const { promptErrors: e, reconstructedOnlyErrors: alone } = agreement;
  lines.push(
    `  prompt agreement on ${number.format(e.count)} later request(s): |error| median ${pct(e.median)}, p90 ${pct(e.p90)}` +
      `  (transcript alone: median ${pct(alone.median)}, p90 ${pct(alone.p90)})`,
  );
  if (agreement.redaction.placeholders > 0) {
    lines.push(
      `  ${number.format(agreement.redaction.placeholders)} redacted placeholder(s) in ${number.format(agreement.redaction.requests)} request(s): ` +
        `≈${number.format(agreement.redaction.estimatedTokens)} tokens estimated from their recorded lengths (not exact)`,
    );
  }
  const sum = (pick: (c: TranscriptAgreement['conversations'][number]) => { read: number; write5m: number; write1h: number }) =>
    agreement.conversations.reduce(
      (acc, c) => ({ read: acc.read + pick(c).read, write5m: acc.write5m + pick(c).write5m, write1h: acc.write1h + pick(c).write1h }),
      { read: 0, write5m: 0, write1h: 0 },
    );
  const split = (s: { read: number; write5m: number; write1h: number }) =>
    `read ${number.format(s.read)}, write 5m ${number.format(s.write5m)}, 1h ${number.format(s.write1h)}`;
  lines.push(
    `  cache tokens recorded: ${split(sum((c) => c.recorded))}`,
    `  cache tokens simulated (as sent, breakpoints inferred from recorded usage): ${split(sum((c) => c.simulated))}; optimized: ${split(sum((c) => c.optimized))}`,
  );
  const cache = (label: string, c: TranscriptAgreement['cacheActual']) =>
    `  cache read agreement (${label}): ${number.format(c.readAgreements)}/${number.format(c.compared)} (${pct(c.readAgreementRate)})`;
  lines.push(cache('as sent, inferred breakpoints', agreement.cacheActual), cache('optimized', agreement.cacheOptimized));
  lines.push(
    ...table(
      ['model', 'requests', 'recorded hits', 'read share', 'simulated', 'optimized'],
      agreement.models.map((m) => [
        m.model ?? '(no model)',
        number.format(m.requests),
        share(m.recordedHits, m.requests),
        pct(m.recordedReadShare),
        pct(m.simulatedReadShare),
        pct(m.optimizedReadShare),
      ]),
    ),
  );
  const { cost } = agreement;
  if (cost.priced > 0) {
    lines.push(
      `  cost of ${number.format(cost.priced)} priced request(s): recorded usage $${dollars.format(cost.recorded)}, ` +
        `simulated $${dollars.format(cost.simulated)}, optimized $${dollars.format(cost.optimized)}`,
    );
  }
  if (cost.unpriced > 0) lines.push(`  ${number.format(cost.unpriced)} recorded request(s) name a model with no price entry: not priced`);
  const { ttl } = agreement;
  if (ttl.pairs > 0) {
    lines.push(
      `  TTL from real timestamps: ${number.format(ttl.beyondTtlMissed)}/${number.format(ttl.beyondTtl)} gaps beyond the TTL missed the cache, ` +
        `${number.format(ttl.withinTtlKept)}/${number.format(ttl.withinTtl)} within it read it (agreement ${pct(ttl.agreementRate)})`,
    );
  }
  if (agreement.compactions.length > 0) lines.push(`  ${number.format(agreement.compactions.length)} compaction(s): request ${agreement.compactions.map((r) => r + 1).join(', ')}`);
  return lines.join('\n') + '\n';
}

const time = (iso: string | null) => (iso === null ? '—' : iso.slice(0, 16).replace('T', ' '));

/**
 * A cost cell: "unpriced" when no request of the row has a price (a $0.0000 would read as free), otherwise the
 * priced sum with the count of requests it leaves out.
 */
export function costText(t: Pick<TimeRangeSummary['totals'], 'cost' | 'requests' | 'unpricedRequests'>): string {
  if (t.requests > 0 && t.unpricedRequests >= t.requests) return 'unpriced';
  return `$${dollars.format(t.cost)}${t.unpricedRequests > 0 ? ` (+${number.format(t.unpricedRequests)} unpriced)` : ''}`;
}

export function renderSummary(summary: TimeRangeSummary, options: TranscriptTerminalOptions): string {
  const bold = painter(options);
  const lines: string[] = ['', bold(`Summary ${time(summary.start)} → ${time(summary.end)} UTC`)];
  const totalsRow = (label: string, t: TimeRangeSummary['totals']) => [
    label,
    number.format(t.requests),
    number.format(t.recordedRequests),
    number.format(t.promptTokens),
    number.format(t.cacheRead),
    number.format(t.cacheWrite),
    number.format(t.output),
    costText(t),
  ];
  const header = ['requests', 'recorded', 'prompt', 'cache read', 'cache write', 'output', 'cost'];
  lines.push(bold('  Per day (UTC)'), ...table(['day', ...header], [...summary.days.map((d) => totalsRow(d.day ?? '(no time)', d)), totalsRow('total', summary.totals)]));
  lines.push(bold('  Per model'), ...table(['model', ...header], summary.models.map((m) => totalsRow(m.model ?? '(no model)', m))));
  if (summary.topConversations.length > 0) {
    lines.push(
      bold('  Costliest conversations'),
      ...table(
        ['#', 'file', 'start', 'requests', 'prompt', 'cost'],
        summary.topConversations.map((c) => [
          String(c.conversation + 1),
          options.fileNames[c.file] ?? `file ${c.file + 1}`,
          time(c.start),
          number.format(c.requests),
          number.format(c.promptTokens),
          costText(c),
        ]),
        [1, 2],
      ),
    );
  }
  if (summary.topFindings.length > 0) {
    lines.push(
      bold('  Costliest findings (cost of the requests they fired on)'),
      ...table(
        ['finding', 'severity', 'times', 'requests', 'cost'],
        summary.topFindings.map((f) => [f.code, f.severity, number.format(f.findings), number.format(f.requests), `$${dollars.format(f.cost)}`]),
        [1],
      ),
    );
  }
  lines.push('  Requests with recorded usage count as billed; the rest as simulated.');
  return lines.join('\n') + '\n';
}

/**
 * The transcript parts of `ctxray analyze`: observed vs simulated when some request has recorded usage, and the
 * time-range summary when several files (or a folder) were read.
 */
/** Said plainly where requests come from a provider whose cache rules and prices ctxray does not model. */
function renderUnmodelled(analysis: Analysis): string {
  const count = analysis.requests.filter((request) => request.notes.some((n) => n.code === 'provider_not_modelled')).length;
  if (count === 0) return '';
  return (
    `\n${number.format(count)} request${count === 1 ? ' is a Gemini (Google) call' : 's are Gemini (Google) calls'}: Google's cache rules are NOT modelled.\n` +
    "  The recorded usage below is what Google reported, priced at the Gemini model's prices (thinking as output) when the\n" +
    "  table has it; token counts are OpenAI-tokenizer estimates and the simulated cache follows OpenAI's prefix matching.\n"
  );
}

export function renderTranscriptReport(analysis: Analysis, options: TranscriptTerminalOptions & { summary: boolean }): string {
  let text = '';
  const agreement = agreementOf(analysis);
  text += renderUnmodelled(analysis);
  if (agreement !== null && agreement.recordedRequests > 0) text += renderAgreement(agreement, options);
  const summary = options.summary ? summaryOf(analysis) : null;
  if (summary !== null) text += renderSummary(summary, options);
  if (options.summary) text += renderSessions(sessionsOf(analysis), painter(options));
  return text;
}
