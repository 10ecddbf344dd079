// The analysis record's `period` section (docs/analysis.schema.json), written when --since, --until or --by is
// given: the window in ISO time, the zone of its calendar keys, its totals and one row per group.
import type { PeriodTable } from './table.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const round4 = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);

export function periodRecord(table: PeriodTable): Record<string, unknown> {
  return {
    since: iso(table.since),
    until: iso(table.until),
    zone: table.zone,
    by: table.by,
    outside: table.outside,
    untimed: table.untimed,
    totals: { ...table.totals, hitRate: round4(table.totals.hitRate) },
    rows: table.rows.map((row) => ({ ...row, hitRate: round4(row.hitRate) })),
  };
}
