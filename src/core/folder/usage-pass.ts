// The folder summary at the speed of reading: one session's Claude Code files read line by line, each line read
// once (scanned for the keys the walk reads, claude-line.ts, or parsed) and walked for its API calls
// (claude-code-calls.ts, the walk the full importer makes) — no request rebuilt,
// nothing tokenized, no cache simulated. What it gives is what the session tables need: each call's model, send
// time and recorded usage, the files' session links and the located errors, as the full read reports them. A file
// that is not a Claude Code transcript (another agent's, a request log) is not guessed at: the pass answers null
// and the caller runs the full analysis of that session (docs/transcripts.md, "Two speeds").
import type { ReadError } from '../model.ts';
import type { AnalysisFile, ResolvedModel } from '../analysis/types.ts';
import { resolveModel } from '../analysis/models.ts';
import type { PriceOverrides } from '../pricing/overrides.ts';
import type { PricedRequest } from '../cache/cost.ts';
import { ClaudeCodeCalls } from '../formats/claude-code-calls.ts';
import { FIRST_RECORDS_FOR_DETECTION, TRANSCRIPT_IMPORTERS, transcriptImporterByName, transcriptImporterByRecords } from '../formats/registry.ts';
import type { TranscriptRecord } from '../formats/types.ts';
import { InputError, throwIfAborted, WorkLimitError } from '../input/errors.ts';
import type { InputFile, ReadProgress } from '../input/read-types.ts';
import { linkSubagents } from '../input/subagent-links.ts';
import { resolveLimits, type InputLimits } from '../input/limits.ts';
import { decodeRawLine, rawTextLineBatches, type LineItem, type RawLine, type TextLine } from '../input/lines.ts';
import { parseRecord, readRecords, type RawRecord } from '../input/records.ts';
import { scanWalkView, type FastLines } from './claude-line.ts';
import { decodedChunks, rawChunks } from '../input/source.ts';
import { recordedUsage } from '../input/usage.ts';
import { SeenCalls, type DroppedCalls } from '../input/seen-calls.ts';

/** One API call as the usage pass sees it: enough to price it and place it in the tables. */
export interface UsageCall extends PricedRequest {
  file: number;
  line: number;
  /** The conversation it continues: its file's lane (main or a sidechain) since the last compaction. */
  conversation: number;
  /** The transcript records a compaction since the lane's call before. */
  compacted: boolean;
}

export type UsageFile = Pick<AnalysisFile, 'name' | 'format' | 'envelope' | 'layout' | 'records' | 'requests' | 'errors' | 'folderPath' | 'session'>;

/** A session's files read for their usage: the shape `sessionParts` and `unreadableFiles` take. */
export interface UsageRead {
  files: UsageFile[];
  requests: UsageCall[];
  models: ResolvedModel[];
  errors: ReadError[];
  /** Calls dropped as copies of calls an earlier file recorded, per file of this session (as the full read drops them). */
  duplicateCalls: DroppedCalls[];
}

export interface UsageReadOptions {
  /** Price every call as this model (`--model`). */
  model?: string | null;
  /** Negotiated rates (`--prices`), as the full analysis takes them. */
  prices?: PriceOverrides | null;
  limits?: Partial<InputLimits>;
  signal?: AbortSignal;
  onProgress?: (p: ReadProgress) => void;
  /** Calls counted by earlier sessions of the folder (input/seen-calls.ts). */
  seenCalls?: SeenCalls;
  /** Scan lines after the first records for the keys the walk reads (claude-line.ts); without it every line is parsed. */
  fastLines?: FastLines;
}

const CLAUDE_CODE = 'claude-code';

/** Thrown inside the read when a file turns out not to be Claude Code's: the session takes the full analysis. */
class NotClaudeCode extends Error {}

/**
 * Reads a session's files for their recorded usage; null when one of them is not a Claude Code transcript (the
 * caller analyses the session in full). Throws the WorkLimitError a full read would (its `file` set).
 */
export async function readSessionUsage(files: readonly InputFile[], options: UsageReadOptions = {}): Promise<UsageRead | null> {
  const limits = resolveLimits(options.limits);
  const read: UsageRead = { files: [], requests: [], models: [], errors: [], duplicateCalls: [] };
  // Tentative: a session the pass gives up on is read again in full, and must find its calls unclaimed.
  const seen = new SeenCalls(options.seenCalls ?? null);
  const conversations = { lanes: new Map<string, number>(), count: 0 };
  try {
    for (let f = 0; f < files.length; f++) {
      const reader = new UsageFileReader({ input: files[f]!, file: f, limits, options, read, conversations, seen });
      read.files.push(await reader.read());
    }
  } catch (error) {
    if (error instanceof NotClaudeCode) return null;
    throw error;
  }
  if (read.requests.length > limits.maxRequests) {
    const over = read.requests[limits.maxRequests]!;
    throw new WorkLimitError('LIMIT_REQUESTS', 'requests per input', limits.maxRequests, { line: over.line, file: over.file });
  }
  read.duplicateCalls = seen.takeDropped();
  seen.commit();
  linkSubagents(read.files);
  read.requests.forEach((call, i) => {
    call.index = i;
  });
  read.models = read.requests.map((call) => resolveModel(call, options.model ?? null, options.prices ?? null));
  return read;
}

