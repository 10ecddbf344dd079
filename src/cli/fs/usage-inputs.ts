// A session's files as the folder summary's usage pass reads them (src/core/folder/usage-pass.ts), in the main
// thread or on a worker: a file up to 32 MB is read in one call into one Buffer the process reuses file after
// file (no new memory to fault in and collect per file; the pass reads one file at a time and keeps no byte of
// it: what it keeps of a line is built anew), a larger or gzipped one is streamed. A session the pass hands to
// the full analysis opens its files again as plain streams.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import type { FastLines } from '../../core/folder/claude-line.ts';
import type { InputFile } from '../../core/input/index.ts';
import { lazyFileStream, lazyInputs, type SessionFile } from './folder-inputs.ts';

/** Buffer's own decoder of a range (what toString('utf8', start, end) calls, without its checks of the encoding name). */
const utf8Slice = (Buffer.prototype as unknown as { utf8Slice(this: Uint8Array, start: number, end: number): string }).utf8Slice;

/** Node's UTF-8 check and decoding, for the Claude Code lines the usage pass scans instead of parsing them whole. */
export const NODE_FAST_LINES: FastLines = {
  validUtf8: (bytes) => isUtf8(bytes),
  text: (bytes, start, end) => utf8Slice.call(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), start, end),
};

/** Files up to this size are read whole into the reused buffer; larger ones are streamed. */
const WHOLE_FILE_BYTES = 32 * 1024 * 1024;

let reused = Buffer.allocUnsafe(0);

/** The file's bytes in the reused buffer (valid until the next file is read); empty when it cannot be read. */
function readReused(full: string): Buffer {
  let fd: number | null = null;
  try {
    fd = fs.openSync(full, 'r');
    // The size listed may be out of date: read what the file holds now (grown past the limit: a buffer of its own).
    const length = fs.fstatSync(fd).size;
    if (length > WHOLE_FILE_BYTES) return fs.readFileSync(fd);
    if (reused.length < length) reused = Buffer.allocUnsafe(Math.max(length, reused.length * 2));
    let filled = 0;
    while (filled < length) {
      const n = fs.readSync(fd, reused, filled, length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return reused.subarray(0, filled);
  } catch {
    // Gone or unreadable since it was listed: no bytes, reported as the streamed read reports it.
    return Buffer.alloc(0);
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

const readWhole = (file: SessionFile) => file.size <= WHOLE_FILE_BYTES && !file.name.endsWith('.gz');

/** The session's files, each opened when the read reaches it: the first call for the usage pass, any later one in plain streams. */
export function usageInputs(files: readonly SessionFile[]): () => InputFile[] {
  let calls = 0;
  return () => (calls++ === 0 ? lazyInputs(files, (file) => (readWhole(file) ? readReused(file.full) : lazyFileStream(file.full))) : lazyInputs(files));
}
