// The capture file of `ctxray record`: created exclusively (O_CREAT|O_EXCL, so nothing existing is ever
// overwritten or followed through a symlink) with owner-only permissions, one JSON line appended per exchange,
// gzip when the name ends in .gz. Each gzip record is sync-flushed, so a capture cut off by a crash still
// decompresses up to its last whole record; close() writes the gzip trailer.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { checkOutputPath, type OutputCheck } from '../fs/safe-output.ts';

export interface CaptureWriter {
  /** The canonical path written to. */
  readonly path: string;
  append(record: unknown): void;
  /** Records appended so far. */
  readonly records: number;
  /** Flushes and closes the file (the gzip trailer is written); resolves once it is on disk. */
  close(): Promise<void>;
}

export type OpenedCapture = { ok: true; writer: CaptureWriter } | { ok: false; code: string; message: string };

/** Owner read/write only: the capture holds whole prompts and responses. */
export const CAPTURE_MODE = 0o600;

/**
 * Creates the capture at `outPath`. `onFailure` hears, once, the error code of the first write that fails (a
 * full disk, a file-size limit); the proxy keeps forwarding, and close() rejects with that error.
 */
export function openCapture(outPath: string, cwd: string, onFailure: (code: string) => void = () => {}): OpenedCapture {
  const check: OutputCheck = checkOutputPath(outPath, [], { cwd });
  if (!check.ok) return check;
  let fd: number;
  try {
    const create = check.device ? 0 : fs.constants.O_CREAT | fs.constants.O_EXCL;
    fd = fs.openSync(check.path, fs.constants.O_WRONLY | create, CAPTURE_MODE);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    if (code === 'EEXIST') return { ok: false, code: 'OUTPUT_EXISTS', message: '--out appeared before it could be created; it was not overwritten' };
    return { ok: false, code: 'OUTPUT_WRITE_FAILED', message: `could not create the --out file (${code})` };
  }
  // open()'s mode is reduced by the umask (0277 would leave 0400): set exactly owner read/write.
  if (!check.device) fs.fchmodSync(fd, CAPTURE_MODE);
  return { ok: true, writer: new StreamCaptureWriter(check.path, fd, { gzip: /\.gz$/i.test(check.path) }, onFailure) };
}

class StreamCaptureWriter implements CaptureWriter {
  records = 0;
  private readonly file: fs.WriteStream;
  private readonly gzip: zlib.Gzip | null;
  private closing: Promise<void> | null = null;
  private failure: Error | null = null;

  constructor(
    readonly path: string,
    fd: number,
    { gzip }: { gzip: boolean },
    private readonly onFailure: (code: string) => void,
  ) {
    this.file = fs.createWriteStream('', { fd, autoClose: true });
    this.file.on('error', (error) => this.fail(error));
    this.gzip = gzip ? zlib.createGzip() : null;
    if (this.gzip !== null) {
      this.gzip.on('error', (error) => this.fail(error));
      this.gzip.pipe(this.file);
    }
  }

  private fail(error: Error): void {
    if (this.failure !== null) return;
    this.failure = error;
    this.onFailure('code' in error ? String(error.code) : 'error');
  }

  append(record: unknown): void {
    if (this.closing !== null) throw new Error('capture file already closed');
    if (this.failure !== null) return; // the file is broken: what follows cannot be written after a gap
    // The line is written piece by piece (a body is one piece), so no single string holds two bodies at once.
    for (const piece of linePieces(record)) {
      if (this.gzip !== null) this.gzip.write(piece);
      else this.file.write(piece);
    }
    if (this.gzip !== null) this.gzip.flush(zlib.constants.Z_SYNC_FLUSH);
    this.records++;
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve, reject) => {
      const settle = () => (this.failure === null ? resolve() : reject(this.failure));
      if (this.file.closed) return settle();
      this.file.once('close', settle);
      if (this.gzip !== null) this.gzip.end();
      else this.file.end();
    });
    return this.closing;
  }
}

/**
 * One JSON line in pieces: the record's fields, and the fields of its request and response, each stringified on
 * its own. A value that still cannot be stringified (past V8's string length) is written as null with a
 * `write_error` beside it, so the line stays valid JSON.
 */
export function linePieces(record: unknown): string[] {
  const pieces: string[] = [];
  objectPieces(record, 2, pieces);
  pieces.push('\n');
  return pieces;
}

function objectPieces(value: unknown, depth: number, pieces: string[]): void {
  if (depth === 0 || typeof value !== 'object' || value === null || Array.isArray(value)) {
    pieces.push(stringified(value));
    return;
  }
  pieces.push('{');
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    pieces.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    objectPieces(item, depth - 1, pieces);
  }
  pieces.push('}');
}

function stringified(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return 'null,"write_error":"this value is too large to write as JSON"';
  }
}
