// One input file → a `ctxray.dupes/1` record. Decides what the bytes are (a contract envelope, a raw ConeReplay
// trace, or any request log the analyzer reads), maps it to blocks and measures. Pure core: no Node APIs, nothing
// is executed or fetched, so the CLI and the web worker share it.
import { concatBytes } from '../input/bytes.ts';
import { refuse } from './codes.ts';
import { MAX_ENVELOPE_BYTES, MAX_LOG_BYTES } from './limits.ts';
import { firstObjectKeys } from './json-scan.ts';
import { parseBoundedJson, parseBoundedJsonLines } from './bounded-json.ts';
import { readEnvelopeBytes } from './envelope.ts';
import { coneReplayEventBlocks } from './adapters/conereplay-v1.ts';
import { requestLogBlocks } from './request-log.ts';
import { buildDupesRecord, type DupesRecord } from './record.ts';
import { BlockMeasurer } from './measure.ts';
import type { Conversations } from '../cache/conversations.ts';
import { isPlainObject, type SourceOutcome } from './types.ts';
import { gunzipChunks, hasGzipMagic } from '../input/gzip.ts';
import { readRequests, WorkLimitError, type InputLimits } from '../input/index.ts';
import { rawChunks } from '../input/source.ts';
import type { ParsedRequest, ReadError } from '../model.ts';

export interface DupesInput {
  /** File name, used only to pick a decoder (e.g. `.gz`); never written to the record. */
  name: string;
  /**
   * The file's bytes, or a stream of them: the CLI streams a file or standard input, so a request log of up to
   * 2 GiB is read as it arrives instead of held whole (only the first MiB is kept, to classify it).
   */
  bytes: Uint8Array | ReadableStream<Uint8Array>;
}

export interface EvaluateOptions {
  signal?: AbortSignal;
  /** Request-log size cap after decompression; MAX_LOG_BYTES unless a test lowers it. */
  maxLogBytes?: number;
  /** The reader's work limits (records, requests, …), raised by the CLI's --max-* flags or lowered by tests. */
  limits?: Partial<InputLimits>;
}

/** What a file is, judged from the keys of its first JSON object. */
export type DupesInputKind = 'envelope' | 'conereplay-trace' | 'conereplay-jsonl' | 'request-log';

/** EventRecord fields that, next to `event_id`, mark a ConeReplay event (reference/log-formats.md §3). */
const EVENT_KEYS = ['inputs', 'outputs', 'causal_parents', 'turn_seq'] as const;
const SNIFFED_KEYS: ReadonlySet<string> = new Set(['suite', 'adapter', 'blocks', 'events', 'event_id', ...EVENT_KEYS]);

/**
 * An object with `suite`, `adapter` or `blocks` is a contract envelope (validated strictly from there on, so a
 * malformed envelope is refused rather than read as something else). An object with `events` is a bare
 * ConeReplay trace; one with `event_id` and another EventRecord field (`inputs`, `outputs`, `causal_parents`,
 * `turn_seq`) is the first line of a JSONL trace — so an event missing `inputs` is refused, not misread. Anything
 * else is handed to the request-log reader.
 */
export function classifyDupesInput(bytes: Uint8Array): DupesInputKind {
  const keys = firstObjectKeys(bytes, SNIFFED_KEYS);
  if (keys.has('suite') || keys.has('adapter') || keys.has('blocks')) return 'envelope';
  if (keys.has('events')) return 'conereplay-trace';
  if (keys.has('event_id') && EVENT_KEYS.some((key) => keys.has(key))) return 'conereplay-jsonl';
  return 'request-log';
}

function isUtf16(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

function decodeUtf16(bytes: Uint8Array): string {
  return new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes);
}

