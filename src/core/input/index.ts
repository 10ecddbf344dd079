// Public entry of input reading: files (bytes or streams) → ParsedRequest[] + located errors.
// Pipeline per file: raw chunks → gunzip → text lines → JSON records → envelope → wire importer (or a whole-file
// transcript importer). JSONL is processed record by record and never needs the file's whole text.

import type { ParsedRequest, ReadError, WireFormat } from '../model.ts';
import { detectWireFormat } from '../formats/detect.ts';
import { FIRST_RECORDS_FOR_DETECTION, TRANSCRIPT_IMPORTERS, transcriptImporterByName, transcriptImporterByRecords } from '../formats/registry.ts';
import type { SessionLink, TranscriptImporter, TranscriptRecord } from '../formats/types.ts';
import { WIRE_IMPORTERS } from '../formats/wire.ts';
import { TextStore } from '../text/store.ts';
import { batchOutputUsage, classifyRecord, isOutputKind, unwrapRecord, type EnvelopeKind } from './envelope.ts';
import { WorkBudget } from './budget.ts';
import { InputError, throwIfAborted, WorkLimitError } from './errors.ts';
import { isObject } from './json-value.ts';
import { resolveLimits, type InputLimits } from './limits.ts';
import { describeShape } from './shape.ts';
import { textLines } from './lines.ts';
import { readRecords, type RawRecord, type RecordLayout } from './records.ts';
import { ResentJsonParser } from './resent-json.ts';
import { decodedChunks, rawChunks } from './source.ts';
import { recordedUsage } from './usage.ts';
import { checkedRecordedUsage, rejectImpossibleUsage, type UsageWarning } from './usage-check.ts';
import { SeenCalls, type DroppedCalls } from './seen-calls.ts';

export { DEFAULT_LIMITS, type InputLimits } from './limits.ts';
export { InputError, WorkLimitError, type WorkLimitCode } from './errors.ts';

export interface InputFile {
  name: string;
  bytes: Uint8Array | ReadableStream<Uint8Array>;
  /** Byte size when known (a stream's Content-Length / File.size); used for progress only. */
  size?: number;
  /** Path relative to the folder given (`/` separators), the only name the JSON record carries (sessions[].file). */
  folderPath?: string;
}

export interface ReadProgress {
  /** Index of the file being read. */
  file: number;
  /** Raw (possibly compressed) bytes of that file consumed so far. */
  bytesRead: number;
  /** Its size: `size`, the Uint8Array length, or 0 when unknown. */
  bytesTotal: number;
  /** Records of that file read so far. */
  records: number;
}

export interface ReadOptions {
  /** Force one wire format for every request body; 'auto' (the default) detects it per file. */
  format?: WireFormat | 'auto';
  signal?: AbortSignal;
  onProgress?: (p: ReadProgress) => void;
  /** Lower limits (tests, constrained hosts); defaults are in limits.ts. */
  limits?: Partial<InputLimits>;
  /** Transcript importers to try; defaults to the registry's. */
  transcriptImporters?: readonly TranscriptImporter[];
  /** Calls counted by earlier reads (a folder's sessions); by default each read has its own. */
  seenCalls?: SeenCalls;
}

export interface FileSummary {
  /** Wire format, a transcript importer's id, 'mixed', or null when nothing could be read. */
  format: WireFormat | string | null;
  /** 'none', an envelope kind (envelope.ts), 'mixed', or 'transcript'. */
  envelope: string;
  /** How the file holds its records: 'jsonl', 'json-array', 'json-document', 'batch-body'; null if unreadable. */
  layout: RecordLayout | null;
  /** Records (JSONL lines, array elements, documents) read, broken ones included. */
  records: number;
  requests: number;
  errors: number;
  /** An agent transcript's place among its sessions (main session or subagent), when it records one. */
  session?: SessionLink;
}

