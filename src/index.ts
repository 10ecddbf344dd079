// The library entry (`import { analyze, dupes, clearing } from 'ctxray'`, docs/library.md): the CLI's three
// analyses as functions over bytes, strings or streams, each resolving to the record the CLI writes as JSON.
// Node only: clearing checks the installed @mariozechner/pi-ai version, and sql.js loads its wasm from its package.
import initSqlJs from 'sql.js';
import { analyzeInput } from './core/analysis/analyze.ts';
import { unreadableFiles } from './core/analysis/unreadable.ts';
import { ANALYSIS_SCHEMA, buildRecord, type ErrorRecord, type FileRecord, type RequestRecord } from './core/analysis/record.ts';
import type { ModelUse } from './core/analysis/types.ts';
import { analyzeClearing } from './core/clearing/analyze.ts';
import { parsedJsonInput, type InputError as ClearingInputError } from './core/clearing/inputs.ts';
import type { ClearingRecord } from './core/clearing/record.ts';
import { evaluateDupesInput, type DupesRecord } from './core/dupes/index.ts';
import type { InputFile, InputLimits, ReadProgress } from './core/input/index.ts';
import { collectBytes } from './core/input/bytes.ts';
import { rawChunks } from './core/input/source.ts';
import { FORMAT_OPTIONS, formatOption, type FormatOption } from './core/formats/wire.ts';
import { calibrated, calibrationMode } from './node/pipeline.ts';
import { installedQualificationStatus } from './node/qualification.ts';

export { CTXRAY_VERSION } from './core/analysis/version.ts';
export type { FormatOption } from './core/formats/wire.ts';
export { InputError, WorkLimitError } from './core/input/errors.ts';
export { CalibrationError } from './node/calibrate.ts';
export type { ClearingRecord, DupesRecord, ErrorRecord, FileRecord, InputLimits, ModelUse, ReadProgress, RequestRecord };

