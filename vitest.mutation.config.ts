// The Vitest setup `npm run mutation` (Stryker) runs: the unit tests of src/core only. The spawned-CLI, hostile,
// leak, fuzz and conformance suites test the same code through slow end-to-end runs that time out under
// Stryker's instrumentation; they stay in `npm test`.
// CTXRAY_MUTATION_TESTS (comma-separated globs) narrows the suites to one folder's own tests for a per-folder run:
// otherwise every suite that imports the folder, however indirectly, runs against each of its mutants.
import { defineConfig } from 'vitest/config';

const only = process.env['CTXRAY_MUTATION_TESTS']?.split(',').filter((glob) => glob !== '');

export default defineConfig({
  test: {
    include: only !== undefined && only.length > 0 ? only : ['tests/**/*.test.ts'],
    exclude: ['tests/hostile/**', 'tests/leaks/**', 'tests/fuzz/**', 'tests/perf/**', 'tests/conformance/**', 'tests/cli/**', 'tests/qualify/**', 'tests/package/**', 'tests/record/**', 'tests/fs/**', 'node_modules/**'],
    testTimeout: 180_000,
    pool: 'threads',
  },
});
