// Runs one fuzz target through fast-check: a seeded, replayable series of inputs, each checked against the
// target's invariants and a per-input time budget. Failures are shrunk to a small counterexample and reported
// with the seed and path that replay them.
import fc from 'fast-check';
import type { FuzzTarget } from './targets.ts';

export interface TargetReport {
  target: string;
  runs: number;
  /** Slowest single input, in milliseconds. */
  slowestMs: number;
  failure: { message: string; counterexample: string; seed: number; path: string } | null;
}

export interface RunOptions {
  runs: number;
  seed: number;
  /** Longest one input may take before it counts as a hang. */
  budgetMs: number;
  /** Replays one recorded failure (fast-check's counterexample path). */
  path?: string;
  /** Called after every input (the fuzz script's watchdog heartbeat). */
  onInput?: () => void;
}

export class OverBudget extends Error {}

function summarize(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? `<${v.byteLength} bytes>` : v)) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

export async function runTarget(target: FuzzTarget, options: RunOptions): Promise<TargetReport> {
  let runs = 0;
  let slowestMs = 0;
  const property = fc.asyncProperty(target.arbitrary, async (input) => {
    const started = performance.now();
    const violation = await target.run(input);
    const elapsed = performance.now() - started;
    runs++;
    slowestMs = Math.max(slowestMs, elapsed);
    options.onInput?.();
    if (violation !== null) throw new Error(violation);
    if (elapsed > options.budgetMs) throw new OverBudget(`one input took ${Math.round(elapsed)} ms (budget ${options.budgetMs} ms)`);
  });
  let details: Awaited<ReturnType<typeof fc.check<[unknown]>>>;
  try {
    details = await fc.check(property, {
      numRuns: options.runs,
      seed: options.seed,
      ...(options.path !== undefined && { path: options.path }),
    });
  } catch (error) {
    // Thrown outside the property: the input generator itself failed (a fuzzer bug, still reported as a failure).
    const message = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
    return { target: target.name, runs, slowestMs, failure: { message: `input generator failed: ${message}`, counterexample: '', seed: options.seed, path: '' } };
  }
  if (!details.failed) return { target: target.name, runs, slowestMs, failure: null };
  const error = details.errorInstance;
  const message = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return {
    target: target.name,
    runs,
    slowestMs,
    failure: {
      message,
      counterexample: summarize(details.counterexample?.[0]),
      seed: details.seed,
      path: details.counterexamplePath ?? '',
    },
  };
}