export interface ReadResult {
  requests: ParsedRequest[];
  errors: ReadError[];
  files: FileSummary[];
  /** Distinct interned strings (texts and wires) over the whole read. */
  distinctTexts: number;
  /** Recorded usage values refused as impossible (the request falls back to the simulation), one per value. */
  usageWarnings?: UsageWarning[];
  /** Calls dropped as copies of calls counted earlier (input/seen-calls.ts), per file of this read. */
  duplicateCalls?: DroppedCalls[];
}

/** A batch output record waiting for the request with its custom_id. */
interface PendingOutput {
  file: number;
  line: number;
  customId: string;
  usage: unknown;
}

/** How many ambiguous bodies wait for a body that settles the file's format before a weak guess is used. */
const MAX_UNDECIDED_BODIES = 64;

/** Longest stretch of reading without giving the event loop a turn (ms). */
const TURN_INTERVAL_MS = 50;

/**
 * A read of in-memory bytes runs on promises alone, which never let the event loop take a message: a worker could
 * not receive "cancel" until the read ended. Every TURN_INTERVAL_MS the read yields one macrotask turn.
 */
class EventLoopTurns {
  private last = performance.now();

  async take(signal: AbortSignal | undefined): Promise<void> {
    if (performance.now() - this.last < TURN_INTERVAL_MS) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.last = performance.now();
    throwIfAborted(signal);
  }
}

export async function readRequests(files: InputFile[], options: ReadOptions = {}): Promise<ReadResult> {
  const limits = resolveLimits(options.limits);
  const store = new TextStore();
  const resent = new ResentJsonParser();
  const requests: ParsedRequest[] = [];
  const errors: ReadError[] = [];
  const summaries: FileSummary[] = [];
  const outputs: PendingOutput[] = [];
  const outputFiles = new Set<number>();
  const turns = new EventLoopTurns();
  const budget = new WorkBudget(limits, store);
  const companions = new Map<string, unknown>();
  const readFiles = files.map((file) => file.name);
  const seenCalls = options.seenCalls ?? new SeenCalls();
  for (let f = 0; f < files.length; f++) {
    const reader = new FileReader(files[f]!, f, { readFiles, limits, store, resent, requests, errors, outputs, options, turns, budget, companions, seenCalls });
    const summary = await reader.read();
    if (isOutputKind(summary.envelope as EnvelopeKind)) outputFiles.add(f);
    summaries.push(summary);
  }
  attachBatchOutputs(requests, outputs, outputFiles, errors, summaries);
  for (const importer of options.transcriptImporters ?? TRANSCRIPT_IMPORTERS) {
    for (const error of importer.finishRead?.(companions) ?? []) {
      errors.push(error);
      const summary = summaries[error.file];
      if (summary) summary.errors++;
    }
  }
  linkSubagents(summaries);
  requests.forEach((request, i) => {
    request.index = i;
  });
  const usageWarnings = rejectImpossibleUsage(requests);
  return { requests, errors, files: summaries, distinctTexts: store.distinctTexts, usageWarnings, duplicateCalls: seenCalls.takeDropped() };
}

interface ReadState {
  limits: InputLimits;
  /** Every file name of the read (TranscriptContext.readFiles). */
  readFiles: readonly string[];
  store: TextStore;
  /** Parses JSONL lines reusing array items earlier lines sent (resent-json.ts). */
  resent: ResentJsonParser;
  requests: ParsedRequest[];
  errors: ReadError[];
  outputs: PendingOutput[];
  options: ReadOptions;
  turns: EventLoopTurns;
  /** Requests, segments and distinct texts of the whole read, against their limits. */
  budget: WorkBudget;
  /** Files an importer holds until their partner file is read (TranscriptContext.companions). */
  companions: Map<string, unknown>;
  seenCalls: SeenCalls;
}

