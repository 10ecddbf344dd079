#!/usr/bin/env node
// The installed `ctxray` command (package.json "bin" → lib/bin/ctxray.js, bundled by `npm run build`): plain
// JavaScript, no TypeScript loader. bin/ctxray.mjs is the checkout's launcher of the same main() from the sources.
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
