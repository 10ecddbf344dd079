// The Timeline panel: prompt tokens and cache reads per request over time, as an inline SVG (no chart library),
// three series by default (the legend's checkboxes add the others), idle gaps over 15 minutes drawn narrow and
// marked, compactions marked (recorded by the log, or a shrink below 90% of the request it continues:
// cache/predecessors.ts) and, where the log recorded usage, the provider's figures beside the reconstruction and
// the simulation. Clicking the chart selects the nearest request. Under it: the observed-vs-simulated figures
// (docs/transcripts.md).
import './timeline.css';
import type { Timeline, TimelinePoint } from '../../core/transcripts/index.ts';
import { isoTime } from '../../core/transcripts/time.ts';
import type { TranscriptsAnswer } from '../../worker/handlers/transcripts.ts';
import { el } from '../dom.ts';
import { numCell, scrollingTable } from '../data-table.ts';
import { formatCount, formatUsd } from '../../render/format.ts';
import { askWithRequests } from './ask.ts';
import { svg } from '../charts/svg.ts';
import { compressedTimeAxis, durationText, type IdleGap } from '../../render/chart-scale.ts';
import type { Panel, PanelContext } from './types.ts';

/** The chart's drawing size: the panel's width (so labels keep their size on a phone), at most 960 × 280. */
interface Frame {
  width: number;
  height: number;
  plotW: number;
  plotH: number;
}
const MARGIN = { left: 64, right: 16, top: 12, bottom: 30 };

function frameOf(available: number): Frame {
  const width = Math.round(Math.min(960, Math.max(320, available > 0 ? available : 960)));
  const height = Math.round(Math.max(200, (280 * width) / 960));
  return { width, height, plotW: width - MARGIN.left - MARGIN.right, plotH: height - MARGIN.top - MARGIN.bottom };
}
/** Rows in the per-request table under the chart. */
const MAX_TABLE_ROWS = 100;

interface Series {
  key: string;
  label: string;
  value: (point: TimelinePoint) => number | null;
}

const SERIES: readonly Series[] = [
  { key: 'recorded', label: 'Recorded prompt (provider)', value: (p) => p.recordedPrompt },
  { key: 'predicted', label: 'Reconstructed + inferred setup', value: (p) => p.predicted },
  { key: 'reconstructed', label: 'Reconstructed prompt', value: (p) => p.reconstructed },
  { key: 'recorded-read', label: 'Recorded cache read', value: (p) => p.recordedRead },
  { key: 'simulated-read', label: 'Simulated cache read (as sent)', value: (p) => p.simulatedRead },
  { key: 'optimized-read', label: 'Simulated cache read (tail breakpoints)', value: (p) => p.optimizedRead },
];

/** A pause between requests longer than this is drawn narrow (beyond the 5-minute cache TTL, well past a turn). */
const IDLE_MS = 15 * 60_000;
/** The share of the plot each idle gap takes, whatever its length. */
const GAP_SHARE = 0.04;

interface XScale {
  x: (point: TimelinePoint) => number;
  gaps: IdleGap[];
}

/** x of every point: its time when every request has one (idle gaps compressed), else its order. */
function xScale(timeline: Timeline, f: Frame): XScale {
  const points = timeline.points;
  if (timeline.timed) {
    const axis = compressedTimeAxis(
      points.map((p) => p.timestamp ?? 0),
      { idleMs: IDLE_MS, gapShare: GAP_SHARE },
    );
    return { x: (p) => MARGIN.left + axis.at(p.timestamp ?? 0) * f.plotW, gaps: axis.gaps };
  }
  const span = Math.max(1, points.length - 1);
  return { x: (p) => MARGIN.left + (points.length === 1 ? f.plotW / 2 : (p.request / span) * f.plotW), gaps: [] };
}

/** Each idle gap: a narrow band across the plot with a break on the axis, named with its length. */
function gapMarks(gaps: readonly IdleGap[], f: Frame): SVGElement[] {
  const base = MARGIN.top + f.plotH;
  return gaps.map((gap) => {
    const cx = MARGIN.left + gap.x * f.plotW;
    const w = Math.max(4, GAP_SHARE * f.plotW * 0.6);
    const text = `idle ${durationText(gap.to - gap.from)}`;
    return svg('g', { class: 'tl-gap' }, [
      svg('title', {}, [`${text}: ${timeLabel(gap.from)} to ${timeLabel(gap.to)} UTC, drawn narrow`]),
      svg('rect', { x: (cx - w / 2).toFixed(1), y: MARGIN.top, width: w.toFixed(1), height: f.plotH, class: 'tl-gap-band' }),
      svg('path', { d: `M${(cx - 4).toFixed(1)},${base + 5} l3,-10 M${(cx + 1).toFixed(1)},${base + 5} l3,-10`, class: 'tl-gap-break' }),
      ...(gaps.length <= 12 ? [svg('text', { x: cx.toFixed(1), y: MARGIN.top + 10, class: 'tl-label tl-gap-label', 'text-anchor': 'middle' }, [text])] : []),
    ]);
  });
}

