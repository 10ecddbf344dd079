// One file of a read: its bytes → lines → records, handed to a transcript importer (chosen by name or by the
// first records) or to the request-log path (wire-records.ts); its errors located and capped, its summary.
import { FIRST_RECORDS_FOR_DETECTION, TRANSCRIPT_IMPORTERS, transcriptImporterByName, transcriptImporterByRecords } from '../formats/registry.ts';
import type { SessionLink, TranscriptImporter, TranscriptRecord } from '../formats/types.ts';
import type { ReadError } from '../model.ts';
import { InputError, throwIfAborted, WorkLimitError } from './errors.ts';
import { textLines } from './lines.ts';
import type { ListLines } from './list-lines.ts';
import type { ReadState } from './read-state.ts';
import type { FileSummary, InputFile } from './read-types.ts';
import { readRecords, type RawRecord, type RecordLayout } from './records.ts';
import { decodedChunks, rawChunks } from './source.ts';
import { WireRecords } from './wire-records.ts';

/** Reads one file into the shared state. */
export class FileReader {
  private records = 0;
  private suppressedErrors = 0;
  private firstSuppressedLine = 0;
  private readonly requestsBefore: number;
  private readonly errorsBefore: number;
  private readonly wire: WireRecords;
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
    this.wire = new WireRecords(state, file, (line, message) => this.error(line, message));
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
          throw new WorkLimitError('LIMIT_RECORDS', 'records per file', limits.maxRecords, { line: record.line, file: this.file });
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
    else this.wire.flush();
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
    else if (record.cut !== true) this.wire.record(record.line, record.value);
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
    return { ...this.wire.summary(), layout, records: this.records, requests, errors };
  }
}

function transcriptRecord(record: { line: number; value: unknown; cut?: boolean; listLines?: ListLines }): TranscriptRecord {
  const out: TranscriptRecord = { line: record.line, value: record.value };
  if (record.cut === true) out.cut = true;
  if (record.listLines !== undefined) out.listLines = record.listLines;
  return out;
}

function values(records: RawRecord[]): TranscriptRecord[] {
  const out: TranscriptRecord[] = [];
  for (const record of records) if ('value' in record) out.push(transcriptRecord(record));
  return out;
}