/** Reads one file into the shared state. */
class FileReader {
  private records = 0;
  private suppressedErrors = 0;
  private firstSuppressedLine = 0;
  private requestsBefore: number;
  private errorsBefore: number;
  private outputsBefore: number;
  /** Envelope of the first classified record; `mixed` once another kind is seen. */
  private envelope: EnvelopeKind | null = null;
  private mixed = false;
  private format: WireFormat | null = null;
  private formats = new Set<WireFormat>();
  private undecided: { line: number; record: unknown; kind: EnvelopeKind }[] = [];
  private bytesRead = 0;
  private layout: () => RecordLayout | null = () => null;
  private elementLine: (record: number) => number | null = () => null;
  private readonly bytesTotal: number;
  private session: SessionLink | null = null;

  constructor(
    private readonly input: InputFile,
    private readonly file: number,
    private readonly state: ReadState,
  ) {
    this.requestsBefore = state.requests.length;
    this.errorsBefore = state.errors.length;
    this.outputsBefore = state.outputs.length;
    this.bytesTotal = input.size ?? (input.bytes instanceof Uint8Array ? input.bytes.byteLength : 0);
  }

  async read(): Promise<FileSummary> {
    const { options, limits } = this.state;
    const signal = options.signal;
    let transcript: TranscriptImporter | null = null;
    const transcriptRecords: TranscriptRecord[] = [];
    try {
      const raw = rawChunks(this.input.bytes, (n) => this.countBytes(n), signal);
      const decoded = decodedChunks(this.input.name, raw, limits.maxDecompressedBytes, signal);
      const lines = textLines(decoded, { maxRecordBytes: limits.maxRecordBytes, maxBlankLines: limits.maxBlankLines, signal });
      const source = readRecords(lines, limits, signal, this.state.resent.forFile());
      this.layout = source.layout;
      this.elementLine = source.elementLine;
      const importers = options.transcriptImporters ?? TRANSCRIPT_IMPORTERS;
      transcript = transcriptImporterByName(this.input.name, importers);
      // Until a transcript importer has had a look at the first parsed records, records wait here.
      const head: RawRecord[] = [];
      let headValues = 0;
      let decided = transcript !== null || importers.length === 0;
      for await (const record of source.records) {
        throwIfAborted(signal);
        await this.state.turns.take(signal);
        this.records++;
        if (this.records > limits.maxRecords) {
          throw new WorkLimitError('LIMIT_RECORDS', 'records per file', limits.maxRecords, record.line, this.file);
        }
        if (!decided) {
          head.push(record);
          if ('value' in record) headValues++;
          if (headValues < FIRST_RECORDS_FOR_DETECTION) continue;
          transcript = transcriptImporterByRecords(values(head), importers);
          decided = true;
          for (const held of head) this.take(held, transcript, transcriptRecords);
          head.length = 0;
          continue;
        }
        this.take(record, transcript, transcriptRecords);
        if (this.records % 256 === 0) this.progress();
      }
      if (!decided) {
        transcript = transcriptImporterByRecords(values(head), importers);
        for (const held of head) this.take(held, transcript, transcriptRecords);
      }
    } catch (error) {
      // A work limit ends the whole read; it names the file it stopped in.
      if (error instanceof WorkLimitError) error.file = this.file;
      if (!(error instanceof InputError) || error instanceof WorkLimitError) throw error;
      // A file-level failure (truncated gzip, a limit): what was read before it still counts.
      this.error(error.line, error.message);
    }
    if (transcript !== null) await this.importTranscript(transcript, transcriptRecords);
    else this.flushUndecided();
    this.sortErrors();
    this.summarizeSuppressedErrors();
    this.progress();
    return this.summary(transcript);
  }

  /** This file's errors in line order (a late envelope mismatch reports earlier lines after later ones). */
  private sortErrors(): void {
    const own = this.state.errors.splice(this.errorsBefore);
    own.sort((a, b) => a.line - b.line);
    this.state.errors.push(...own);
  }

  private countBytes(n: number): void {
    this.bytesRead += n;
    this.progress();
  }

  private progress(): void {
    this.state.options.onProgress?.({ file: this.file, bytesRead: this.bytesRead, bytesTotal: this.bytesTotal, records: this.records });
  }

