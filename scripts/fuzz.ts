// `npm run fuzz -- --runs 100000 --seed N [--target <name>] [--budget <ms>] [--path <p>] [--hang <ms>]
//                 [--targets <module>]`
// Fuzzes every reader of untrusted input (tests/fuzz/targets.ts): the runs are split over the targets by weight,
// each target's inputs come from one seeded fast-check run, and a failure is shrunk and printed with the seed and
// path that replay it. The fuzzing itself runs in a worker thread watched by this one: a target that stops
// reporting progress (an endless loop no in-thread timer could interrupt) is terminated and reported as a hang.
// Exit status: 0 no failure, 1 a failure or hang, 2 bad arguments.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

interface Options {
  runs: number;
  seed: number;
  budgetMs: number;
  /** No progress from the worker for this long is a hang, whatever the per-input budget. */
  hangMs: number;
  target: string | null;
  path: string | null;
  /** Module exporting `fuzzTargets()`: the project's readers unless another set is named. */
  targets: string;
}

type FromWorker =
  | { type: 'targets'; names: string[] }
  | { type: 'start'; target: string; runs: number }
  | { type: 'input'; target: string }
  | { type: 'report'; report: import('../tests/fuzz/runner.ts').TargetReport }
  | { type: 'done' };

const USAGE =
  'usage: npm run fuzz -- [--runs N] [--seed N] [--target <name>] [--budget <ms>] [--path <fast-check path>]\n' +
  '                       [--hang <ms>] [--targets <module exporting fuzzTargets()>]\n';
const DEFAULT_TARGETS = new URL('../tests/fuzz/targets.ts', import.meta.url).href;

function parseOptions(argv: string[]): Options | string {
  const options: Options = { runs: 100_000, seed: Date.now() % 2 ** 31, budgetMs: 5_000, hangMs: 60_000, target: null, path: null, targets: DEFAULT_TARGETS };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (flag === '--help' || flag === '-h') return '';
    if (value === undefined) return `${flag} needs a value`;
    i++;
    if (flag === '--target') options.target = value;
    else if (flag === '--path') options.path = value;
    else if (flag === '--targets') options.targets = pathToFileURL(path.resolve(value)).href;
    else if (flag === '--runs' || flag === '--seed' || flag === '--budget' || flag === '--hang') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < (flag === '--seed' ? 0 : 1)) return `${flag} must be a ${flag === '--seed' ? 'non-negative' : 'positive'} integer`;
      if (flag === '--runs') options.runs = n;
      else if (flag === '--seed') options.seed = n;
      else if (flag === '--budget') options.budgetMs = n;
      else options.hangMs = n;
    } else return `unknown argument ${flag}`;
  }
  return options;
}

/** Splits `total` runs over targets in proportion to their weights (every target gets at least one). */
export function shareRuns(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => Math.max(1, Math.floor((total * w) / sum)));
  let missing = total - shares.reduce((a, b) => a + b, 0);
  for (let i = 0; missing > 0; i = (i + 1) % shares.length, missing--) shares[i]!++;
  return shares;
}

async function workerMain(options: Options): Promise<void> {
  const { fuzzTargets } = (await import(options.targets)) as typeof import('../tests/fuzz/targets.ts');
  const { runTarget } = await import('../tests/fuzz/runner.ts');
  const post = (message: FromWorker) => parentPort!.postMessage(message);
  const all = await fuzzTargets();
  // Exact names only: the replay line names one target, and "ui" must not also run "ui-folder".
  const chosen = options.target === null ? all : all.filter((t) => t.name === options.target);
  post({ type: 'targets', names: chosen.map((t) => t.name) });
  const shares = shareRuns(options.runs, chosen.map((t) => t.weight));
  for (let i = 0; i < chosen.length; i++) {
    const target = chosen[i]!;
    post({ type: 'start', target: target.name, runs: shares[i]! });
    let lastBeat = Date.now();
    const report = await runTarget(target, {
      runs: shares[i]!,
      seed: options.seed,
      budgetMs: options.budgetMs,
      ...(options.path !== null && { path: options.path }),
      onInput: () => {
        // At most one heartbeat a quarter second: enough for the watchdog, cheap for fast targets.
        if (Date.now() - lastBeat >= 250) {
          lastBeat = Date.now();
          post({ type: 'input', target: target.name });
        }
      },
    });
    post({ type: 'report', report });
  }
  post({ type: 'done' });
}