/** Rejects analyze when an input yielded no request at all (the CLI's exit 1): one line per file and error. */
export class UnreadableInputError extends Error {
  override readonly name = 'UnreadableInputError';
  constructor(readonly problems: readonly string[]) {
    super(`unreadable input:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
}

/**
 * One input's content: bytes, text (the log itself, never a path), a web ReadableStream, or any async iterable
 * of chunks (a Node stream such as fs.createReadStream(file)). Streams are read as they arrive, not held whole,
 * by analyze; dupes and clearing read their inputs whole, as the CLI does.
 */
export type Content = Uint8Array | string | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

/** Content with the name the reports show (gzip is recognised by its bytes, with or without a .gz name). */
export interface NamedContent {
  name: string;
  content: Content;
}


/** The CLI's analysis options (`ctxray analyze --format --model --calibrate`), plus cancellation and progress. */
export interface AnalyzeOptions {
  /** Wire format of every request body; 'auto' (the default) detects it per input. */
  format?: FormatOption;
  /** Price and tokenize every request as this model id instead of the one it names. */
  model?: string;
  /**
   * Count the largest Claude request exactly with Anthropic's count_tokens endpoint (one network call, the only
   * one the library ever makes) and rescale every Claude estimate. The key is sent only in that request's header.
   */
  calibrate?: { apiKey: string; baseUrl?: string };
  /**
   * Rescale Claude estimates by the log's recorded usage, offline (default true, as the CLI does; the CLI's
   * --no-usage-calibration is false). Ignored with `calibrate`, whose exact count replaces it.
   */
  usageCalibration?: boolean;
  /** Work limits (the CLI's --max-records, --max-requests, …; here they may be lowered too). */
  limits?: Partial<InputLimits>;
  signal?: AbortSignal;
  onProgress?: (progress: ReadProgress) => void;
}

/** The CLI's dupes options (`--max-*` work limits of a request log), plus cancellation. */
export interface DupesOptions {
  limits?: Partial<InputLimits>;
  signal?: AbortSignal;
}

/** The `ctxray.analysis` record (docs/analysis.schema.json): what `ctxray analyze --json -` prints. */
export interface AnalysisRecord {
  schema: typeof ANALYSIS_SCHEMA;
  generatedBy: string;
  pricedOn: string;
  files: FileRecord[];
  models: ModelUse[];
  requests: RequestRecord[];
  errors: ErrorRecord[];
  /** totals, calibration, findings, nearDuplicates, transcripts, summary: see the schema. */
  [section: string]: unknown;
}

/** Inputs of the clearing analysis: the contents of the files `ctxray clearing` names. */
export interface ClearingInputs {
  /** pi session journals (.jsonl), in the order they are to be read (the CLI sorts by path). */
  journals: readonly Content[];
  /** The checkpointed tool-history SQLite sidecar (docs/clearing/sidecar.md). */
  sidecar: Content;
  /** Set when a -wal, -shm or -journal companion file exists beside the sidecar: it is then refused, as the CLI does. */
  sidecarHasCompanion?: boolean;
  /** JSON inputs, as JSON text (string or bytes) or already parsed. */
  routes: unknown;
  qualification: unknown;
  agentConfig?: unknown;
  appAllowlist?: unknown;
  /** Expected share of cleared results retrieved again, 0..1 (default 0.05). */
  retrievalRate?: number;
  /** Stops reading the inputs; the call rejects with an AbortError. */
  signal?: AbortSignal;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array | string> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

const encoder = new TextEncoder();
// As Node's readFileSync(file, 'utf8') decodes for the CLI: invalid bytes become U+FFFD and a BOM is kept.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Content as what the core reads: bytes or a web stream of bytes. */
function bytesOrStream(content: Content): Uint8Array | ReadableStream<Uint8Array> {
  if (typeof content === 'string') return encoder.encode(content);
  if (content instanceof Uint8Array || content instanceof ReadableStream) return content;
  if (isAsyncIterable(content)) {
    const chunks = content[Symbol.asyncIterator]();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done === true) controller.close();
        else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
      },
      cancel() {
        // A Node stream is destroyed at once; a generator's return() would wait for its pending next().
        (content as { destroy?: () => void }).destroy?.();
        void chunks.return?.()?.catch(() => undefined);
      },
    });
  }
  throw new TypeError('ctxray: content must be a Uint8Array, a string, a ReadableStream or an async iterable of chunks');
}

/** Content read whole; an abort cancels the read at once. */
async function wholeBytes(content: Content, signal?: AbortSignal): Promise<Uint8Array> {
  const source = bytesOrStream(content);
  if (source instanceof Uint8Array) return source;
  return collectBytes(rawChunks(source, () => undefined, signal));
}

function isNamed(value: unknown): value is NamedContent {
  return typeof value === 'object' && value !== null && 'name' in value && 'content' in value;
}

/** The inputs as named contents: an unnamed one is `input` alone, `input-<n>` in an array. */
function namedInputs(input: Content | NamedContent | readonly (Content | NamedContent)[]): NamedContent[] {
  if (!Array.isArray(input)) return [isNamed(input) ? input : { name: 'input', content: input as Content }];
  return (input as readonly (Content | NamedContent)[]).map((item, i) => (isNamed(item) ? item : { name: `input-${i + 1}`, content: item }));
}

/**
 * What a library call rejects with once its signal fired, whatever stopped it on the way: an `AbortError`
 * (the signal's own reason, a TimeoutError for AbortSignal.timeout, is its `cause`).
 */
function abortErrorOf(signal: AbortSignal): DOMException {
  const error = new DOMException('ctxray: the operation was aborted', 'AbortError');
  Object.defineProperty(error, 'cause', { value: signal.reason, enumerable: false });
  return error;
}

/** Runs `work`, rejecting with an AbortError as soon as `signal` fires (the work's own reads are cancelled by it). */
async function abortable<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  if (signal === undefined) return work();
  if (signal.aborted) throw abortErrorOf(signal);
  let stop: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    stop = () => reject(abortErrorOf(signal));
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([work(), aborted]);
  } catch (error) {
    throw signal.aborted ? abortErrorOf(signal) : error;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * Tokens by category, cache simulation and findings of one or more request logs or transcripts (`ctxray
 * analyze`). Several inputs are one analysis, as several files on the command line are. Unreadable records are
 * listed in `errors`; an input that yields no request at all rejects with UnreadableInputError (the CLI's exit 1),
 * a reached work limit with WorkLimitError (an InputError), a failed calibration with CalibrationError.
 */
export function analyze(input: Content | NamedContent | readonly (Content | NamedContent)[], options: AnalyzeOptions = {}): Promise<AnalysisRecord> {
  return abortable(options.signal, () => analyzeNamed(namedInputs(input), options));
}

async function analyzeNamed(named: readonly NamedContent[], options: AnalyzeOptions): Promise<AnalysisRecord> {
  const format = options.format === undefined ? 'auto' : formatOption(options.format);
  if (format === undefined) throw new TypeError(`ctxray: format must be one of ${Object.keys(FORMAT_OPTIONS).join(', ')}`);
  const files: InputFile[] = named.map(({ name, content }) => ({ name, bytes: bytesOrStream(content) }));
  let analysis = await analyzeInput(files, {
    format,
    model: options.model ?? null,
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.onProgress !== undefined && { onProgress: options.onProgress }),
    ...(options.limits !== undefined && { limits: options.limits }),
  });
  const unreadable = unreadableFiles(analysis);
  if (unreadable.length > 0) throw new UnreadableInputError(unreadable);
  const env = { ANTHROPIC_API_KEY: options.calibrate?.apiKey, ANTHROPIC_BASE_URL: options.calibrate?.baseUrl };
  const mode = calibrationMode({ countTokens: options.calibrate !== undefined, usageCalibration: options.usageCalibration !== false });
  analysis = (await calibrated(analysis, mode, env)).analysis;
  return buildRecord(analysis) as AnalysisRecord;
}

/**
 * The exact duplicate-context contract of one input (`ctxray dupes`, docs/dupes.md): `result` is pass, fail or
 * unknown (the CLI's exit 0, 1, 2), with `reason` when unknown.
 */
export function dupes(input: Content | NamedContent, options: DupesOptions = {}): Promise<DupesRecord> {
  const { name, content } = isNamed(input) ? input : { name: 'input', content: input };
  return abortable(options.signal, async () => evaluateDupesInput({ name, bytes: await wholeBytes(content, options.signal) }, options));
}

/** JSON text (string or bytes) parsed, anything else taken as parsed already; null (not_json) when it does not parse. */
function jsonInput(value: unknown, input: ClearingInputError['input'], errors: ClearingInputError[]): unknown {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) return value;
  return parsedJsonInput(typeof value === 'string' ? value : decoder.decode(value), input, errors);
}

/**
 * Whether clearing old tool results would pay off (`ctxray clearing`, docs/clearing/README.md): BUILD, DEFER or
 * STOP per API, from journal and sidecar contents, routes and a qualification record made with the installed
 * @mariozechner/pi-ai.
 */
export function clearing(inputs: ClearingInputs): Promise<ClearingRecord> {
  return abortable(inputs.signal, () => clearingOf(inputs));
}

async function clearingOf(inputs: ClearingInputs): Promise<ClearingRecord> {
  const { signal } = inputs;
  const inputErrors: ClearingInputError[] = [];
  const journals = await Promise.all(inputs.journals.map(async (journal) => decoder.decode(await wholeBytes(journal, signal))));
  const sidecar = { bytes: await wholeBytes(inputs.sidecar, signal), companionPresent: inputs.sidecarHasCompanion === true };
  const routes = jsonInput(inputs.routes, 'routes', inputErrors);
  const qualificationJson = jsonInput(inputs.qualification, 'qualification', inputErrors);
  const agentConfig = jsonInput(inputs.agentConfig, 'agent_config', inputErrors);
  const appAllowlist = jsonInput(inputs.appAllowlist, 'app_allowlist', inputErrors);
  const SQL = await initSqlJs();
  signal?.throwIfAborted();
  const { record } = analyzeClearing({
    SQL,
    journals,
    sidecar,
    routes,
    qualification: await installedQualificationStatus(qualificationJson),
    agentConfig,
    appAllowlist,
    ...(inputs.retrievalRate !== undefined && { retrievalRate: inputs.retrievalRate }),
    inputErrors,
  });
  return record;
}
