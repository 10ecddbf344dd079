// Scales the app's charts share (src/ui/charts/, the Timeline panel): a round axis maximum, and a time axis that
// draws idle gaps narrow. Pure functions of numbers, so they are tested without a DOM.

/** The smallest 1, 2 or 5 × 10^k at or above `value` (1 for nothing to show). */
export function niceMax(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value * (1 - 1e-12)) return step * power;
  return 10 * power;
}

/** One gap between consecutive requests drawn narrow: from `from` to `to` (ms), at x `x` (0–1) of the axis. */
export interface IdleGap {
  from: number;
  to: number;
  x: number;
}

export interface TimeAxis {
  /** Where a time falls on the axis, 0–1. */
  at(time: number): number;
  gaps: IdleGap[];
}

export interface TimeAxisOptions {
  /** A gap between consecutive times longer than this is idle (ms). */
  idleMs: number;
  /** The share of the axis each idle gap takes, whatever its length. */
  gapShare: number;
}

/**
 * A time axis over `times` (any order) on which each gap longer than `idleMs` takes `gapShare` of the width and
 * the active stretches share the rest by their length, so a 5-hour pause does not squeeze the work into the edges.
 */
export function compressedTimeAxis(times: readonly number[], options: TimeAxisOptions): TimeAxis {
  const sorted = Float64Array.from(times).sort();
  const gapsMs: { from: number; to: number }[] = [];
  let active = 0;
  for (let i = 1; i < sorted.length; i++) {
    const step = sorted[i]! - sorted[i - 1]!;
    if (step > options.idleMs) gapsMs.push({ from: sorted[i - 1]!, to: sorted[i]! });
    else active += step;
  }
  const first = sorted[0] ?? 0;
  const last = sorted[sorted.length - 1] ?? 0;
  if (gapsMs.length === 0) {
    const span = Math.max(1, last - first);
    return { at: (time) => (sorted.length < 2 ? 0.5 : (time - first) / span), gaps: [] };
  }
  const gapShare = Math.min(options.gapShare, 0.5 / gapsMs.length);
  const activeShare = 1 - gapShare * gapsMs.length;
  // Only idle gaps: the active stretches are instants, so the gaps share the whole axis.
  const perMs = active > 0 ? activeShare / active : 0;
  const share = active > 0 ? gapShare : 1 / gapsMs.length;
  // x where each gap starts, so a time is placed by a binary search over the gaps (a log can have thousands).
  const startX: number[] = [];
  let x = 0;
  let from = first;
  for (const gap of gapsMs) {
    x += (gap.from - from) * perMs;
    startX.push(x);
    x += share;
    from = gap.to;
  }
  const at = (time: number): number => {
    let lo = 0;
    let hi = gapsMs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (gapsMs[mid]!.to <= time) lo = mid + 1;
      else hi = mid;
    }
    const inside = gapsMs[lo];
    if (inside !== undefined && time > inside.from) return startX[lo]! + (share * (time - inside.from)) / (inside.to - inside.from);
    const before = gapsMs[lo - 1];
    const x0 = before === undefined ? 0 : startX[lo - 1]! + share;
    return Math.max(0, Math.min(1, x0 + (time - (before?.to ?? first)) * perMs));
  };
  return { at, gaps: gapsMs.map((gap) => ({ ...gap, x: at(gap.from) + share / 2 })) };
}

/** A pause's length as the Timeline marks it: "47 min", "5 h 2 min", "3 d 4 h". */
export function durationText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h${minutes % 60 > 0 ? ` ${minutes % 60} min` : ''}`;
  return `${Math.floor(hours / 24)} d${hours % 24 > 0 ? ` ${hours % 24} h` : ''}`;
}
