// The seeded slice of the fuzzer that runs in `npm test`: every reader, a few dozen inputs each, fixed seed.
// `npm run fuzz -- --runs 100000 --seed N` runs the same targets at scale (scripts/fuzz.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzTargets } from './targets.ts';
import { runTarget } from './runner.ts';
import { realFixturesPresent } from './corpus.ts';

const targets = await fuzzTargets();
const RUNS_PER_TARGET = 25;
/** Each scale input is a few MB analyzed in its own thread (~0.7 s alone): fewer of them, and more time, in `npm test`. */
const SCALE_RUNS = 10;
const runsOf = (name: string) => (name.startsWith('scale:') ? SCALE_RUNS : RUNS_PER_TARGET);
/**
 * A hang detector, not a speed target (those are in `npm run bench`): 5 s per input, and for a scale input the
 * bound the bombs are held to, 30 s (one took 5.3 s on two cores shared with a mutation run).
 */
const budgetOf = (name: string) => (name.startsWith('scale:') ? 30_000 : 5_000);
const SEED = 20261130;

describe(`fuzz slice (${RUNS_PER_TARGET} inputs per target, seed ${SEED}${realFixturesPresent ? '' : '; real fixtures absent: synthetic and example seeds only'})`, () => {
  it('covers every reader family', () => {
    const families = new Set(targets.map((t) => t.name.split(':')[0]));
    expect([...families].sort()).toEqual(['analysis', 'clearing', 'cli', 'dupes', 'format', 'input', 'leaks', 'record', 'render', 'scale', 'ui', 'worker']);
  });

  it.each(targets.map((t) => [t.name, t] as const))('%s: no crash, no hang, every refusal located and coded', { timeout: 180_000 }, async (name, target) => {
    const report = await runTarget(target, { runs: runsOf(name), seed: SEED, budgetMs: budgetOf(name) });
    expect(report.failure).toBeNull();
    expect(report.runs).toBeGreaterThanOrEqual(runsOf(name));
  });
});

describe('the fuzz runner itself', () => {
  const integers = { name: 'synthetic', weight: 1, arbitrary: fc.integer({ min: 0, max: 1000 }) };

  it('reports a violation, shrunk to the smallest failing input', async () => {
    const report = await runTarget({ ...integers, run: async (n) => ((n as number) >= 500 ? 'too big' : null) }, { runs: 300, seed: 7, budgetMs: 1_000 });
    expect(report.failure?.message).toBe('too big');
    expect(report.failure?.counterexample).toBe('500');
  });

  it('reports an uncaught exception with its type', async () => {
    const report = await runTarget({ ...integers, run: async (n) => ((n as number) > 10 ? (JSON.parse('{') as null) : null) }, { runs: 300, seed: 7, budgetMs: 1_000 });
    expect(report.failure?.message).toMatch(/^SyntaxError: /);
  });

  it('reports an input over the time budget', async () => {
    const report = await runTarget({ ...integers, run: async () => { const end = performance.now() + 30; while (performance.now() < end); return null; } }, { runs: 3, seed: 7, budgetMs: 10 });
    expect(report.failure?.message).toMatch(/took \d+ ms \(budget 10 ms\)/);
  });
});
