// Reading progress of `ctxray analyze` on stderr: records and bytes of the file being read. On a terminal one
// line is rewritten in place; otherwise (asked for with -v) a plain line is written now and then, so a log
// captured from stderr stays readable. Only counts and sizes are shown, never file content.
import type { ReadProgress } from '../core/input/index.ts';
import { OWN_ERASE_LINE, OWN_LINE_START } from './terminal-safe.ts';

/** How often the terminal line is redrawn, and how often a plain line is written. */
const TERMINAL_INTERVAL_MS = 200;
const PLAIN_INTERVAL_MS = 2000;

export interface ProgressReporter {
  update(progress: ReadProgress): void;
  /** Clears the terminal line (or writes nothing more) before anything else is written; safe to call twice. */
  finish(): void;
}

export interface ProgressTarget {
  write: (text: string) => void;
  terminal: boolean;
  /** Display names of the inputs, by file index. */
  names: readonly string[];
  now?: () => number;
}

const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1);

/** `name: 12,345 records, 80.0 / 219.5 MB (36%)`; the total and share only when the size is known. */
export function describeProgress(progress: ReadProgress, name: string): string {
  const records = `${progress.records.toLocaleString('en-US')} record${progress.records === 1 ? '' : 's'}`;
  if (progress.bytesTotal <= 0) return `${name}: ${records}, ${megabytes(progress.bytesRead)} MB`;
  const share = Math.min(100, Math.floor((100 * progress.bytesRead) / progress.bytesTotal));
  return `${name}: ${records}, ${megabytes(progress.bytesRead)} / ${megabytes(progress.bytesTotal)} MB (${share}%)`;
}

export function progressReporter(target: ProgressTarget): ProgressReporter {
  const now = target.now ?? Date.now;
  const interval = target.terminal ? TERMINAL_INTERVAL_MS : PLAIN_INTERVAL_MS;
  let last = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    update(progress) {
      const at = now();
      if (at - last < interval) return;
      last = at;
      const text = `reading ${describeProgress(progress, target.names[progress.file] ?? `file ${progress.file + 1}`)}`;
      // \r plus erase-to-end-of-line redraws the same terminal line.
      target.write(target.terminal ? `${OWN_LINE_START}${text}${OWN_ERASE_LINE}` : `${text}\n`);
      drawn = true;
    },
    finish() {
      if (target.terminal && drawn) target.write(`${OWN_LINE_START}${OWN_ERASE_LINE}`);
      drawn = false;
    },
  };
}