function mainThread(): void {
  const parsed = parseOptions(process.argv.slice(2));
  if (typeof parsed === 'string') {
    process.stderr.write(parsed === '' ? USAGE : `fuzz: ${parsed}\n${USAGE}`);
    process.exitCode = parsed === '' ? 0 : 2;
    return;
  }
  const options = parsed;
  const started = Date.now();
  process.stdout.write(`fuzz: ${options.runs.toLocaleString('en-US')} inputs, seed ${options.seed}, per-input budget ${options.budgetMs} ms\n`);
  // The worker registers tsx itself: loader hooks from `--import tsx` do not carry over to worker threads. The
  // asset hooks, registered last so they resolve first, serve Vite's `?url` imports (the worker target loads the
  // app's worker modules).
  const assetHooks = new URL('./asset-url-hooks.mjs', import.meta.url).href;
  const bootstrap =
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import('node:module'); })` +
    `.then((m) => { m.register(${JSON.stringify(assetHooks)}); return import(${JSON.stringify(import.meta.url)}); });`;
  const worker = new Worker(bootstrap, { eval: true, workerData: options });
  let current = '(setup)';
  let lastBeat = Date.now();
  let total = 0;
  let failures = 0;
  let finished = false;
  const watchdog = setInterval(() => {
    if (Date.now() - lastBeat < options.hangMs) return;
    process.stdout.write(`HANG  ${current}: no progress for ${options.hangMs / 1000} s; replay with --target ${current} --seed ${options.seed}\n`);
    failures++;
    finished = true;
    clearInterval(watchdog);
    void worker.terminate();
  }, Math.min(1_000, options.hangMs));
  worker.on('message', (message: FromWorker) => {
    lastBeat = Date.now();
    switch (message.type) {
      case 'targets':
        if (message.names.length === 0) {
          process.stdout.write(`fuzz: no target is named "${options.target}" (--target takes a whole name)\n`);
          failures++;
        }
        return;
      case 'start':
        current = message.target;
        return;
      case 'input':
        return;
      case 'report': {
        const r = message.report;
        total += r.runs;
        const status = r.failure === null ? 'ok  ' : 'FAIL';
        process.stdout.write(`${status}  ${r.target.padEnd(26)} ${String(r.runs).padStart(7)} inputs  slowest ${Math.round(r.slowestMs)} ms\n`);
        if (r.failure !== null) {
          failures++;
          process.stdout.write(`      ${r.failure.message}\n      counterexample: ${r.failure.counterexample}\n`);
          process.stdout.write(`      replay: npm run fuzz -- --target ${r.target} --seed ${r.failure.seed} --path ${r.failure.path}\n`);
        }
        return;
      }
      case 'done':
        finished = true;
        clearInterval(watchdog);
        void worker.terminate();
        return;
    }
  });
  worker.on('error', (error) => {
    process.stdout.write(`FAIL  ${current}: uncaught ${error.name}: ${error.message}\n`);
    failures++;
    finished = true;
    clearInterval(watchdog);
  });
  worker.on('exit', () => {
    clearInterval(watchdog);
    if (!finished) {
      process.stdout.write(`FAIL  ${current}: the fuzz worker exited early (out of memory?)\n`);
      failures++;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(`fuzz: ${total.toLocaleString('en-US')} inputs in ${seconds} s, ${failures} failure${failures === 1 ? '' : 's'}\n`);
    process.exitCode = failures === 0 ? 0 : 1;
  });
}

if (isMainThread) mainThread();
else await workerMain(workerData as Options);
