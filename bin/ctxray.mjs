#!/usr/bin/env node
// The checkout's launcher: runs the TypeScript CLI sources through tsx (a devDependency), so tests and edits need
// no rebuild. The package's `ctxray` command is lib/bin/ctxray.js, the same main() bundled to plain JavaScript by
// `npm run build:lib` (run by `npm ci` and `npm pack` through "prepare"); `npx ctxray` in a checkout runs that.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
