// Runs one benchmark case (scripts/bench/case.ts) in a fresh process and returns the JSON it prints last.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** What `case.ts analysis` and `case.ts floor` print. */
export interface CaseTiming {
  timesMs: number[];
  cpuMs: number[];
  peakRssBytes: number;
  requests: number;
}

/** `speed`: 'summary' times a folder's summary from recorded usage against the read floor (case.ts). */
export function runCase<T>(root: string, mode: 'paired' | 'analysis', file: string, count: number, speed = 'full'): T {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/bench/case.ts'), mode, file, String(count), speed], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}
