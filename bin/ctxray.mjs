#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader so the CLI and the web app share one source tree.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