  private error(line: number, message: string): void {
    if (this.state.errors.length - this.errorsBefore < this.state.limits.maxErrorsPerFile) {
      this.state.errors.push(this.locatedError(line, message));
      return;
    }
    if (this.suppressedErrors === 0) this.firstSuppressedLine = line;
    this.suppressedErrors++;
  }

  /**
   * In a JSON array or batch body, `line` is the record number (the record's contract): the message says
   * "record N", with the element's real line when the array document is known, so nobody reads N as a line.
   */
  private locatedError(line: number, message: string): ReadError {
    const layout = this.layout();
    if (line <= 0 || (layout !== 'json-array' && layout !== 'batch-body')) return { file: this.file, line, message };
    const at = this.elementLine(line);
    const where = at === null ? `record ${line}` : `record ${line} (line ${at})`;
    return { file: this.file, line, message: `${where}: ${message}`, recordNumber: line };
  }

  /** One closing error that counts the errors past the per-file limit. */
  private summarizeSuppressedErrors(): void {
    if (this.suppressedErrors === 0) return;
    const count = this.suppressedErrors.toLocaleString('en-US');
    this.state.errors.push({
      file: this.file,
      line: this.firstSuppressedLine,
      message: `${count} more unreadable records from this line on (only the first ${this.state.limits.maxErrorsPerFile.toLocaleString('en-US')} errors of a file are listed)`,
    });
  }

  private take(record: RawRecord, transcript: TranscriptImporter | null, transcriptRecords: TranscriptRecord[]): void {
    if ('error' in record) {
      this.error(record.line, record.error);
      return;
    }
    if (transcript !== null) transcriptRecords.push(transcriptRecord(record));
    // A request body cut off mid-write is not a request: closing what was open would invent its end. Only
    // containers (a HAR, a cassette) read what came before their break; the break itself is already an error.
    else if (record.cut !== true) this.wireRecord(record.line, record.value);
  }

  private async importTranscript(importer: TranscriptImporter, records: TranscriptRecord[]): Promise<void> {
    const context = {
      store: this.state.store,
      file: this.file,
      fileName: this.input.name,
      signal: this.state.options.signal,
      budget: this.state.budget,
      companions: this.state.companions,
      readFiles: this.state.readFiles,
      seenCalls: this.state.seenCalls,
    };
    const result = await importer.importFile(records, context);
    this.state.requests.push(...result.requests);
    this.state.errors.push(...result.errors);
    if (result.session) this.session = result.session;
  }

  /** One record of a request log: envelope consensus, then format, then the wire importer. */
  private wireRecord(line: number, record: unknown): void {
    if (!isObject(record)) {
      this.error(line, `record is a JSON ${Array.isArray(record) ? 'array' : record === null ? 'null' : typeof record}, not an object`);
      return;
    }
    const kind = classifyRecord(record);
    if (this.envelope === null) this.envelope = kind;
    else if (!this.mixed && kind !== this.envelope) this.becomeMixed();
    if (this.mixed && kind !== 'none') {
      this.error(line, envelopeMismatch(kind));
      return;
    }
    if (isOutputKind(kind)) {
      const unwrapped = unwrapRecord(record, kind, this.state.limits.maxNestingDepth);
      if (unwrapped.customId !== null) {
        const usage = batchOutputUsage(record, kind, this.state.limits.maxNestingDepth);
        this.state.outputs.push({ file: this.file, line, customId: unwrapped.customId, usage });
      }
      return;
    }
    this.undecided.push({ line, record, kind });
    const forced = this.state.options.format;
    if (this.format !== null || (forced !== undefined && forced !== 'auto')) {
      this.flushUndecided();
      return;
    }
    // Look for a body that settles the format; until then ambiguous bodies wait (a few, bounded).
    const last = this.undecided[this.undecided.length - 1]!;
    const body = unwrapRecord(last.record, last.kind, this.state.limits.maxNestingDepth);
    const detection = body.formatHint ? { format: body.formatHint, strong: true } : detectWireFormat(body.body);
    if (detection?.strong) this.format = detection.format;
    if (this.format !== null || this.undecided.length >= MAX_UNDECIDED_BODIES) this.flushUndecided();
  }

