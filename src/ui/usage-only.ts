// A request whose file records usage but no body (a Cline ui_messages.json alone, a usage export: the `usage_only`
// note): the Tokens panel shows the figures the file recorded — requests, cost, cache hit rate, lost to misses —
// and says there is no body to break down, instead of a treemap and a block table of blocks that were never read.
// The CLI hides the breakdown of such a file the same way (src/cli/report/terminal.ts, usageOnlyLine).
import './usage-only.css';
import { formatCount, formatFraction, formatUsd } from '../render/format.ts';
import type { RequestRowsAnswer } from '../worker/handlers/request-rows.ts';
import type { AnalysisView, RequestView } from '../worker/view-model.ts';
import { el } from './dom.ts';
import { askOrShowError } from './panels/ask.ts';
import type { PanelContext } from './panels/types.ts';

type Rows = Pick<RequestRowsAnswer, 'recordedRead' | 'cost' | 'missCause' | 'missCost'>;

/** The file recorded this call's usage but not its body. */
export function isUsageOnlyRequest(request: Pick<RequestView, 'notes'>): boolean {
  return request.notes.includes('usage_only');
}

export interface UsageOnlyFigures {
  requests: number;
  /** Requests whose usage the file recorded. */
  recorded: number;
  /** Recorded prompt tokens (input + cache reads + cache writes) and cache reads, over the recorded requests. */
  prompt: number;
  read: number;
  /** Cache reads over prompt tokens; null without a recorded prompt. */
  hitRate: number | null;
  /** USD of the priced requests; `unpriced` counts the rest. */
  cost: number;
  unpriced: number;
  misses: number;
  /** What the misses cost over a read, USD. */
  lost: number;
  /** Misses by cause, costliest first. */
  causes: { cause: string; count: number; cost: number }[];
}

/** The recorded figures of the usage-only requests of file `file` (the CLI's per-file "usage only" line). */
export function usageOnlyFigures(view: Pick<AnalysisView, 'requests'>, rows: Rows, file: number): UsageOnlyFigures {
  const figures: UsageOnlyFigures = { requests: 0, recorded: 0, prompt: 0, read: 0, hitRate: null, cost: 0, unpriced: 0, misses: 0, lost: 0, causes: [] };
  const causes = new Map<string, { cause: string; count: number; cost: number }>();
  for (const request of view.requests) {
    if (request.file !== file || !isUsageOnlyRequest(request)) continue;
    const r = request.index;
    figures.requests++;
    const read = rows.recordedRead[r] ?? null;
    if (read !== null && request.recordedPrompt !== null) {
      figures.recorded++;
      figures.prompt += request.recordedPrompt;
      figures.read += read;
    }
    const cost = rows.cost[r] ?? null;
    if (cost === null) figures.unpriced++;
    else figures.cost += cost;
    const cause = rows.missCause[r] ?? null;
    if (cause === null) continue;
    const missCost = rows.missCost[r] ?? 0;
    figures.misses++;
    figures.lost += missCost;
    const entry = causes.get(cause) ?? { cause, count: 0, cost: 0 };
    entry.count++;
    entry.cost += missCost;
    causes.set(cause, entry);
  }
  figures.hitRate = figures.prompt > 0 ? figures.read / figures.prompt : null;
  figures.causes = [...causes.values()].sort((a, b) => b.cost - a.cost || b.count - a.count);
  return figures;
}

const plural = (n: number, noun: string, many = `${noun}s`) => `${formatCount(n)} ${n === 1 ? noun : many}`;

function costText(f: UsageOnlyFigures): string {
  if (f.requests > 0 && f.unpriced >= f.requests) return 'not priced';
  return `${formatUsd(f.cost)}${f.unpriced > 0 ? ` (+${plural(f.unpriced, 'request')} not priced)` : ''}`;
}