/**
 * One polyline per conversation and series. Points closer than a pixel are merged (the largest value kept), so a
 * log of 100,000 requests draws at most one point per pixel column per conversation.
 */
function seriesPaths(timeline: Timeline, series: Series, x: (p: TimelinePoint) => number, y: (v: number) => number): SVGElement[] {
  const byConversation = new Map<number, Map<number, number>>();
  for (const point of timeline.points) {
    const value = series.value(point);
    if (value === null) continue;
    let columns = byConversation.get(point.conversation);
    if (columns === undefined) byConversation.set(point.conversation, (columns = new Map()));
    const column = Math.round(x(point));
    columns.set(column, Math.max(columns.get(column) ?? 0, value));
  }
  const paths: SVGElement[] = [];
  for (const columns of byConversation.values()) {
    const coords = [...columns.entries()].map(([cx, v]) => `${cx},${y(v).toFixed(1)}`);
    if (coords.length === 1) {
      const [cx, cy] = coords[0]!.split(',');
      paths.push(svg('circle', { cx: cx!, cy: cy!, r: 2.5, class: `tl-dot tl-${series.key}` }));
    } else paths.push(svg('polyline', { points: coords.join(' '), class: `tl-line tl-${series.key}` }));
  }
  return paths;
}

/** Minutes precision, UTC; '' for no time or one outside the Date range (a log can carry any epoch number). */
const timeLabel = (ms: number | null) => isoTime(ms)?.slice(0, 16).replace('T', ' ') ?? '';

function chart(timeline: Timeline, shown: readonly Series[], ctx: PanelContext, f: Frame): SVGSVGElement {
  const scale = xScale(timeline, f);
  const x = scale.x;
  let max = 1;
  for (const p of timeline.points) for (const s of shown) max = Math.max(max, s.value(p) ?? 0);
  const y = (v: number) => MARGIN.top + f.plotH - (v / max) * f.plotH;
  const first = timeline.points[0];
  const last = timeline.points[timeline.points.length - 1];
  const idle = scale.gaps.length > 0 ? ` ${scale.gaps.length} idle gap(s) over ${durationText(IDLE_MS)} drawn narrow.` : '';
  const label = `Prompt tokens and cache reads of ${timeline.points.length} requests${timeline.timed ? ' over time' : ' in order'}; ${timeline.compactions} compaction(s) marked.${idle}`;
  const root = svg('svg', { viewBox: `0 0 ${f.width} ${f.height}`, class: 'timeline-chart', role: 'img', 'aria-label': label, id: 'timeline-chart' });
  root.append(
    svg('line', { x1: MARGIN.left, x2: MARGIN.left + f.plotW, y1: MARGIN.top + f.plotH, y2: MARGIN.top + f.plotH, class: 'tl-axis' }),
    svg('line', { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: MARGIN.top + f.plotH, class: 'tl-axis' }),
    svg('text', { x: MARGIN.left - 6, y: MARGIN.top + 10, class: 'tl-label', 'text-anchor': 'end' }, [formatCount(max)]),
    svg('text', { x: MARGIN.left - 6, y: MARGIN.top + f.plotH, class: 'tl-label', 'text-anchor': 'end' }, ['0']),
  );
  if (first && last) {
    const left = timeline.timed ? timeLabel(first.timestamp) : 'request 1';
    const right = timeline.timed ? timeLabel(last.timestamp) : `request ${last.request + 1}`;
    root.append(
      svg('text', { x: MARGIN.left, y: f.height - 8, class: 'tl-label' }, [left]),
      svg('text', { x: MARGIN.left + f.plotW, y: f.height - 8, class: 'tl-label', 'text-anchor': 'end' }, [right]),
    );
  }
  root.append(...gapMarks(scale.gaps, f));
  for (const point of timeline.points) {
    if (!point.compaction) continue;
    const cx = x(point).toFixed(1);
    root.append(
      svg('line', { x1: cx, x2: cx, y1: MARGIN.top, y2: MARGIN.top + f.plotH, class: 'tl-compaction', 'data-request': point.request }, [
        svg('title', {}, [`Request ${point.request + 1}: compaction (context shrank)`]),
      ]),
    );
  }
  const selected = timeline.points[ctx.request.index];
  if (selected) {
    const cx = x(selected).toFixed(1);
    root.append(svg('line', { x1: cx, x2: cx, y1: MARGIN.top, y2: MARGIN.top + f.plotH, class: 'tl-selected' }));
  }
  for (const series of shown) root.append(...seriesPaths(timeline, series, x, y));
  root.addEventListener('click', (event) => {
    const box = root.getBoundingClientRect();
    if (box.width === 0) return;
    const clickX = ((event.clientX - box.left) / box.width) * f.width;
    let nearest: TimelinePoint | null = null;
    for (const point of timeline.points) if (nearest === null || Math.abs(x(point) - clickX) < Math.abs(x(nearest) - clickX)) nearest = point;
    if (nearest !== null) ctx.selectRequest(nearest.request);
  });
  return root;
}

