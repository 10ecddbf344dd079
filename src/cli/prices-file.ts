// `--prices FILE`: reads the negotiated-rates file and hands its text to the core's validator, so a bad file stops
// the run before anything is read, with every problem located (docs/pricing.md, "Your own prices").
import fs from 'node:fs';
import path from 'node:path';
import { parsePriceOverrides, PricesFileError, type PriceOverrides } from '../core/pricing/overrides.ts';
import { describeFsError } from './fs/folder-inputs.ts';

/** A prices file is a few kilobytes; anything far larger is not one. */
const MAX_PRICES_BYTES = 1024 * 1024;

export type PricesLoad = { ok: true; prices: PriceOverrides } | { ok: false; message: string };

export function loadPricesFile(file: string, cwd: string): PricesLoad {
  const full = path.resolve(cwd, file);
  let text: string;
  try {
    const stats = fs.statSync(full);
    if (!stats.isFile()) return { ok: false, message: `--prices ${file}: not a file` };
    if (stats.size > MAX_PRICES_BYTES) return { ok: false, message: `--prices ${file}: ${stats.size} bytes, above the ${MAX_PRICES_BYTES}-byte limit of a prices file` };
    text = new TextDecoder('utf-8', { fatal: true }).decode(fs.readFileSync(full));
  } catch (error) {
    if (error instanceof TypeError) return { ok: false, message: `--prices ${file}: not UTF-8 text` };
    return { ok: false, message: `--prices ${file}: cannot read it (${describeFsError(error)})` };
  }
  try {
    return { ok: true, prices: parsePriceOverrides(text, file) };
  } catch (error) {
    if (error instanceof PricesFileError) return { ok: false, message: `--prices: ${error.problems.length} problem(s):\n  ${error.problems.join('\n  ')}` };
    throw error;
  }
}
