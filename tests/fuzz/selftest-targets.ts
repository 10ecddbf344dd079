// Two deliberately broken fuzz targets (synthetic), loaded by tests/fuzz/script.test.ts through
// `scripts/fuzz.ts --targets`, to prove the script reports a failing target and kills a hanging one.
import fc from 'fast-check';
import type { FuzzTarget } from './targets.ts';

export async function fuzzTargets(): Promise<FuzzTarget[]> {
  return [
    {
      name: 'synthetic:fails-above-ten',
      weight: 1,
      arbitrary: fc.integer({ min: 0, max: 100 }),
      run: async (n) => ((n as number) > 10 ? 'synthetic violation' : null),
    },
    {
      name: 'synthetic:endless-loop',
      weight: 1,
      arbitrary: fc.integer(),
      run: async () => {
        // A synchronous endless loop: no in-thread timer can interrupt it, only the watchdog can.
        for (;;);
      },
    },
  ];
}