/** The series shown by default: three, so the chart stays readable (the legend adds the others). */
function defaultSeries(available: readonly Series[], hasRecorded: boolean): Set<string> {
  const keys = hasRecorded ? ['recorded', 'predicted', 'recorded-read'] : ['reconstructed', 'simulated-read', 'optimized-read'];
  return new Set(available.filter((s) => keys.includes(s.key)).map((s) => s.key));
}

/** The series the user picked, per analysis, kept while stepping between its requests. */
const picked = new WeakMap<object, Set<string>>();

function legend(available: readonly Series[], shown: ReadonlySet<string>, onToggle: (key: string, on: boolean) => void): HTMLElement {
  return el('fieldset', { className: 'timeline-legend' }, [
    el('legend', { className: 'visually-hidden', text: 'Series shown' }),
    ...available.map((s) =>
      el('label', {}, [
        el('input', {
          attrs: { type: 'checkbox', 'data-series': s.key, ...(shown.has(s.key) ? { checked: '' } : {}) },
          on: { change: (event) => onToggle(s.key, (event.target as HTMLInputElement).checked) },
        }),
        el('span', { className: `tl-swatch tl-${s.key}`, attrs: { 'aria-hidden': 'true' } }),
        s.label,
      ]),
    ),
    el('span', { className: 'tl-key' }, [el('span', { className: 'tl-swatch tl-compaction-swatch', attrs: { 'aria-hidden': 'true' } }), 'Compaction']),
    el('span', { className: 'tl-key' }, [el('span', { className: 'tl-swatch tl-gap-swatch', attrs: { 'aria-hidden': 'true' } }), 'Idle gap, drawn narrow']),
  ]);
}

const pct = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);
const usd = (value: number | null) => (value === null ? '–' : formatUsd(value));

function agreementBlock(agreement: NonNullable<TranscriptsAnswer['agreement']>, ctx: PanelContext): HTMLElement[] {
  const e = agreement.promptErrors;
  const lines: HTMLElement[] = [el('h2', { className: 'section-title', text: 'Observed vs simulated' })];
  const facts: string[] = [
    `${formatCount(agreement.recordedRequests)} request(s) carry recorded usage.`,
    `Reconstructed + inferred setup vs recorded prompt on ${formatCount(e.count)} later request(s): |error| median ${pct(e.median)}, p90 ${pct(e.p90)} (transcript alone: median ${pct(agreement.reconstructedOnlyErrors.median)}).`,
    `Cache read agreement: ${formatCount(agreement.cacheActual.readAgreements)}/${formatCount(agreement.cacheActual.compared)} as sent, ${formatCount(agreement.cacheOptimized.readAgreements)}/${formatCount(agreement.cacheOptimized.compared)} with tail breakpoints.`,
  ];
  if (agreement.setupUnrecordedRequests > 0) {
    facts.splice(1, 0, `${formatCount(agreement.setupUnrecordedRequests)} were rebuilt without their system prompt and/or tools: that part is unknown; its size is inferred from recorded usage on each conversation's first request.`);
  }
  if (agreement.redaction.placeholders > 0) facts.push(`${formatCount(agreement.redaction.placeholders)} redacted placeholder(s): ≈${formatCount(agreement.redaction.estimatedTokens)} tokens estimated from their recorded lengths (not exact).`);
  if (agreement.ttl.pairs > 0) facts.push(`TTL from real timestamps: ${agreement.ttl.beyondTtlMissed}/${agreement.ttl.beyondTtl} gaps beyond the TTL missed the cache, ${agreement.ttl.withinTtlKept}/${agreement.ttl.withinTtl} within it read it.`);
  if (agreement.cost.priced > 0) facts.push(`Cost of the recorded usage ${usd(agreement.cost.recorded)}; simulated ${usd(agreement.cost.simulated)}, with tail breakpoints ${usd(agreement.cost.optimized)}.`);
  lines.push(el('ul', { className: 'timeline-facts', attrs: { id: 'timeline-agreement' } }, facts.map((text) => el('li', { text }))));
  const rows = agreement.conversations.filter((c) => c.recordedRequests > 0).slice(0, MAX_TABLE_ROWS).map((c) =>
    el('tr', {}, [
      numCell(String(c.conversation + 1)),
      el('td', { className: 'mono', text: ctx.view.files[c.file]?.name ?? `file ${c.file + 1}` }),
      numCell(formatCount(c.recordedRequests)),
      numCell(c.setup === null ? '–' : formatCount(c.setup)),
      numCell(pct(c.errors.median)),
      numCell(pct(c.errors.p90)),
      numCell(usd(c.recordedCost)),
      numCell(usd(c.simulatedCost)),
    ]),
  );
  const headers = ['#', 'File', 'Recorded', 'Setup (inferred)', 'Median |error|', 'p90 |error|', 'Recorded cost', 'Simulated cost'];
  lines.push(scrollingTable({ className: 'data', attrs: { 'aria-label': 'Observed vs simulated per conversation' }, headers, numeric: (i) => i !== 1, rows }));
  return lines;
}

