// Runs in a worker thread started by the `scale:large-input` fuzz target (scale-targets.ts) under a heap limit:
// builds one large synthetic input of the shape asked for, reads and analyzes it as `ctxray analyze --html` and
// `ctxray dupes` do, and reports how long that took and the heap it left in use.
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { evaluateDupesInput } from '../../src/core/dupes/evaluate.ts';
import { renderHtmlReport } from '../../src/render/report/html.ts';
import { largeInput, type ScaleCase } from './scale-inputs.ts';

export interface ScaleReport {
  inputBytes: number;
  ms: number;
  /** Heap in use right after the run, before the input is dropped (bytes). */
  heapUsedBytes: number;
  /** Most heap in use seen at the checkpoints between stages (bytes). */
  peakHeapUsedBytes: number;
  error: string | null;
}

parentPort!.on('message', (scaleCase: ScaleCase) => {
  void (async () => {
    let peak = 0;
    const checkpoint = () => (peak = Math.max(peak, getHeapStatistics().used_heap_size));
    let text: string | null = largeInput(scaleCase);
    const bytes = scaleCase.gzip ? new Uint8Array(gzipSync(text)) : new TextEncoder().encode(text);
    text = null;
    checkpoint();
    const started = performance.now();
    try {
      const analysis = await analyzeInput([{ name: scaleCase.gzip ? 'synthetic.jsonl.gz' : 'synthetic.jsonl', bytes }]);
      checkpoint();
      JSON.stringify(buildRecord(analysis));
      if (analysis.cache) renderHtmlReport(analysis, analysis.cache, { content: false });
      checkpoint();
      JSON.stringify(await evaluateDupesInput({ name: 'synthetic.jsonl', bytes }));
      checkpoint();
      const report: ScaleReport = { inputBytes: bytes.byteLength, ms: performance.now() - started, heapUsedBytes: getHeapStatistics().used_heap_size, peakHeapUsedBytes: peak, error: null };
      parentPort!.postMessage(report);
    } catch (error) {
      // A located refusal (a work limit) is a fine outcome; the target checks it is one.
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      parentPort!.postMessage({ inputBytes: bytes.byteLength, ms: performance.now() - started, heapUsedBytes: 0, peakHeapUsedBytes: peak, error: message } satisfies ScaleReport);
    }
  })();
});
