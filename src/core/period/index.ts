// Time windows and groupings of an analysis' requests (`--since`, `--until`, `--tz`, `--by`).
export { calendarKey, checkZone, instantOf, offsetAt, parseBound, PeriodError, wallText, type CalendarUnit } from './time.ts';
export { GROUPINGS, inWindow, inWindowAt, periodTable, type Window, type Grouping, type PeriodOptions, type PeriodRow, type PeriodTable } from './table.ts';
export { periodRecord } from './record.ts';