function pointTable(timeline: Timeline, ctx: PanelContext): HTMLElement {
  const rows = timeline.points.slice(0, MAX_TABLE_ROWS).map((p) =>
    el('tr', { className: p.request === ctx.request.index ? 'selected' : '' }, [
      el('td', { className: 'num' }, [el('button', { className: 'link', text: String(p.request + 1), attrs: { type: 'button' }, on: { click: () => ctx.selectRequest(p.request) } })]),
      el('td', { className: 'mono', text: timeLabel(p.timestamp) || '–' }),
      numCell(formatCount(p.reconstructed)),
      numCell(p.recordedPrompt === null ? '–' : formatCount(p.recordedPrompt)),
      numCell(p.recordedRead === null ? '–' : formatCount(p.recordedRead)),
      numCell(formatCount(p.simulatedRead)),
      el('td', { text: p.compaction ? 'compaction' : '' }),
    ]),
  );
  const headers = ['Request', 'Sent (UTC)', 'Reconstructed', 'Recorded prompt', 'Recorded read', 'Simulated read', ''];
  return el('details', { className: 'timeline-table' }, [
    el('summary', { text: `Per request${timeline.points.length > MAX_TABLE_ROWS ? ` (first ${MAX_TABLE_ROWS})` : ''}` }),
    scrollingTable({ className: 'data', headers, numeric: (i) => !(i === 1 || i === 6), rows }),
  ]);
}

export const timelinePanel: Panel = {
  id: 'timeline',
  title: 'Timeline',
  async render(container, ctx) {
    const answer = await askWithRequests(container, ctx, { empty: 'No requests.', query: 'transcripts' });
    if (answer === null) return;
    const { timeline } = answer;
    const hasRecorded = timeline.points.some((p) => p.recordedPrompt !== null);
    const available = SERIES.filter((s) => hasRecorded || !['recorded', 'predicted', 'recorded-read'].includes(s.key));
    const keys = picked.get(ctx.view) ?? defaultSeries(available, hasRecorded);
    picked.set(ctx.view, keys);
    const wrap = el('div', { className: 'timeline-wrap' });
    // The width the panel gives (less the wrap's border and padding), read once per render.
    const frame = frameOf(container.clientWidth - 10);
    const draw = () => wrap.replaceChildren(chart(timeline, available.filter((s) => keys.has(s.key)), ctx, frame));
    draw();
    const parts: HTMLElement[] = [
      el('h2', { className: 'section-title', text: 'Timeline' }),
      el('p', {
        className: 'muted',
        text: timeline.timed
          ? 'Prompt tokens and cache reads per request, placed by the time each was sent. Click to select a request.'
          : 'Not every request has a timestamp: requests are placed in order. Click to select a request.',
      }),
      wrap,
      legend(available, keys, (key, on) => {
        if (on) keys.add(key);
        else keys.delete(key);
        draw();
      }),
    ];
    if (timeline.compactions > 0) parts.push(el('p', { attrs: { id: 'timeline-compactions' }, text: `${formatCount(timeline.compactions)} compaction(s): recorded by the log, or the context shrank below 90% of the request it continues.` }));
    if (answer.agreement !== null) parts.push(...agreementBlock(answer.agreement, ctx));
    parts.push(pointTable(timeline, ctx));
    container.replaceChildren(...parts);
  },
};