async function* single(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/**
 * The input's raw chunks, readable twice from the start: once for its head (classification) and once whole (the
 * log reader). The chunks the head took are kept and given again; the rest is read only once, as it arrives.
 */
class Rereadable {
  private readonly kept: Uint8Array[] = [];
  private readonly source: AsyncIterator<Uint8Array> | null;

  constructor(private readonly input: Uint8Array | ReadableStream<Uint8Array>) {
    this.source = input instanceof Uint8Array ? null : rawChunks(input, () => undefined)[Symbol.asyncIterator]();
  }

  /** The whole input when it was given as bytes (then nothing is streamed). */
  get held(): Uint8Array | null {
    return this.input instanceof Uint8Array ? this.input : null;
  }

  /** From the start, keeping every chunk read from the source for `whole`. */
  async *head(): AsyncGenerator<Uint8Array> {
    if (this.source === null) return yield* single(this.input as Uint8Array);
    yield* this.kept;
    for (;;) {
      const next = await this.source.next();
      if (next.done) return;
      this.kept.push(next.value);
      yield next.value;
    }
  }

  /** From the start, once: the kept chunks, then the source, which is closed when the reading stops early. */
  async *whole(): AsyncGenerator<Uint8Array> {
    if (this.source === null) return yield* single(this.input as Uint8Array);
    const kept = this.kept.splice(0);
    yield* kept;
    try {
      for (;;) {
        const next = await this.source.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await this.source.return?.(undefined);
    }
  }

  /** Closes the source when the input was classified without being read whole (an envelope, a refusal). */
  async close(): Promise<void> {
    await this.source?.return?.(undefined);
  }
}

/** The first bytes of the input (at least `length` unless it is shorter), without consuming it. */
async function firstBytes(input: Rereadable, length: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of input.head()) {
    chunks.push(chunk);
    total += chunk.byteLength;
    if (total >= length) break;
  }
  return concatBytes(chunks, total);
}

/**
 * The decompressed bytes, read no further than one byte past the envelope cap: enough to refuse an oversize
 * envelope and to classify the file, without inflating a large gzipped log here (the log reader streams it).
 */
async function decompressedHead(input: Rereadable, gzip: boolean, signal?: AbortSignal): Promise<{ head: Uint8Array; complete: boolean }> {
  if (!gzip && input.held !== null) return { head: input.held, complete: true };
  const chunks: Uint8Array[] = [];
  let length = 0;
  const decoded = gzip ? gunzipChunks(input.head(), Number.MAX_SAFE_INTEGER, signal) : input.head();
  for await (const chunk of decoded) {
    chunks.push(chunk);
    length += chunk.byteLength;
    if (length > MAX_ENVELOPE_BYTES) return { head: concatBytes(chunks, length), complete: false };
  }
  return { head: concatBytes(chunks, length), complete: true };
}



function bareTraceBlocks(bytes: Uint8Array): SourceOutcome {
  const parsed = parseBoundedJson(bytes);
  if (!parsed.ok) return { ok: false, refusal: parsed.refusal, adapter: 'conereplay-v1', mapping: 'conereplay-events-v1' };
  const events = isPlainObject(parsed.value) ? parsed.value['events'] : undefined;
  return coneReplayEventBlocks(events);
}

function jsonlTraceBlocks(bytes: Uint8Array): SourceOutcome {
  const parsed = parseBoundedJsonLines(bytes);
  if (!parsed.ok) return { ok: false, refusal: parsed.refusal, adapter: 'conereplay-v1', mapping: 'conereplay-events-v1' };
  return coneReplayEventBlocks(parsed.value);
}

/** A log none of whose records could be read is no log of requests: refused, not measured as empty. */
function unreadLogRecord(skippedRecords: number): DupesRecord {
  return buildDupesRecord(
    { ok: false, refusal: refuse('UNSUPPORTED_INPUT', { skippedRecords }), adapter: null, mapping: 'request-log-last-requests-v1' },
    { skippedRecords },
  );
}

/**
 * The record for requests already read (the web app's loaded log): request-log-last-requests-v1. `conversations`
 * are the requests' conversations when the cache analysis found them already (else found here).
 */
export function dupesRecordForRequests(requests: readonly ParsedRequest[], skippedRecords: number, conversations?: Conversations): DupesRecord {
  if (requests.length === 0 && skippedRecords > 0) return unreadLogRecord(skippedRecords);
  return buildDupesRecord({ ok: true, source: requestLogBlocks(requests, conversations) }, { skippedRecords });
}

export interface SlicedOptions {
  conversations?: Conversations;
  /** Blocks measured between two pauses. */
  sliceBlocks: number;
  /** Awaited between slices: the caller answers other work there (the web worker yields to its message queue). */
  pause: () => Promise<void>;
  signal?: AbortSignal;
}

/** The same record as `dupesRecordForRequests`, measured in slices with a pause between them; abortable. */
export async function dupesRecordForRequestsInSlices(
  requests: readonly ParsedRequest[],
  skippedRecords: number,
  options: SlicedOptions,
): Promise<DupesRecord> {
  if (requests.length === 0 && skippedRecords > 0) return unreadLogRecord(skippedRecords);
  const source = requestLogBlocks(requests, options.conversations);
  const measurer = new BlockMeasurer();
  const slice = Math.max(1, options.sliceBlocks);
  for (let i = 0; i < source.blocks.length; i++) {
    measurer.add(source.blocks[i]!);
    if ((i + 1) % slice === 0) {
      await options.pause();
      options.signal?.throwIfAborted();
    }
  }
  return buildDupesRecord({ ok: true, source }, { skippedRecords, measured: measurer.finish() });
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

export async function evaluateDupesInput(input: DupesInput, options: EvaluateOptions = {}): Promise<DupesRecord> {
  return (await evaluateDupesInputDetailed(input, options)).record;
}

export interface DupesEvaluation {
  record: DupesRecord;
  /**
   * The first record of a request log that could not be read, with its line and located, payload-free message.
   * For the terminal only (why a log was UNSUPPORTED_INPUT); the record keeps to its fixed detail fields.
   */
  firstReadError: ReadError | null;
}

export async function evaluateDupesInputDetailed(input: DupesInput, options: EvaluateOptions = {}): Promise<DupesEvaluation> {
  const diagnostics: { firstReadError: ReadError | null } = { firstReadError: null };
  const record = await evaluate(input, options, diagnostics);
  return { record, firstReadError: diagnostics.firstReadError };
}

async function evaluate(
  input: DupesInput,
  options: EvaluateOptions,
  diagnostics: { firstReadError: ReadError | null },
): Promise<DupesRecord> {
  const raw = new Rereadable(input.bytes);
  try {
    return await evaluateRereadable(raw, input.name, options, diagnostics);
  } finally {
    await raw.close();
  }
}

async function evaluateRereadable(
  raw: Rereadable,
  name: string,
  options: EvaluateOptions,
  diagnostics: { firstReadError: ReadError | null },
): Promise<DupesRecord> {
  const { signal } = options;
  let head: Uint8Array;
  let complete: boolean;
  let gzip: boolean;
  try {
    gzip = hasGzipMagic(await firstBytes(raw, 2));
    ({ head, complete } = await decompressedHead(raw, gzip, signal));
  } catch (error) {
    if (isAbort(error, signal)) throw error;
    return buildDupesRecord({ ok: false, refusal: refuse('INPUT_UNREADABLE'), adapter: null, mapping: null });
  }
  return nonLogRecord(head, complete) ?? (await evaluateLog(raw, { name, gzip }, options, diagnostics));
}

/** The record of an envelope or a trace (from the head, which is all of it when `complete`); null for a request log. */
function nonLogRecord(head: Uint8Array, complete: boolean): DupesRecord | null {
  if (isUtf16(head) && classifyDupesInput(new TextEncoder().encode(decodeUtf16(head))) !== 'request-log') {
    // The contract's envelopes and traces are UTF-8 only; say so instead of calling the file unsupported.
    return buildDupesRecord({ ok: false, refusal: refuse('INVALID_UTF8', { byteOffset: 0 }), adapter: null, mapping: null });
  }
  const kind = classifyDupesInput(head);
  if (kind !== 'request-log' && !complete) {
    // Inflating stopped just past the cap, so the true size is unknown: report the cap only.
    const refusal = refuse('ENVELOPE_TOO_LARGE', { limit: MAX_ENVELOPE_BYTES });
    const adapter = kind === 'envelope' ? null : 'conereplay-v1';
    return buildDupesRecord({ ok: false, refusal, adapter, mapping: adapter === null ? null : 'conereplay-events-v1' });
  }
  switch (kind) {
    case 'envelope':
      return buildDupesRecord(readEnvelopeBytes(head));
    case 'conereplay-trace':
      return buildDupesRecord(bareTraceBlocks(head));
    case 'conereplay-jsonl':
      return buildDupesRecord(jsonlTraceBlocks(head));
    case 'request-log':
      return null;
  }
}

/** A request log read with the request reader, held to the log cap; `gzip` when the input is compressed. */
async function evaluateLog(
  raw: Rereadable,
  input: { name: string; gzip: boolean },
  options: EvaluateOptions,
  diagnostics: { firstReadError: ReadError | null },
): Promise<DupesRecord> {
  const { signal } = options;
  const { name, gzip } = input;
  const maxLogBytes = options.maxLogBytes ?? MAX_LOG_BYTES;
  const logRefusal = (actual?: number): DupesRecord =>
    buildDupesRecord({
      ok: false,
      refusal: refuse('LOG_TOO_LARGE', { limit: maxLogBytes, ...(actual !== undefined && { actual }) }),
      adapter: null,
      mapping: 'request-log-last-requests-v1',
    });
  if (!gzip && raw.held !== null && raw.held.byteLength > maxLogBytes) return logRefusal(raw.held.byteLength);
  try {
    // A stream is held to the cap as it arrives (the CLI refuses a larger file by its size before reading it).
    const file = gzip
      ? { name: name.replace(/\.gz$/i, ''), bytes: capped(inflatedLog(raw.whole(), signal), maxLogBytes) }
      : { name, bytes: raw.held ?? capped(raw.whole(), maxLogBytes) };
    // The reader's own ceiling is lowered too: a gzip member inside the inflated bytes is inflated again there.
    const limits = { ...options.limits, maxDecompressedBytes: maxLogBytes };
    const read = await readRequests([file], { limits, ...(signal && { signal }) });
    diagnostics.firstReadError = read.errors[0] ?? null;
    return dupesRecordForRequests(read.requests, read.errors.length);
  } catch (error) {
    if (isAbort(error, signal)) throw error;
    // Inflating stopped one chunk past the cap, so only the cap is known.
    if (error instanceof LogTooLarge) return logRefusal();
    if (error instanceof WorkLimitError) {
      return buildDupesRecord({
        ok: false,
        refusal: refuse(error.code, { limit: error.limit, ...(error.line > 0 && { line: error.line }) }),
        adapter: null,
        mapping: 'request-log-last-requests-v1',
      });
    }
    return buildDupesRecord({ ok: false, refusal: refuse('INPUT_UNREADABLE'), adapter: null, mapping: null });
  }
}

/**
 * The inflated bytes; a gzip stream inside the gzip (a log compressed twice) is inflated too, so that the cap
 * counts what the reader will read rather than letting the reader inflate the inner layer on its own.
 */
async function* inflatedLog(raw: AsyncIterable<Uint8Array>, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  const outer = gunzipChunks(raw, Number.MAX_SAFE_INTEGER, signal);
  const first = await outer.next();
  if (first.done) return;
  async function* whole(): AsyncGenerator<Uint8Array> {
    yield first.value as Uint8Array;
    yield* outer;
  }
  if (hasGzipMagic(first.value)) yield* gunzipChunks(whole(), Number.MAX_SAFE_INTEGER, signal);
  else yield* whole();
}

/** Not an InputError: the log reader lets it through instead of listing it as a file-level read error. */
class LogTooLarge extends Error {
  override name = 'LogTooLarge';
}

/**
 * The log's (inflated) bytes as a stream that fails with LogTooLarge once more than `maxBytes` came out. The
 * reader then sees plain JSONL (hence a gzip log's name without `.gz`); corrupt gzip still reaches it as its own error.
 */
function capped(chunks: AsyncGenerator<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) {
        controller.close();
        return;
      }
      total += next.value.byteLength;
      if (total > maxBytes) {
        await chunks.return(undefined);
        throw new LogTooLarge();
      }
      controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
