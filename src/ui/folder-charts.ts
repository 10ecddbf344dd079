// The folder over time, above its table: recorded cost and tokens per day (or ISO week) stacked by model, the hit
// rate and what cache misses cost. The figures are the worker's (FolderView.series, src/core/transcripts/daily.ts);
// this module only draws them. A day's group opens the sessions with requests that day.
import './charts/charts.css';
import { el } from './dom.ts';
import { formatCount, formatUsd } from '../render/format.ts';
import type { FolderSeries, SeriesBucket, SeriesBucketing } from '../core/transcripts/daily.ts';
import type { FolderView } from '../worker/folder.ts';
import { columnChart, type ChartGroup } from './charts/column-chart.ts';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const usdAxis = (value: number) => (value === 0 ? '$0' : value >= 100 ? `$${formatCount(value)}` : value >= 1 ? `$${value.toFixed(2)}` : formatUsd(value));
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

const modelLabel = (m: FolderSeries['models'][number]) => (m.other > 0 ? `${m.other} other models` : (m.model ?? '(no model)'));
const bucketLabel = (b: SeriesBucket, by: SeriesBucketing) => (by === 'day' ? b.key : `${b.key} – ${b.last}`);

export interface FolderChartsOptions {
  /** Chart by day or by week (the worker's 'auto' until the user picks). */
  bucketing: SeriesBucketing;
  onBucketing: (by: SeriesBucketing) => void;
  /** Opens the sessions with requests on a day (only by day). */
  onDay: (day: string) => void;
}

function charts(series: FolderSeries, options: FolderChartsOptions): HTMLElement[] {
  const by = series.bucketing;
  const unit = by;
  const label = (b: SeriesBucket) => bucketLabel(b, by);
  const groups = (values: (b: SeriesBucket) => (number | null)[], note?: (b: SeriesBucket) => string | undefined): ChartGroup[] =>
    series.buckets.map((b) => {
      const text = note?.(b);
      return { label: label(b), skipped: b.skipped, values: values(b), ...(text !== undefined && { note: text }) };
    });
  // A model without a price adds nothing to the cost: the cost chart says how many requests that leaves out.
  const unpriced = (b: SeriesBucket) => (b.unpricedRequests > 0 ? `${formatCount(b.unpricedRequests)} of ${formatCount(b.requests)} requests unpriced, not in the cost` : undefined);
  const open = by === 'day' ? { onOpen: (i: number) => options.onDay(series.buckets[i]!.key), openHint: 'Enter lists its sessions' } : {};
  const names = series.models.map(modelLabel);
  const per = by === 'day' ? 'per day' : 'per week';
  const lost = series.buckets.some((b) => b.lost !== null);
  return [
    columnChart({ id: 'folder-chart-cost', title: `Recorded cost ${per}, by model`, kind: 'stack', series: names, groups: groups((b) => b.stacks.map((s) => s.cost), series.buckets.some((b) => b.unpricedRequests > 0) ? unpriced : undefined), format: formatUsd, axis: usdAxis, unit, ...open }),
    columnChart({ id: 'folder-chart-tokens', title: `Recorded tokens ${per}, by model`, kind: 'stack', series: names, groups: groups((b) => b.stacks.map((s) => s.tokens)), format: formatCount, axis: (v) => compact.format(v), unit, ...open }),
    columnChart({ id: 'folder-chart-hit', title: `Cache hit rate ${per}`, kind: 'line', series: ['Hit rate'], groups: groups((b) => [b.hitRate]), format: percent, axis: (v) => `${Math.round(v * 100)}%`, max: 1, unit, ...open }),
    lost
      ? columnChart({ id: 'folder-chart-lost', title: `Lost to cache misses ${per}`, kind: 'stack', series: ['Lost to misses'], groups: groups((b) => [b.lost]), format: formatUsd, axis: usdAxis, unit, ...open })
      : el('p', { className: 'muted small', text: 'No cache miss analysis for these sessions: nothing lost to misses to chart.' }),
  ];
}

function legend(series: FolderSeries): HTMLElement {
  return el(
    'ul',
    { className: 'chart-legend', attrs: { 'aria-label': 'Models' } },
    series.models.map((m, i) => el('li', {}, [el('span', { className: `chart-swatch chart-s${i}`, attrs: { 'aria-hidden': 'true' } }), modelLabel(m)])),
  );
}

export function createFolderCharts(view: FolderView, options: FolderChartsOptions): HTMLElement {
  const series = options.bucketing === 'week' ? view.series.week : view.series.day;
  const section = el('section', { className: 'folder-charts', attrs: { 'aria-labelledby': 'folder-charts-title', 'data-bucketing': series.bucketing } });
  if (series.buckets.length === 0) {
    section.append(el('h2', { className: 'section-title', text: 'Over time', attrs: { id: 'folder-charts-title' } }), el('p', { className: 'muted small', text: 'No request has a time: nothing to chart over time.' }));
    return section;
  }
  const toggle = el(
    'div',
    { className: 'folder-tabs', attrs: { role: 'group', 'aria-label': 'Chart by' } },
    (['day', 'week'] as const).map((by) =>
      el('button', { className: 'folder-tab', text: by === 'day' ? 'By day' : 'By week', attrs: { type: 'button', 'aria-pressed': String(by === series.bucketing), 'data-bucketing': by }, on: { click: () => options.onBucketing(by) } }),
    ),
  );
  const notes = [
    `${formatCount(view.series.day.days)} day${view.series.day.days === 1 ? '' : 's'} with requests (UTC)`,
    series.untimedRequests > 0 ? `${formatCount(series.untimedRequests)} request(s) without a time are not charted` : '',
    `a break on the axis marks ${series.bucketing}s without requests`,
  ].filter((text) => text !== '');
  section.append(
    el('div', { className: 'folder-charts-head' }, [el('h2', { className: 'section-title', text: 'Over time', attrs: { id: 'folder-charts-title' } }), toggle, legend(series)]),
    el('p', { className: 'muted small', text: `${notes.join(' · ')}.` }),
    el('div', { className: 'folder-charts-grid' }, charts(series, options)),
  );
  return section;
}
