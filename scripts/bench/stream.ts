// The streaming check: `node --import tsx scripts/bench/stream.ts [--mb 1000]` generates a gzipped gateway log of
// about that many uncompressed MB (synthetic, in .bench/) and analyzes it once from a file stream in a fresh
// process, printing its peak RSS next to the uncompressed size: the analysis must not hold the raw text whole.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipGatewayInput } from './inputs.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const at = args.indexOf('--mb');
const megabytes = at >= 0 ? Number(args[at + 1]) : 1000;
if (!Number.isFinite(megabytes) || megabytes <= 0) {
  console.error('usage: stream.ts [--mb <uncompressed megabytes>]');
  process.exit(1);
}

console.error(`generating a ${megabytes} MB gzipped gateway log in .bench/ (first run only) ...`);
const input = await gzipGatewayInput(join(root, '.bench'), megabytes);
console.error(`analyzing ${input.name} (${(input.bytes / 1e6).toFixed(1)} MB gz, ${(input.uncompressedBytes / 1e6).toFixed(1)} MB of JSONL) ...`);
const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/bench/case.ts'), 'analysis', input.path, '1'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
const run = JSON.parse(out.trim().split('\n').pop()!) as { timesMs: number[]; cpuMs: number[]; peakRssBytes: number; requests: number };
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
console.log(
  JSON.stringify({
    name: input.name,
    gzBytes: input.bytes,
    uncompressedBytes: input.uncompressedBytes,
    requests: run.requests,
    ms: Math.round(run.timesMs[0]!),
    cpuMs: Math.round(run.cpuMs[0]!),
    peakRssBytes: run.peakRssBytes,
  }),
);
console.error(`${input.name}: ${run.requests} requests, ${mb(input.uncompressedBytes)} MB uncompressed, peak RSS ${mb(run.peakRssBytes)} MB, ${(run.timesMs[0]! / 1000).toFixed(1)} s`);
