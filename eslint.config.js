import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_APIS = { group: ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process'], message: 'this layer runs in the browser too: no Node APIs' };

/** A relative import from `layer` into any of `above` (src/<name>/...), which sit above it. */
function reachingUp(layer, above) {
  return {
    regex: `^(\\.\\./)+(src/)?(${above.join('|')})(/|$)`,
    message: `${layer} must not import from ${above.map((a) => `src/${a}`).join(', ')}: layers are core ← render ← (worker, cli) ← ui`,
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'lib/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'playwright-report/**', 'examples/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Small rooms (CONTRIBUTING.md): a function does one job, fits a screen, and takes its inputs by name. An exception
    // is written where it stands: `// eslint-disable-next-line <rule> -- <why>`.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      complexity: ['error', 20],
      'max-params': ['error', 4],
    },
  },
  // Layers: core ← render ← (worker, cli) ← ui; nothing reaches up (docs/architecture.md). `render` is the
  // rendering shared by the app and the HTML report (palette, treemap layout, number formatting), so it is neither's.
  {
    // The core runs in a Web Worker and in Node alike: no Node built-ins, no DOM-only modules.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NODE_APIS, reachingUp('src/core', ['render', 'worker', 'cli', 'ui'])] }],
      'no-restricted-globals': ['error', 'document', 'window', 'process', 'Buffer'],
    },
  },
  {
    // Shared by the page and the Node CLI: neither the DOM nor Node.
    files: ['src/render/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NODE_APIS, reachingUp('src/render', ['worker', 'cli', 'ui'])] }],
      'no-restricted-globals': ['error', 'document', 'window', 'process', 'Buffer'],
    },
  },
  {
    files: ['src/worker/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [reachingUp('src/worker', ['cli', 'ui'])] }] },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [reachingUp('src/cli', ['worker', 'ui'])] }] },
  },
  {
    files: ['bin/**/*.mjs', 'scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
