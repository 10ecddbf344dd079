// The public shapes of a read: the files given, the options, the progress reported, what comes back.
import type { ParsedRequest, ReadError, WireFormat } from '../model.ts';
import type { SessionLink, TranscriptImporter } from '../formats/types.ts';
import type { InputLimits } from './limits.ts';
import type { RecordLayout } from './records.ts';
import type { SeenCalls, DroppedCalls } from './seen-calls.ts';
import type { UsageWarning } from './usage-check.ts';

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
