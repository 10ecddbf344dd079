// npm run bench:bombs [-- --case <name>] [--json <file>]
// Hostile input shapes beside a normal input of about the same size, run through the CLI in the same run: wall
// time, peak RSS and exit status per command. The target (issue #19, docs/security.md): every bomb ends within
// max(30 s, 5 × the normal input's time) and under 1.5 GiB. Inputs are synthetic, generated into .bench/bombs/.
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { gatewayRecords } from './bench/inputs.ts';
import { bombShapes, type BombShape } from './bench/bombs.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, '.bench', 'bombs');
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const only = option('--case');
const jsonOut = option('--json');
const GIB = 1024 ** 3;

/** Writes `chunks` (through gzip when `gzip`) to `path` unless it exists; returns its size in bytes. */
async function materialize(path: string, gzip: boolean, chunks: () => Iterable<string>, stopAtBytes = Infinity): Promise<number> {
  if (!existsSync(path)) {
    const partial = `${path}.partial`;
    const file = createWriteStream(partial);
    const sink = gzip ? createGzip({ level: 9 }) : file;
    if (gzip) sink.pipe(file);
    for (const chunk of chunks()) {
      if (!sink.write(chunk)) await once(sink, 'drain');
      if (file.bytesWritten >= stopAtBytes) break;
    }
    sink.end();
    await once(file, 'finish');
    renameSync(partial, path);
  }
  return statSync(path).size;
}

/** A normal input: gateway records (synthetic agent conversations) until the file holds about `bytes`. */
function* normalRecords(): Generator<string> {
  for (const record of gatewayRecords(Number.MAX_SAFE_INTEGER)) yield JSON.stringify(record) + '\n';
}

interface Run {
  command: string;
  seconds: number;
  peakRssBytes: number;
  exit: number;
  stderr: string;
}

function run(command: string[], file: string): Run {
  const report = join(dir, 'report.html');
  rmSync(report, { force: true });
  const argv = command.map((arg) => (arg === '{html}' ? report : arg));
  const started = performance.now();
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/bench/cli-peak.ts'), ...argv, file], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const seconds = (performance.now() - started) / 1000;
  const result = JSON.parse(out.trim().split('\n').pop()!) as { exit: number; peakRssBytes: number; stderr: string };
  return { command: command.join(' ').replace(' {html}', ''), seconds: Math.round(seconds * 100) / 100, ...result };
}

interface CaseResult {
  name: string;
  bytes: number;
  normalBytes: number;
  runs: { bomb: Run; normal: Run; withinTarget: boolean }[];
}

async function measure(shape: BombShape): Promise<CaseResult> {
  mkdirSync(dir, { recursive: true });
  const bombPath = join(dir, shape.file);
  const bytes = await materialize(bombPath, shape.gzip, shape.chunks);
  const normalPath = join(dir, `normal-${shape.gzip ? 'gz' : 'plain'}-${bytes}.jsonl${shape.gzip ? '.gz' : ''}`);
  const normalBytes = await materialize(normalPath, shape.gzip, normalRecords, bytes);
  const runs = shape.commands.map((command) => {
    const bomb = run(command, bombPath);
    const normal = run(command, normalPath);
    const withinTarget = bomb.seconds <= Math.max(30, 5 * normal.seconds) && bomb.peakRssBytes < 1.5 * GIB;
    return { bomb, normal, withinTarget };
  });
  return { name: shape.name, bytes, normalBytes, runs };
}

const results: CaseResult[] = [];
for (const shape of bombShapes()) {
  if (only !== undefined && shape.name !== only) continue;
  const result = await measure(shape);
  results.push(result);
  for (const { bomb, normal, withinTarget } of result.runs) {
    const mb = (n: number) => `${Math.round(n / 1e6)} MB`;
    console.log(
      `${result.name.padEnd(22)} ${bomb.command.padEnd(16)} bomb ${bomb.seconds.toFixed(1).padStart(6)} s ${mb(bomb.peakRssBytes).padStart(8)} exit ${bomb.exit}` +
        ` | normal ${normal.seconds.toFixed(1).padStart(6)} s ${mb(normal.peakRssBytes).padStart(8)} | ${withinTarget ? 'within target' : 'OVER TARGET'}` +
        (bomb.stderr !== '' ? `\n${''.padEnd(23)}${bomb.stderr.split('\n')[0]}` : ''),
    );
  }
}
if (only !== undefined && results.length === 0) {
  console.error(`no case named ${only}; cases: ${bombShapes().map((s) => s.name).join(', ')}`);
  process.exitCode = 1;
}
if (jsonOut !== undefined) writeFileSync(jsonOut, JSON.stringify(results, null, 2) + '\n');
if (results.some((r) => r.runs.some((x) => !x.withinTarget))) process.exitCode = 1;
