// One benchmark case in its own process, so its peak RSS is its own: `case.ts <mode> <file> <runs>` where mode is
// `floor` or `analysis`. Prints one JSON line: { timesMs, peakRssBytes, requests }.
import { readFileSync } from 'node:fs';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { estimateClaudeTextTokens } from '../../src/core/tokens/claude.ts';
import { loadEncoding } from '../../src/core/tokens/openai.ts';

const [mode, file, runsText] = process.argv.slice(2);
if ((mode !== 'floor' && mode !== 'analysis') || !file) {
  console.error('usage: case.ts <floor|analysis> <file> <runs>');
  process.exit(1);
}
const runs = Number(runsText ?? '5');

/** Every distinct string leaf of a parsed record (texts, ids, JSON-string arguments, base64 data). */
function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) collectStrings(item, into);
}

/**
 * The floor: what any analyzer of this input must do at least — decompress and decode the bytes, JSON.parse every
 * record, and tokenize each distinct text once (Claude estimate or o200k_base, as the input's provider needs).
 */
async function floor(bytes: Uint8Array): Promise<number> {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? new Uint8Array(await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()) : bytes;
  const text = new TextDecoder().decode(raw);
  const strings = new Set<string>();
  let records = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) {
      collectStrings(JSON.parse(text.slice(start, end)), strings);
      records++;
    }
    start = end + 1;
  }
  const openai = text.includes('"gpt-') || text.includes('"o3') || text.includes('"o4');
  const count = openai ? await loadEncoding('o200k_base') : estimateClaudeTextTokens;
  let tokens = 0;
  for (const s of strings) tokens += count(s);
  return tokens > 0 ? records : records;
}

const bytes = new Uint8Array(readFileSync(file));
const timesMs: number[] = [];
let requests = 0;
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  if (mode === 'floor') requests = await floor(bytes);
  else requests = (await analyzeInput([{ name: file, bytes }])).requests.length;
  timesMs.push(performance.now() - t0);
}
console.log(JSON.stringify({ timesMs, peakRssBytes: process.resourceUsage().maxRSS * 1024, requests }));
