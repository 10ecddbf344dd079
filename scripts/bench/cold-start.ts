// Cold start of the installed CLI: `node <installed bin> --version` against `node -e 0`, both spawned as fresh
// processes, alternating so both see the same load; the ratio of the medians is the figure (target: within 3×).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { packAndInstall } from '../package/install.ts';
import { median } from './median.ts';

export interface ColdStart {
  runs: number;
  binMedianMs: number;
  floorMedianMs: number;
  ratio: number;
}

function spawnMs(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr.toString()}`);
  return ms;
}


export function measureColdStart(root: string, runs: number, log: (line: string) => void): ColdStart {
  const installed = packAndInstall(root, log);
  try {
    log(`  cold start: ${runs} alternating runs each ...`);
    // One untimed run of each warms the file cache, as a user's second start would find it.
    spawnMs([installed.bin, '--version'], installed.dir);
    spawnMs(['-e', '0'], installed.dir);
    const bin: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < runs; i++) {
      bin.push(spawnMs([installed.bin, '--version'], installed.dir));
      floor.push(spawnMs(['-e', '0'], installed.dir));
    }
    const binMedianMs = median(bin);
    const floorMedianMs = median(floor);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return { runs, binMedianMs: round(binMedianMs), floorMedianMs: round(floorMedianMs), ratio: Math.round((binMedianMs / floorMedianMs) * 100) / 100 };
  } finally {
    rmSync(path.dirname(installed.dir), { recursive: true, force: true });
  }
}
