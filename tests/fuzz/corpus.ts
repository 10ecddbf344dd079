// Seed inputs for mutation fuzzing: the real third-party fixtures (read in place from ../shared/fixtures/real,
// never copied) and the project's synthetic examples. Large files are cut to their first records so one mutated
// input stays cheap; every seed keeps whole lines, so the unmutated seed is still a well-formed file.
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const REAL_FIXTURES = path.resolve(REPO_ROOT, '../shared/fixtures/real');
export const EXAMPLES = path.join(REPO_ROOT, 'examples');
export const realFixturesPresent = fs.existsSync(REAL_FIXTURES);

export interface Seed {
  /** Where it came from, relative to its root (for failure reports; never written into a record). */
  name: string;
  bytes: Uint8Array;
}

/** Most bytes of one seed: bigger files are cut at a line boundary at or before this size. */
export const MAX_SEED_BYTES = 48 * 1024;

function walk(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.isFile()) out.push(full);
  }
  return out.sort();
}

/** The first whole lines of `bytes` that fit in `max` bytes (at least one line, itself cut if it must be). */
export function headLines(bytes: Uint8Array, max: number): Uint8Array {
  if (bytes.byteLength <= max) return bytes;
  const cut = bytes.subarray(0, max).lastIndexOf(0x0a);
  return bytes.slice(0, cut > 0 ? cut + 1 : max);
}

function load(file: string): Uint8Array {
  const raw = new Uint8Array(fs.readFileSync(file));
  return file.endsWith('.gz') ? new Uint8Array(gunzipSync(raw)) : raw;
}

let cached: { requestLogs: Seed[]; transcripts: Seed[]; piJournals: Seed[] } | null = null;

/**
 * requestLogs: wire request bodies (one body, JSONL, gateway logs); transcripts: agent session logs;
 * piJournals: pi session files (also transcripts), the clearing analysis' journal input.
 */
export function seedCorpus(): { requestLogs: Seed[]; transcripts: Seed[]; piJournals: Seed[] } {
  if (cached) return cached;
  const requestLogs: Seed[] = [];
  const transcripts: Seed[] = [];
  const piJournals: Seed[] = [];
  for (const file of walk(REAL_FIXTURES)) {
    const name = path.relative(REAL_FIXTURES, file);
    if (!/\.jsonl?$/.test(name) || name.includes('.usage.')) continue;
    const seed = { name: `real/${name}`, bytes: headLines(load(file), MAX_SEED_BYTES) };
    if (name.startsWith('transcripts/')) transcripts.push(seed);
    else requestLogs.push(seed);
    if (name.startsWith('transcripts/pi/')) piJournals.push(seed);
  }
  for (const file of walk(EXAMPLES)) {
    const name = path.relative(EXAMPLES, file);
    if (!/\.jsonl(\.gz)?$|\.json$/.test(name) || name === 'index.json') continue;
    requestLogs.push({ name: `examples/${name}`, bytes: headLines(load(file), MAX_SEED_BYTES) });
  }
  cached = { requestLogs, transcripts, piJournals };
  return cached;
}