/** The figures as label / value / detail rows. */
export function figureRows(f: UsageOnlyFigures): [string, string, string][] {
  const causes = f.causes.map((c) => `${c.cause} ${formatUsd(c.cost)} (${formatCount(c.count)})`).join(', ');
  return [
    ['Requests', formatCount(f.requests), f.recorded === f.requests ? 'every one with its recorded usage' : `${formatCount(f.recorded)} with recorded usage`],
    ['Cost', costText(f), f.recorded === f.requests ? 'from the recorded usage' : 'from the recorded usage where there is one'],
    ['Cache hit rate', formatFraction(f.hitRate), `${formatCount(f.read)} of ${formatCount(f.prompt)} recorded prompt tokens read from cache`],
    ['Lost to misses', formatUsd(f.lost), `on ${plural(f.misses, 'miss', 'misses')}${causes === '' ? '' : `: ${causes}`}`],
  ];
}

function figureList(id: string, label: string, rows: readonly [string, string, string][]): HTMLElement {
  return el(
    'dl',
    { className: 'usage-only-figures', attrs: { id, 'aria-label': label } },
    rows.flatMap(([name, value, detail]) => [
      el('dt', { text: name }),
      el('dd', {}, [el('strong', { className: 'num', text: value }), detail === '' ? null : el('span', { className: 'muted', text: ` ${detail}` })]),
    ]),
  );
}

function requestRows(request: RequestView, rows: Rows): [string, string, string][] {
  const r = request.index;
  const read = rows.recordedRead[r] ?? null;
  const cost = rows.cost[r] ?? null;
  const cause = rows.missCause[r] ?? null;
  return [
    ['Recorded prompt', request.recordedPrompt === null ? 'not recorded' : `${formatCount(request.recordedPrompt)} tokens`, read === null ? '' : `${formatCount(read)} read from cache`],
    ['Cost', cost === null ? 'not priced' : formatUsd(cost), ''],
    ['Cache', cause === null ? 'read what it could' : `missed: ${cause}`, cause === null ? '' : `lost ${formatUsd(rows.missCost[r] ?? 0)}`],
  ];
}

/** The Tokens panel of a usage-only request: the statement, its file's recorded figures and the request's own. */
export async function renderUsageOnly(container: HTMLElement, ctx: PanelContext): Promise<void> {
  const { request, view } = ctx;
  const fileName = view.files[request.file]?.name ?? `file ${request.file + 1}`;
  const statement = el('p', { className: 'usage-only-statement', attrs: { id: 'usage-only-statement' } }, [
    el('strong', { text: `${fileName} records each call's usage but not its body: there is no body to break down.` }),
    ' No treemap or block table is drawn, since its blocks were never read; the figures below are the ones the file recorded.',
  ]);
  const title = el('h2', { className: 'usage-only-title', text: 'Usage only: no request bodies', attrs: { id: 'usage-only-title' } });
  const section = el('section', { className: 'usage-only', attrs: { id: 'usage-only', 'aria-labelledby': 'usage-only-title' } }, [
    title,
    statement,
    el('p', { className: 'muted', text: 'Loading the recorded figures…' }),
  ]);
  container.replaceChildren(section);
  const rows = await askOrShowError(section, ctx, 'request-rows');
  if (rows === null) return;
  section.replaceChildren(
    title,
    statement,
    el('h3', { text: `Recorded in ${fileName}` }),
    figureList('usage-only-figures', `Recorded figures of ${fileName}`, figureRows(usageOnlyFigures(view, rows, request.file))),
    el('h3', { text: `Request #${request.index + 1}` }),
    figureList('usage-only-request', `Recorded figures of request ${request.index + 1}`, requestRows(request, rows)),
    el('p', {
      className: 'muted',
      text: 'To see what was sent, open the file that holds the bodies with it: for a Cline, Roo or Kilo task, drop the task folder (its api_conversation_history.json beside ui_messages.json); for a LiteLLM proxy, a spend log written with store_prompts_in_spend_logs; for a batch, its input file with the results.',
    }),
  );
}