interface FileReaderContext {
  input: InputFile;
  file: number;
  limits: InputLimits;
  options: UsageReadOptions;
  read: UsageRead;
  conversations: { lanes: Map<string, number>; count: number };
  seen: SeenCalls;
}

/** One file, as input/index.ts's FileReader reads a transcript: the same limits, errors and counts. */
class UsageFileReader {
  private records = 0;
  private bytesRead = 0;
  private readonly errors: ReadError[] = [];
  private suppressed = 0;
  private firstSuppressedLine = 0;
  private readonly walk: ClaudeCodeCalls;
  private layout: () => string | null = () => null;

  constructor(private readonly ctx: FileReaderContext) {
    this.walk = new ClaudeCodeCalls({ file: ctx.file, keepMessages: false, seen: ctx.seen });
  }

  async read(): Promise<UsageFile> {
    const { input, options } = this.ctx;
    if ((transcriptImporterByName(input.name)?.id ?? CLAUDE_CODE) !== CLAUDE_CODE) throw new NotClaudeCode();
    try {
      await this.readRecords();
    } catch (error) {
      if (error instanceof WorkLimitError) error.file = this.ctx.file;
      if (!(error instanceof InputError) || error instanceof WorkLimitError) throw error;
      // A file-level failure (truncated gzip, a limit): what was read before it still counts.
      this.error(error.line, error.message);
    }
    if (this.records === 0 && this.layout() === null) throw new NotClaudeCode();
    this.walk.finish();
    this.addCalls();
    const errors = [...this.errors, ...this.walk.errors].sort((a, b) => a.line - b.line);
    if (this.suppressed > 0) errors.push(this.suppressedSummary());
    this.ctx.read.errors.push(...errors);
    options.onProgress?.({ file: this.ctx.file, bytesRead: this.bytesRead, bytesTotal: input.size ?? 0, records: this.records });
    return {
      name: input.name,
      format: CLAUDE_CODE,
      envelope: 'transcript',
      layout: this.layout(),
      records: this.records,
      requests: this.walk.calls.filter((call) => !call.duplicate).length,
      errors: errors.length - (this.suppressed > 0 ? 1 : 0) + this.suppressed,
      ...(input.folderPath !== undefined && { folderPath: input.folderPath }),
      session: this.walk.session,
    };
  }

  private async readRecords(): Promise<void> {
    const { input, limits, options } = this.ctx;
    const signal = options.signal;
    const raw = rawChunks(input.bytes, (n) => this.countBytes(n), signal);
    const decoded = decodedChunks(input.name, raw, limits.maxDecompressedBytes, signal);
    const lines = new LineCursor(rawTextLineBatches(decoded, { maxRecordBytes: limits.maxRecordBytes, maxBlankLines: limits.maxBlankLines, signal }));
    // The first records go through the reader a full read uses (layout, detection); `pulled` is the last line it took.
    let pulled = 0;
    async function* asText(): AsyncGenerator<TextLine> {
      for (let item = await lines.next(); item !== null; item = await lines.next()) {
        pulled = item.line + ('blank' in item ? item.blank - 1 : 0);
        yield 'bytes' in item ? decodeRawLine(item) : item;
      }
    }
    const source = readRecords(asText(), limits, signal);
    this.layout = source.layout;
    const head: RawRecord[] = [];
    let decided = false;
    for await (const record of source.records) {
      this.count(record.line);
      if (decided) this.take(record);
      else {
        head.push(record);
        if (head.filter((r) => 'value' in r).length < FIRST_RECORDS_FOR_DETECTION) continue;
        this.decide(head);
        decided = true;
      }
      // JSONL with every line the reader took handed on: the rest is read here, a batch of lines at a time.
      if (source.layout() === 'jsonl' && pulled === record.line) return this.readRest(lines);
    }
    if (!decided) this.decide(head);
  }

  /** One more record (a value or an error), held to the records limit. */
  private count(line: number): void {
    const { limits, options } = this.ctx;
    throwIfAborted(options.signal);
    this.records++;
    if (this.records > limits.maxRecords) throw new WorkLimitError('LIMIT_RECORDS', 'records per file', limits.maxRecords, { line, file: this.ctx.file });
  }

