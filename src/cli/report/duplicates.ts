// The line every report gives when calls were counted once: how many copies were dropped and from which files.
// File names are made safe where the report is written (terminalSafeIO), as every other name in it.
import type { DroppedCalls } from '../../core/input/seen-calls.ts';

export function duplicateLines(dropped: readonly DroppedCalls[] | undefined, nameOf: (file: number) => string): string[] {
  if (dropped === undefined || dropped.length === 0) return [];
  const total = dropped.reduce((sum, d) => sum + d.calls, 0);
  return [
    `  ${total.toLocaleString('en-US')} API call${total === 1 ? '' : 's'} counted once: copies of calls an earlier file recorded (same message and request id: a resumed or copied session) dropped from`,
    ...dropped.map((d) => `    ${nameOf(d.file)}: ${d.calls.toLocaleString('en-US')}`),
  ];
}
