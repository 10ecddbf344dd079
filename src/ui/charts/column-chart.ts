// A column chart in plain SVG: one group per bucket (a day, a week), as stacked bars or as points on a line.
// Keyboard: the chart is one tab stop; arrow keys, Home and End move between the groups, each named with its
// values (a roving tabindex), and Enter or Space opens one when the chart is given `onOpen`. Under it, a
// disclosure holds the same numbers as a table, for screen readers and for reading exact values.
import { el } from '../dom.ts';
import { niceMax } from '../../render/chart-scale.ts';
import { svg } from './svg.ts';

export interface ChartGroup {
  /** Shown under the axis and in the table's first column. */
  label: string;
  /** Empty buckets left out before this one: a break is marked on the axis. */
  skipped: number;
  /** One value per series (stack parts bottom up, or the one point); null: no value. */
  values: (number | null)[];
  /** Said after its values, in its name and in the table's last column ("3 requests unpriced"). */
  note?: string;
}

export interface ColumnChartOptions {
  /** Element id of the chart's figure; its SVG is `${id}-svg`. */
  id: string;
  title: string;
  kind: 'stack' | 'line';
  /** Series names, aligned with each group's values. */
  series: readonly string[];
  groups: readonly ChartGroup[];
  /** Values in names and the table. */
  format: (value: number) => string;
  /** The axis' two labels (shorter); `format` without it. */
  axis?: (value: number) => string;
  /** The axis' top; without it a round number over the largest total. */
  max?: number;
  /** What one group is called in messages ("day", "week"). */
  unit: string;
  /** Opens group `i` (Enter, Space, click); `openHint` ends each group's name. */
  onOpen?: (i: number) => void;
  openHint?: string;
}

const WIDTH = 360;
const HEIGHT = 170;
const M = { left: 50, right: 8, top: 10, bottom: 24 };
const PLOT_W = WIDTH - M.left - M.right;
const PLOT_H = HEIGHT - M.top - M.bottom;
/** A break takes this share of a group's slot. */
const BREAK_SLOT = 0.6;

const totalOf = (group: ChartGroup): number => group.values.reduce<number>((sum, v) => sum + (v ?? 0), 0);

function groupName(options: ColumnChartOptions, group: ChartGroup): string {
  const known = group.values.map((v, s) => ({ v, s })).filter((part) => part.v !== null);
  const parts = known.map(({ v, s }) => `${options.series[s]} ${options.format(v!)}`);
  const head = options.kind === 'stack' && options.series.length > 1 ? `${options.format(totalOf(group))}: ${parts.join(', ')}` : known.length === 0 ? 'no value' : parts.join(', ');
  return `${group.label}: ${head}${group.note ? ` (${group.note})` : ''}${options.onOpen && options.openHint ? `. ${options.openHint}` : ''}`;
}

/** x of each group's slot (left edge) and the slot width, breaks included. */
function slots(groups: readonly ChartGroup[]): { left: number[]; width: number } {
  let units = 0;
  const at: number[] = [];
  for (const [i, group] of groups.entries()) {
    if (i > 0 && group.skipped > 0) units += BREAK_SLOT;
    at.push(units);
    units += 1;
  }
  const width = PLOT_W / Math.max(1, units);
  return { left: at.map((u) => M.left + u * width), width };
}

function axes(options: ColumnChartOptions, max: number, x: { left: number[]; width: number }): SVGElement[] {
  const base = M.top + PLOT_H;
  const nodes: SVGElement[] = [
    svg('line', { x1: M.left, x2: M.left + PLOT_W, y1: base, y2: base, class: 'chart-axis' }),
    svg('text', { x: M.left - 4, y: M.top + 8, class: 'chart-label', 'text-anchor': 'end' }, [(options.axis ?? options.format)(max)]),
    svg('text', { x: M.left - 4, y: base, class: 'chart-label', 'text-anchor': 'end' }, [(options.axis ?? options.format)(0)]),
  ];
  const first = options.groups[0];
  const last = options.groups[options.groups.length - 1];
  if (first) nodes.push(svg('text', { x: x.left[0]!, y: HEIGHT - 6, class: 'chart-label' }, [first.label]));
  if (last && options.groups.length > 1) nodes.push(svg('text', { x: M.left + PLOT_W, y: HEIGHT - 6, class: 'chart-label', 'text-anchor': 'end' }, [last.label]));
  options.groups.forEach((group, i) => {
    if (i === 0 || group.skipped === 0) return;
    const cx = x.left[i]! - (BREAK_SLOT * x.width) / 2;
    nodes.push(
      svg('path', { d: `M${cx - 3},${base + 4} l3,-8 M${cx + 1},${base + 4} l3,-8`, class: 'chart-break' }, [
        svg('title', {}, [`${group.skipped} ${options.unit}${group.skipped === 1 ? '' : 's'} without requests`]),
      ]),
    );
  });
  return nodes;
}

