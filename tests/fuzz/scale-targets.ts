// Fuzz target for scale (`scale:large-input`): a large generated input (the bomb bench's shapes, up to a few MB
// and tens of thousands of blocks) read, analyzed, rendered as the HTML report and checked by dupes in a worker
// thread whose heap is capped. The run must stay under the heap budget (the thread is stopped by V8 otherwise)
// and under the runner's time budget per input, and end in an analysis or a located work-limit refusal.
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import type { FuzzTarget } from './targets.ts';
import type { ScaleCase, ScaleShape } from './scale-inputs.ts';
import type { ScaleReport } from './scale-worker.ts';

/** Heap budget of one large input: inputs of up to ~6 MB, so about 80 × the input at worst. */
export const SCALE_HEAP_BUDGET_MB = 512;

const SIZES: Record<ScaleShape, { size: [number, number]; width: [number, number] }> = {
  'tiny-records': { size: [2_000, 30_000], width: [1, 5_000] },
  'growing-conversation': { size: [20, 150], width: [1, 40] },
  'near-duplicates': { size: [200, 3_000], width: [1, 1] },
  reordered: { size: [500, 5_000], width: [2, 6] },
  'blank-lines': { size: [10_000, 1_500_000], width: [1, 1] },
};

const scaleCase: fc.Arbitrary<ScaleCase> = fc
  .constantFrom(...(Object.keys(SIZES) as ScaleShape[]))
  .chain((shape) =>
    fc.record({
      shape: fc.constant(shape),
      size: fc.integer({ min: SIZES[shape].size[0], max: SIZES[shape].size[1] }),
      width: fc.integer({ min: SIZES[shape].width[0], max: SIZES[shape].width[1] }),
      gzip: fc.boolean(),
    }),
  );

/** One worker thread reused across inputs (starting one costs a second); replaced after it dies. */
let worker: Worker | null = null;

function scaleWorker(): Worker {
  if (worker !== null) return worker;
  const module = new URL('./scale-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}); });`;
  const started = new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: SCALE_HEAP_BUDGET_MB } });
  started.unref();
  started.once('exit', () => {
    if (worker === started) worker = null;
  });
  worker = started;
  return started;
}

function runCase(input: ScaleCase): Promise<ScaleReport | { died: string }> {
  const thread = scaleWorker();
  // Held while a case runs (the awaiting thread may have nothing else keeping it alive), let go between cases.
  thread.ref();
  return new Promise((resolve) => {
    const onMessage = (report: ScaleReport) => {
      thread.off('error', onError);
      thread.unref();
      resolve(report);
    };
    const onError = (error: Error) => {
      thread.off('message', onMessage);
      worker = null;
      void thread.terminate();
      resolve({ died: `${error.name}: ${error.message}`.slice(0, 200) });
    };
    thread.once('message', onMessage);
    thread.once('error', onError);
    thread.postMessage(input);
  });
}

export function scaleTargets(): FuzzTarget[] {
  return [
    {
      name: 'scale:large-input',
      weight: 1,
      arbitrary: scaleCase,
      async run(input) {
        const result = await runCase(input as ScaleCase);
        if ('died' in result) return `the run stopped over its heap budget of ${SCALE_HEAP_BUDGET_MB} MB (${result.died})`;
        if (result.error !== null && !result.error.startsWith('WorkLimitError: ')) return `not a located refusal: ${result.error.slice(0, 200)}`;
        if (result.peakHeapUsedBytes > SCALE_HEAP_BUDGET_MB * 1024 * 1024) return `heap in use reached ${Math.round(result.peakHeapUsedBytes / 2 ** 20)} MB`;
        return null;
      },
    },
  ];
}