  /**
   * A record's envelope differs from the file's first one: nothing in this file is unwrapped after all. Requests
   * and batch outputs already taken out of envelopes become errors; bare bodies stay.
   */
  private becomeMixed(): void {
    this.mixed = true;
    const first = this.envelope!;
    if (first === 'none') return;
    const dropped = this.state.requests.splice(this.requestsBefore);
    for (const request of dropped) this.error(request.line, envelopeMismatch(first));
    const droppedOutputs = this.state.outputs.splice(this.outputsBefore);
    for (const output of droppedOutputs) this.error(output.line, envelopeMismatch(first));
    const waiting = this.undecided.splice(0);
    for (const held of waiting) this.error(held.line, envelopeMismatch(first));
  }

  /** Import the bodies that were waiting for the file's format (settled now, or at the end of the file). */
  private flushUndecided(): void {
    const waiting = this.undecided.splice(0);
    for (const held of waiting) this.importBody(held.line, held.record, held.kind);
  }

  private importBody(line: number, record: unknown, kind: EnvelopeKind): void {
    const unwrapped = unwrapRecord(record, kind, this.state.limits.maxNestingDepth);
    if (unwrapped.error !== null) {
      this.error(line, unwrapped.error);
      return;
    }
    const body = unwrapped.body;
    if (!isObject(body)) {
      this.error(line, `the request body is ${body === null || body === undefined ? 'missing' : `a JSON ${Array.isArray(body) ? 'array' : typeof body}`}`);
      return;
    }
    const forced = this.state.options.format;
    let format: WireFormat | null;
    if (forced !== undefined && forced !== 'auto') format = forced;
    else if (unwrapped.formatHint !== null) format = unwrapped.formatHint;
    else {
      const detection = detectWireFormat(body);
      format = detection === null ? this.format : detection.strong ? detection.format : (this.format ?? detection.format);
    }
    if (format === null) {
      this.error(line, `not a request body: no \`messages\` (Anthropic Messages, Chat Completions) or \`input\`/\`instructions\` (Responses); it looks like ${describeShape(body)}; formats tried: ${this.formatsTried()}`);
      return;
    }
    let request: ParsedRequest;
    try {
      request = WIRE_IMPORTERS[format](body, { store: this.state.store, file: this.file, line, index: this.state.requests.length });
    } catch (error) {
      // Importers guard every field they read; this keeps one unforeseen body from ending the whole read.
      const what = error instanceof Error ? error.name : 'error';
      this.error(line, `could not import this ${format} body (${what})`);
      return;
    }
    if (readsAsNothing(request)) {
      // Fail loud: a body whose every message is of an unknown shape is some other file, not a request.
      this.error(line, `not read: this record matches no format well (none of its ${request.messageCount} messages has a role or type a request format has); it looks like ${describeShape(body)}; formats tried: ${this.formatsTried()}`);
      return;
    }
    this.formats.add(format);
    request.customId = unwrapped.customId;
    request.timestamp = unwrapped.timestamp;
    if (unwrapped.usage !== null) request.recorded = checkedRecordedUsage(request, unwrapped.usage, (usage) => recordedUsage(usage, format));
    this.state.budget.addRequest(request);
    this.state.requests.push(request);
  }

  /** Every importer the reader could have used for this file, for the errors that refuse a record. */
  private formatsTried(): string {
    const transcripts = (this.state.options.transcriptImporters ?? TRANSCRIPT_IMPORTERS).map((importer) => importer.id);
    return [...Object.keys(WIRE_IMPORTERS), ...transcripts].join(', ');
  }