  /**
   * The lines after the reader's, as its JSONL path reads them (records.ts, jsonlRest): an unreadable line is an
   * error record, a blank one is skipped, any other is parsed. A line is first scanned for the keys the walk reads.
   */
  private async readRest(lines: LineCursor): Promise<void> {
    for (let batch: readonly LineItem[] | null = lines.rest(); batch !== null; batch = await lines.nextBatch()) for (const item of batch) this.restLine(item);
  }

  private restLine(item: LineItem): void {
    const { limits, options } = this.ctx;
    const fast = options.fastLines;
    if ('blank' in item) return;
    const value = 'bytes' in item && fast !== undefined ? fastValue(item, fast, limits.maxNestingDepth) : undefined;
    if (value !== undefined) {
      this.count(item.line);
      this.take({ line: item.line, value });
      return;
    }
    const line = 'bytes' in item ? decodeRawLine(item) : item;
    if ('blank' in line || ('text' in line && line.text.trim() === '')) return;
    this.count(line.line);
    this.take('error' in line ? line : parseRecord(line.text, line.line, limits.maxNestingDepth));
  }

  /** The registry's choice on the file's first records, as the full read makes it; anything but Claude Code is refused. */
  private decide(head: readonly RawRecord[]): void {
    const values = head.filter((r): r is TranscriptRecord => 'value' in r);
    if (transcriptImporterByRecords(values, TRANSCRIPT_IMPORTERS)?.id !== CLAUDE_CODE || this.layout() !== 'jsonl') throw new NotClaudeCode();
    for (const record of head) this.take(record);
  }

  private take(record: RawRecord): void {
    if ('error' in record) this.error(record.line, record.error);
    else this.walk.add(record.line, record.value);
  }

  private countBytes(n: number): void {
    this.bytesRead += n;
    const { input, options, file } = this.ctx;
    options.onProgress?.({ file, bytesRead: this.bytesRead, bytesTotal: input.size ?? 0, records: this.records });
  }

  private error(line: number, message: string): void {
    if (this.errors.length < this.ctx.limits.maxErrorsPerFile) {
      this.errors.push({ file: this.ctx.file, line, message });
      return;
    }
    if (this.suppressed === 0) this.firstSuppressedLine = line;
    this.suppressed++;
  }

  private suppressedSummary(): ReadError {
    const count = this.suppressed.toLocaleString('en-US');
    return {
      file: this.ctx.file,
      line: this.firstSuppressedLine,
      message: `${count} more unreadable records from this line on (only the first ${this.ctx.limits.maxErrorsPerFile.toLocaleString('en-US')} errors of a file are listed)`,
    };
  }

  private addCalls(): void {
    const { read, conversations, file } = this.ctx;
    for (const call of this.walk.calls) {
      if (call.duplicate) continue;
      // A compaction starts the lane's history afresh: a conversation of its own, as the miss rule sees it.
      const lane = `${file}\u0000${call.lane}`;
      let conversation = conversations.lanes.get(lane);
      if (conversation === undefined || call.compacted) {
        conversation = conversations.count++;
        conversations.lanes.set(lane, conversation);
      }
      read.requests.push({
        index: 0,
        file,
        line: call.line,
        format: 'anthropic-messages',
        model: call.model,
        timestamp: call.sentAt,
        recorded: recordedUsage(call.usage, 'anthropic-messages'),
        options: { promptCacheKey: null },
        conversation,
        compacted: call.compacted,
      });
    }
  }
}

/** A file's lines, taken one at a time (the first records, read as a full read reads them) or a batch at a time (the rest). */
class LineCursor {
  private batch: readonly LineItem[] = [];
  private at = 0;
  constructor(private readonly batches: AsyncIterator<LineItem[]>) {}

  async next(): Promise<LineItem | null> {
    while (this.at === this.batch.length) {
      const next = await this.batches.next();
      if (next.done) return null;
      this.batch = next.value;
      this.at = 0;
    }
    return this.batch[this.at++]!;
  }

  /** What is left of the batch the last line came from (taken whole). */
  rest(): readonly LineItem[] {
    const rest = this.batch.slice(this.at);
    this.at = this.batch.length;
    return rest;
  }

  /** The next batch, taken whole; null at the end. */
  async nextBatch(): Promise<readonly LineItem[] | null> {
    const next = await this.batches.next();
    if (next.done) return null;
    this.batch = next.value;
    this.at = this.batch.length;
    return next.value;
  }
}

/** The keys of the line the walk reads, scanned from its bytes (claude-line.ts), or undefined to parse it the plain way. */
const fastValue = (item: RawLine, fast: FastLines, maxDepth: number): unknown => scanWalkView(item.bytes, fast, maxDepth) ?? undefined;
