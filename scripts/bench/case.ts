// One benchmark case in its own process, so its peak RSS is its own: `case.ts <mode> <file> <runs>`.
//   floor | analysis: time that alone; prints { timesMs, cpuMs, peakRssBytes, requests }.
//   paired: alternate floor and analysis run by run, so both see the same load on a shared machine; prints
//           { floor: { timesMs, cpuMs }, analysis: { timesMs, cpuMs }, requests }.
// `analysis` reads the file as a stream (fs.createReadStream → web ReadableStream), as the CLI does, so its peak
// RSS shows what streaming holds rather than the whole file in memory. A folder is read by `ctxray analyze
// <folder> --json -` itself (one session at a time, in this process); its floor is the file floor over each file
// in turn.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { listFolder } from '../../src/cli/fs/folder-inputs.ts';
import { main } from '../../src/cli/main.ts';
import { processIO } from '../../src/cli/io.ts';
import { loadEncoding } from '../../src/core/tokens/openai.ts';

const [mode, file, runsText, speed] = process.argv.slice(2);
// `summary`: a folder's summary from recorded usage (`ctxray analyze <folder>`, no --json) against the read floor.
const summary = speed === 'summary';
if ((mode !== 'floor' && mode !== 'analysis' && mode !== 'paired') || !file) {
  console.error('usage: case.ts <floor|analysis|paired> <file> <runs>');
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
 * record, and tokenize each distinct text once with o200k_base (OpenAI's count, and the base of the Claude estimate).
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
  const count = await loadEncoding('o200k_base');
  let tokens = 0;
  for (const s of strings) tokens += count(s);
  return tokens > 0 ? records : records;
}

/**
 * The full analysis (reading, tokens, conversations, cache simulation, cost, findings). Timed runs start from the
 * same bytes in memory as the floor; the `analysis` mode reads a file stream instead, as the CLI does.
 */
async function folderFloor(folder: string): Promise<number> {
  let records = 0;
  for (const entry of listFolder(folder, '.').files) records += await floor(new Uint8Array(readFileSync(entry.full)));
  return records;
}

/** The floor of a folder's summary: read every file, decode it and JSON.parse every line; nothing tokenized. */
function readFloor(folder: string): number {
  let records = 0;
  for (const entry of listFolder(folder, '.').files) {
    const text = new TextDecoder().decode(readFileSync(entry.full));
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (end > start) {
        JSON.parse(text.slice(start, end));
        records++;
      }
      start = end + 1;
    }
  }
  return records;
}

/** `ctxray analyze <folder>` (the summary from recorded usage) in this process; its request count from the report. */
async function folderSummary(folder: string): Promise<number> {
  let stdout = '';
  const io = { ...processIO(), stdout: (text: string) => void (stdout += text), stderr: () => undefined };
  const exit = await main(['analyze', folder], io);
  if (exit !== 0) throw new Error(`ctxray analyze ${folder} exited ${exit}`);
  return Number(/, ([\d,]+) requests?/.exec(stdout)?.[1]?.replaceAll(',', '') ?? 'NaN');
}

/** `ctxray analyze <folder> --json -` in this process (one session at a time), stdout kept for its request count. */
async function folderAnalysis(folder: string): Promise<number> {
  let stdout = '';
  const io = { ...processIO(), stdout: (text: string) => void (stdout += text), stderr: () => undefined };
  const exit = await main(['analyze', folder, '--json', '-'], io);
  if (exit !== 0) throw new Error(`ctxray analyze ${folder} exited ${exit}`);
  return (JSON.parse(stdout) as { folder: { requests: number } }).folder.requests;
}

async function analysis(source: Uint8Array | string): Promise<number> {
  const input =
    typeof source === 'string'
      ? { name: source, bytes: Readable.toWeb(createReadStream(source)) as ReadableStream<Uint8Array>, size: statSync(source).size }
      : { name: file!, bytes: source };
  return (await analyzeInput([input])).requests.length;
}

interface Timing {
  timesMs: number[];
  cpuMs: number[];
}

/** Wall and CPU time of one run: CPU time (user + system) moves far less than wall time under a shared load. */
async function timed(into: Timing, run: () => Promise<number>): Promise<number> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const requests = await run();
  const used = process.cpuUsage(cpu);
  into.timesMs.push(performance.now() - wall);
  into.cpuMs.push((used.user + used.system) / 1000);
  return requests;
}

const floorTiming: Timing = { timesMs: [], cpuMs: [] };
const analysisTiming: Timing = { timesMs: [], cpuMs: [] };
let requests = 0;
// The floor keeps the whole file in memory; only `floor` and `paired` runs read it.
const folder = statSync(file).isDirectory();
const bytes = mode === 'analysis' || folder ? null : new Uint8Array(readFileSync(file));
for (let i = 0; i < runs; i++) {
  if (folder) {
    if (mode !== 'analysis') requests = await timed(floorTiming, async () => (summary ? readFloor(file) : folderFloor(file)));
    if (mode !== 'floor') requests = await timed(analysisTiming, () => (summary ? folderSummary(file) : folderAnalysis(file)));
    continue;
  }
  if (bytes !== null) requests = await timed(floorTiming, () => floor(bytes));
  if (mode !== 'floor') requests = await timed(analysisTiming, () => analysis(bytes ?? file));
}
const peakRssBytes = process.resourceUsage().maxRSS * 1024;
if (mode === 'paired') console.log(JSON.stringify({ floor: floorTiming, analysis: analysisTiming, requests }));
else console.log(JSON.stringify({ ...(mode === 'floor' ? floorTiming : analysisTiming), peakRssBytes, requests }));
