// The Vitest setup `npm run mutation` (Stryker) runs: the unit tests of src/core only. The spawned-CLI, hostile,
// leak, fuzz and conformance suites test the same code through slow end-to-end runs that time out under
// Stryker's instrumentation; they stay in `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/hostile/**', 'tests/leaks/**', 'tests/fuzz/**', 'tests/perf/**', 'tests/conformance/**', 'tests/cli/**', 'tests/qualify/**', 'tests/package/**', 'tests/record/**', 'tests/fs/**', 'node_modules/**'],
    testTimeout: 180_000,
    pool: 'threads',
  },
});