  private summary(transcript: TranscriptImporter | null): FileSummary {
    const requests = this.state.requests.length - this.requestsBefore;
    // Every error counts, listed or not (the closing summary is not an error of its own).
    const listed = this.state.errors.length - this.errorsBefore - (this.suppressedErrors > 0 ? 1 : 0);
    const errors = listed + this.suppressedErrors;
    const layout = this.layout();
    if (transcript !== null) {
      const summary: FileSummary = { format: transcript.id, envelope: 'transcript', layout, records: this.records, requests, errors };
      if (this.session !== null) summary.session = this.session;
      return summary;
    }
    const format = this.formats.size > 1 ? 'mixed' : ([...this.formats][0] ?? null);
    const envelope = this.mixed ? 'mixed' : (this.envelope ?? 'none');
    return { format, envelope, layout, records: this.records, requests, errors };
  }
}

/**
 * A body that imported to nothing recognisable: it has messages, yet no segment is a message of any kind and most
 * are unknown shapes (another tool's file with a `messages` key, e.g. a Gemini CLI chat read as Chat Completions).
 */
function readsAsNothing(request: ParsedRequest): boolean {
  if (request.messageCount === 0 || request.segments.some((segment) => segment.category !== 'other')) return false;
  // Unknown whole messages (an unknown role or item), not unknown blocks inside known messages.
  const unknownMessages = request.unknownShapes.filter((shape) => /^(?:messages|input)\[\d+\]$/.test(shape.path)).length;
  return unknownMessages * 2 > request.messageCount;
}

function transcriptRecord(record: { line: number; value: unknown; cut?: boolean }): TranscriptRecord {
  return record.cut === true ? { line: record.line, value: record.value, cut: true } : { line: record.line, value: record.value };
}

function values(records: RawRecord[]): TranscriptRecord[] {
  const out: TranscriptRecord[] = [];
  for (const record of records) if ('value' in record) out.push(transcriptRecord(record));
  return out;
}

/** A subagent transcript read with its parent session learns which Task call of the parent started it. */
/** A subagent's link to the Task call that started it, from its parent session's file read beside it. */
export function linkSubagents(summaries: readonly { session?: SessionLink | undefined }[]): void {
  const tasksBySession = new Map<string, Record<string, string>>();
  for (const summary of summaries) {
    const link = summary.session;
    if (link && link.agentId === null && link.sessionId !== null) tasksBySession.set(link.sessionId, link.subagentTasks);
  }
  for (const summary of summaries) {
    const link = summary.session;
    if (!link || link.agentId === null || link.sessionId === null) continue;
    link.startedBy = tasksBySession.get(link.sessionId)?.[link.agentId] ?? null;
  }
}

function envelopeMismatch(kind: EnvelopeKind): string {
  return `record has the ${kind} envelope but other records of this file do not; envelopes are unwrapped only when every record shares one`;
}

/** Attach batch output usage to the input requests with the same custom_id; report outputs that match nothing. */
function attachBatchOutputs(
  requests: ParsedRequest[],
  outputs: PendingOutput[],
  outputFiles: Set<number>,
  errors: ReadError[],
  summaries: FileSummary[],
): void {
  if (outputs.length === 0 && outputFiles.size === 0) return;
  const byId = new Map<string, ParsedRequest[]>();
  for (const request of requests) {
    if (request.customId === null) continue;
    const list = byId.get(request.customId);
    if (list) list.push(request);
    else byId.set(request.customId, [request]);
  }
  const unmatched = new Map<number, { count: number; firstLine: number }>();
  for (const output of outputs) {
    const matches = byId.get(output.customId);
    if (!matches) {
      const entry = unmatched.get(output.file) ?? { count: 0, firstLine: output.line };
      entry.count++;
      unmatched.set(output.file, entry);
      continue;
    }
    for (const request of matches) {
      if (request.recorded === null) request.recorded = checkedRecordedUsage(request, output.usage, (usage) => recordedUsage(usage, request.format));
    }
  }
  for (const [file, entry] of unmatched) {
    errors.push({
      file,
      line: entry.firstLine,
      message: `${entry.count} batch result${entry.count === 1 ? '' : 's'} with a custom_id that no request in the input files has (give the batch input file too)`,
    });
    const summary = summaries[file];
    if (summary) summary.errors++;
  }
}