function marks(options: ColumnChartOptions, group: ChartGroup, geometry: { x: number; w: number; y: (v: number) => number }): SVGElement[] {
  const { x, w, y } = geometry;
  if (options.kind === 'line') {
    const v = group.values[0];
    return v === null || v === undefined ? [] : [svg('circle', { cx: x + w / 2, cy: y(v), r: Math.min(4, Math.max(2, w / 3)), class: 'chart-dot' })];
  }
  const out: SVGElement[] = [];
  let acc = 0;
  const barW = Math.max(1, w * 0.72);
  group.values.forEach((v, s) => {
    if (v === null || v <= 0) return;
    const top = y(acc + v);
    out.push(svg('rect', { x: x + (w - barW) / 2, y: top, width: barW, height: Math.max(0.5, y(acc) - top), class: `chart-bar chart-s${s}` }));
    acc += v;
  });
  return out;
}

function table(options: ColumnChartOptions): HTMLElement {
  const stacked = options.kind === 'stack' && options.series.length > 1;
  const noted = options.groups.some((g) => g.note !== undefined);
  const headers = [options.unit === 'week' ? 'Week (UTC)' : 'Day (UTC)', ...options.series, ...(stacked ? ['Total'] : []), ...(noted ? ['Note'] : [])];
  const rows = options.groups.map((group) =>
    el('tr', {}, [
      el('th', { text: group.label, attrs: { scope: 'row' } }),
      ...group.values.map((v) => el('td', { className: 'num', text: v === null ? '–' : options.format(v) })),
      ...(stacked ? [el('td', { className: 'num', text: options.format(totalOf(group)) })] : []),
      ...(noted ? [el('td', { text: group.note ?? '' })] : []),
    ]),
  );
  return el('details', { className: 'chart-table' }, [
    el('summary', { text: 'Numbers' }),
    // Focusable, so a keyboard can scroll it (axe: scrollable-region-focusable).
    el('div', { className: 'table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': `${options.title}: numbers` } }, [
      el('table', { className: 'data', attrs: { id: `${options.id}-table` } }, [
        el('caption', { className: 'visually-hidden', text: options.title }),
        el('thead', {}, [el('tr', {}, headers.map((h, i) => el('th', { className: i === 0 || (noted && i === headers.length - 1) ? '' : 'num', text: h, attrs: { scope: 'col' } })))]),
        el('tbody', {}, rows),
      ]),
    ]),
  ]);
}

/** Roving focus over the groups: one tab stop, arrows move, Enter or Space opens. */
function keyboard(root: SVGSVGElement, groups: SVGGElement[], onOpen: ((i: number) => void) | undefined): void {
  const move = (to: number): void => {
    const target = groups[Math.max(0, Math.min(groups.length - 1, to))];
    if (!target) return;
    for (const g of groups) g.setAttribute('tabindex', g === target ? '0' : '-1');
    target.focus();
  };
  root.addEventListener('keydown', (event) => {
    const at = groups.indexOf(event.target as SVGGElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: groups.length - 1 }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      move(to);
    } else if (onOpen && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      onOpen(at);
    }
  });
}

export function columnChart(options: ColumnChartOptions): HTMLElement {
  let largest = 0;
  for (const g of options.groups) largest = Math.max(largest, options.kind === 'stack' ? totalOf(g) : (g.values[0] ?? 0));
  const max = options.max ?? niceMax(largest);
  const x = slots(options.groups);
  const y = (v: number) => M.top + PLOT_H - (Math.min(v, max) / max) * PLOT_H;
  const titleId = `${options.id}-title`;
  const root = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'group', 'aria-labelledby': titleId, id: `${options.id}-svg`, 'data-groups': options.groups.length });
  root.append(...axes(options, max, x));
  if (options.kind === 'line') {
    const points = options.groups.flatMap((g, i) => (g.values[0] === null || g.values[0] === undefined ? [] : [`${(x.left[i]! + x.width / 2).toFixed(1)},${y(g.values[0]).toFixed(1)}`]));
    if (points.length > 1) root.append(svg('polyline', { points: points.join(' '), class: 'chart-line' }));
  }
  const groups = options.groups.map((group, i) => {
    const g = svg('g', { class: 'chart-group', tabindex: i === 0 ? 0 : -1, role: options.onOpen ? 'button' : 'img', 'aria-label': groupName(options, group), 'data-label': group.label }, [
      svg('rect', { x: x.left[i]!, y: M.top, width: x.width, height: PLOT_H, class: 'chart-hit' }),
      ...marks(options, group, { x: x.left[i]!, w: x.width, y }),
    ]);
    if (options.onOpen) g.addEventListener('click', () => options.onOpen?.(i));
    return g;
  });
  root.append(...groups);
  keyboard(root, groups, options.onOpen);
  return el('figure', { className: 'chart-figure', attrs: { id: options.id } }, [el('figcaption', { className: 'chart-title', text: options.title, attrs: { id: titleId } }), root, table(options)]);
}
