// A folder's figures over time, for its charts: recorded cost and tokens per UTC day (or ISO week) stacked by the
// model the requests named, the hit rate and what cache misses cost per day. Summed from the sessions' per-day,
// per-model parts (src/core/transcripts/sessions.ts), so a folder read one session at a time charts the same as one
// analysis of all of it. Only days with requests get a bucket; `skipped` says how many empty buckets lie before
// one, so a chart can mark the break instead of drawing empty days. Requests without a time are counted apart.
import { addSums, emptySums, hitRate, type DayModelRow, type RecordedSums, type SessionPart } from './sessions.ts';

export type SeriesBucketing = 'day' | 'week';

/** More days with requests than this are charted by week when the caller asks for 'auto'. */
export const AUTO_WEEK_DAYS = 60;

/** Models charted apart, the costliest first; the rest are stacked as one "other models" part. */
export const SERIES_MODELS = 5;

export interface SeriesStack {
  cost: number;
  /** Recorded tokens: input, output, cache read and cache writes. */
  tokens: number;
}

export interface SeriesBucket {
  /** The day (YYYY-MM-DD, UTC), or the Monday of the ISO week. */
  key: string;
  /** The last day it covers (the key itself for a day, the Sunday for a week). */
  last: string;
  /** Buckets without requests between the previous bucket and this one (0 for the first). */
  skipped: number;
  requests: number;
  recorded: RecordedSums;
  cost: number;
  /** Requests on a model without a price: their usage is in the tokens, not in the cost. */
  unpricedRequests: number;
  tokens: number;
  /** Aligned with `FolderSeries.models`. */
  stacks: SeriesStack[];
  hitRate: number | null;
  /** USD the cache misses cost over hits, or null when no request of it has a miss analysis. */
  lost: number | null;
}

export interface FolderSeries {
  bucketing: SeriesBucketing;
  /** Labels of the stacked parts: model ids (null: the request named none), then "other models" when there are more. */
  models: { model: string | null; other: number }[];
  buckets: SeriesBucket[];
  /** Distinct UTC days with requests. */
  days: number;
  /** Requests without a timestamp: in no bucket. */
  untimedRequests: number;
}

const DAY_MS = 86_400_000;
const dayMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The Monday (UTC) of the ISO week of `day`. */
export function weekOf(day: string): string {
  const ms = dayMs(day);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return dayOf(ms - weekday * DAY_MS);
}

const tokensOf = (sums: RecordedSums): number => sums.input + sums.output + sums.cacheRead + sums.cacheWrite5m + sums.cacheWrite1h;

interface OpenBucket {
  requests: number;
  unpricedRequests: number;
  recorded: RecordedSums;
  cost: number;
  lost: number | null;
  byModel: Map<string | null, SeriesStack>;
}

/** Models by cost over the folder (then tokens, then name), the costliest first. */
function modelOrder(rows: readonly DayModelRow[]): (string | null)[] {
  const totals = new Map<string | null, SeriesStack>();
  for (const row of rows) {
    const total = totals.get(row.model) ?? { cost: 0, tokens: 0 };
    total.cost += row.cost;
    total.tokens += tokensOf(row.recorded);
    totals.set(row.model, total);
  }
  return [...totals.entries()]
    .sort(([ma, a], [mb, b]) => b.cost - a.cost || b.tokens - a.tokens || String(ma).localeCompare(String(mb)))
    .map(([model]) => model);
}

/** The folder's buckets over time: `bucketing` 'auto' is by day up to AUTO_WEEK_DAYS days with requests, else by week. */
export function folderSeries(parts: readonly SessionPart[], bucketing: SeriesBucketing | 'auto'): FolderSeries {
  const rows = parts.flatMap((part) => part.dayModels);
  const timed = rows.filter((row): row is DayModelRow & { day: string } => row.day !== null && Number.isFinite(dayMs(row.day)));
  const untimedRequests = rows.reduce((sum, row) => sum + row.requests, 0) - timed.reduce((sum, row) => sum + row.requests, 0);
  const days = new Set(timed.map((row) => row.day)).size;
  const by: SeriesBucketing = bucketing === 'auto' ? (days > AUTO_WEEK_DAYS ? 'week' : 'day') : bucketing;
  const order = modelOrder(timed);
  const shown = order.length > SERIES_MODELS ? order.slice(0, SERIES_MODELS - 1) : order;
  const part = new Map(shown.map((model, i) => [model, i]));
  const models = shown.map((model) => ({ model, other: 0 }));
  if (order.length > shown.length) models.push({ model: null, other: order.length - shown.length });
  const open = new Map<string, OpenBucket>();
  for (const row of timed) {
    const key = by === 'day' ? row.day : weekOf(row.day);
    let bucket = open.get(key);
    if (bucket === undefined) open.set(key, (bucket = { requests: 0, unpricedRequests: 0, recorded: emptySums(), cost: 0, lost: null, byModel: new Map() }));
    bucket.requests += row.requests;
    bucket.unpricedRequests += row.unpricedRequests;
    addSums(bucket.recorded, row.recorded);
    bucket.cost += row.cost;
    if (row.misses !== null) bucket.lost = (bucket.lost ?? 0) + row.misses.cost;
    const stackKey = part.has(row.model) ? row.model : '\u0000other';
    const stack = bucket.byModel.get(stackKey) ?? { cost: 0, tokens: 0 };
    stack.cost += row.cost;
    stack.tokens += tokensOf(row.recorded);
    bucket.byModel.set(stackKey, stack);
  }
  const step = by === 'day' ? DAY_MS : 7 * DAY_MS;
  let previous: number | null = null;
  const buckets = [...open.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, bucket]): SeriesBucket => {
      const start = dayMs(key);
      const skipped = previous === null ? 0 : Math.max(0, Math.round((start - previous) / step) - 1);
      previous = start;
      const stacks = models.map((m, i) => bucket.byModel.get(i < shown.length ? m.model : '\u0000other') ?? { cost: 0, tokens: 0 });
      return {
        key,
        last: by === 'day' ? key : dayOf(start + 6 * DAY_MS),
        skipped,
        requests: bucket.requests,
        recorded: bucket.recorded,
        cost: bucket.cost,
        unpricedRequests: bucket.unpricedRequests,
        tokens: tokensOf(bucket.recorded),
        stacks,
        hitRate: hitRate(bucket.recorded),
        lost: bucket.lost,
      };
    });
  return { bucketing: by, models, buckets, days, untimedRequests };
}
