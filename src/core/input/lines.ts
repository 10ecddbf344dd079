// Decompressed bytes → text lines, one at a time or a batch at a time. UTF-8 lines are cut at byte 0x0A (which
// never occurs inside a multi-byte UTF-8 sequence) and decoded one by one with a fatal decoder, so an invalid byte
// is reported with its offset and only its own line is lost. UTF-16 (recognised by its BOM only) is decoded as a
// stream.

import { concatBytes } from './bytes.ts';
import { InputError, throwIfAborted, WorkLimitError } from './errors.ts';
import { formatBytes } from './limits.ts';
import { firstInvalidUtf8Offset } from './utf8-check.ts';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

/**
 * One line of the file: its text, or why it could not be read; or a run of `blank` blank lines (nothing but
 * spaces, tabs and CR) starting at `line`, counted by a byte scan instead of being decoded one by one. `line` is
 * 1-based.
 */
export type TextLine = { line: number; text: string } | { line: number; error: string } | { line: number; blank: number };

/**
 * A UTF-8 line not yet decoded (rawTextLines): its bytes (a BOM of line 1 and the line feed left out) and the file
 * offset of its first byte. `decodeRawLine` gives the TextLine textLines would have given for it.
 */
export interface RawLine {
  line: number;
  bytes: Uint8Array;
  offset: number;
}

export type LineItem = TextLine | RawLine;

export interface LineReaderOptions {
  maxRecordBytes: number;
  /** Blank lines the file may hold before the read stops with LIMIT_BLANK_LINES. */
  maxBlankLines: number;
  signal?: AbortSignal;
}

/** Counts blank lines against their limit; throws WorkLimitError at the first line past it. */
class BlankLines {
  private count = 0;

  constructor(private readonly max: number) {}

  add(firstLine: number, lines: number): void {
    if (this.count + lines > this.max) {
      const line = firstLine + (this.max - this.count);
      throw new WorkLimitError('LIMIT_BLANK_LINES', 'blank lines per file', this.max, { line });
    }
    this.count += lines;
  }
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;

/**
 * Where the run of blank lines (only spaces, tabs, CR, each ended by LF) that starts at `start` ends, and how many
 * lines it holds (in `count.lines`). A plain function, not part of the generator: V8 optimizes this loop far
 * better on its own (~3 ns a byte instead of ~20).
 */
function blankRunEnd(chunk: Uint8Array, start: number, count: { lines: number }): number {
  const length = chunk.byteLength;
  let at = start;
  let lines = 0;
  for (;;) {
    let i = at;
    while (i < length) {
      const b = chunk[i]!;
      if (b !== SPACE && b !== TAB && b !== CR) break;
      i++;
    }
    if (i >= length || chunk[i] !== LF) break;
    lines++;
    at = i + 1;
  }
  count.lines = lines;
  return at;
}

/** How many leading bytes are inspected for NUL bytes before the file is accepted as text. */
const BINARY_SNIFF_BYTES = 8192;
const LF = 0x0a;
/**
 * JSON never holds raw control bytes other than tab, LF and CR (inside strings they must be escaped), so a few of
 * them at the start mark binary data; one could be a single broken line, reported on its own.
 */
const MAX_CONTROL_BYTES = 3;

function controlBytes(bytes: Uint8Array): { count: number; first: number } {
  let count = 0;
  let first = -1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) {
      if (first < 0) first = i;
      count++;
    }
  }
  return { count, first };
}

/**
 * Split decoded text into lines. Throws InputError for a 0-byte file or one that is not text; yields per-line
 * errors for invalid UTF-8 and over-long lines and goes on with the next line.
 */
export async function* textLines(chunks: AsyncIterable<Uint8Array>, options: LineReaderOptions): AsyncGenerator<TextLine> {
  for await (const batch of lineBatches(chunks, options, false)) for (const line of batch as TextLine[]) yield line;
}

/**
 * textLines' lines in batches (up to a chunk's lines, at most MAX_BATCH_LINES), each UTF-8 line handed on as its
 * bytes (the same lines, numbers, blank runs and errors; UTF-16 lines are decoded as textLines decodes them): for
 * a reader that decodes only the lines it needs and takes them without an await per line. A read that fails hands
 * on the lines before the failure first.
 */
export function rawTextLineBatches(chunks: AsyncIterable<Uint8Array>, options: LineReaderOptions): AsyncGenerator<LineItem[]> {
  return lineBatches(chunks, options, true);
}

/** Lines per batch at most: a chunk of short lines is not held as millions of line objects at once. */
const MAX_BATCH_LINES = 512;

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The TextLine textLines gives for a line: its text (a trailing CR dropped), or where its UTF-8 is invalid. */
export function decodeRawLine(raw: RawLine): TextLine {
  try {
    return { line: raw.line, text: stripCr(fatalUtf8.decode(raw.bytes)) };
  } catch {
    const bad = firstInvalidUtf8Offset(raw.bytes);
    const offset = raw.offset + Math.max(bad, 0);
    return { line: raw.line, error: `invalid UTF-8 at byte offset ${offset} (byte ${Math.max(bad, 0) + 1} of the line)` };
  }
}

async function* lineBatches(chunks: AsyncIterable<Uint8Array>, options: LineReaderOptions, raw: boolean): AsyncGenerator<LineItem[]> {
  const iterator = chunks[Symbol.asyncIterator]();
  // Gather enough leading bytes to recognise a BOM and to sniff for binary content.
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let exhausted = false;
  while (headBytes < BINARY_SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      exhausted = true;
      break;
    }
    if (next.value.byteLength === 0) continue;
    head.push(next.value);
    headBytes += next.value.byteLength;
  }
  if (headBytes === 0) throw new InputError('the file is empty (0 bytes)');
  const first = concatBytes(head, headBytes);
  const encoding = encodingFromBom(first);
  if (encoding === 'utf-8') {
    const sniffed = first.subarray(0, BINARY_SNIFF_BYTES);
    const nul = sniffed.indexOf(0);
    if (nul >= 0) {
      throw new InputError(
        `not a text file: NUL byte at offset ${nul} (binary data, or UTF-16 without a byte-order mark)`,
      );
    }
    const control = controlBytes(sniffed);
    if (control.count >= MAX_CONTROL_BYTES) {
      throw new InputError(`not a text file: ${control.count} control bytes in the first ${sniffed.byteLength} bytes, the first at offset ${control.first}`);
    }
  }
  async function* all(): AsyncGenerator<Uint8Array> {
    yield first;
    if (exhausted) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (encoding === 'utf-8') yield* utf8LineBatches(all(), options, raw);
  else for await (const line of utf16Lines(all(), encoding, options)) yield [line];
}

export function encodingFromBom(head: Uint8Array): TextEncodingName {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

async function* utf8LineBatches(chunks: AsyncIterable<Uint8Array>, options: LineReaderOptions, raw: boolean): AsyncGenerator<LineItem[]> {
  const lines = new Utf8Lines(options, raw);
  let batch: LineItem[] = [];
  try {
    for await (const chunk of chunks) {
      throwIfAborted(options.signal);
      for (let start = 0; start >= 0; ) {
        start = lines.split(chunk, start, batch);
        if (batch.length > 0) {
          yield batch;
          batch = [];
        }
      }
    }
    lines.end(batch);
  } catch (error) {
    // The lines before a failure (a limit, a broken stream) are handed on as a line-by-line read hands them on.
    if (batch.length > 0) yield batch;
    throw error;
  }
  if (batch.length > 0) yield batch;
}

/** UTF-8 lines cut from chunk after chunk: a line's bytes gathered across chunks, blank runs counted, over-long lines skipped. */
class Utf8Lines {
  private readonly pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** The current line outgrew the record limit: its bytes are dropped until the next newline. */
  private overflow = false;
  private line = 0;
  private fileOffset = 0;
  private lineStart = 0;
  private readonly blanks: BlankLines;
  private readonly scan = { lines: 0 };

  constructor(
    private readonly options: LineReaderOptions,
    private readonly raw: boolean,
  ) {
    this.blanks = new BlankLines(options.maxBlankLines);
  }

  /**
   * The lines of chunk[start..] into `batch`, until MAX_BATCH_LINES are there (the place to go on from is
   * returned) or the chunk ends (-1; a line it leaves open goes on in the next chunk).
   */
  split(chunk: Uint8Array, start: number, batch: LineItem[]): number {
    while (batch.length < MAX_BATCH_LINES) {
      if (this.pendingBytes === 0 && !this.overflow) {
        // Blank lines at the start of a line are counted in one run (a file of newlines is a bomb shape).
        const at = blankRunEnd(chunk, start, this.scan);
        const run = this.scan.lines;
        if (run > 0) {
          this.blanks.add(this.line + 1, run);
          batch.push({ line: this.line + 1, blank: run });
          this.line += run;
          this.fileOffset += at - start;
          this.lineStart = this.fileOffset;
          start = at;
        }
      }
      const nl = chunk.indexOf(LF, start);
      const end = nl < 0 ? chunk.byteLength : nl;
      if (!this.overflow) {
        if (this.pendingBytes + (end - start) > this.options.maxRecordBytes) {
          this.overflow = true;
          this.pending.length = 0;
          this.pendingBytes = 0;
        } else if (end > start) {
          this.pending.push(chunk.subarray(start, end));
          this.pendingBytes += end - start;
        }
      }
      this.fileOffset += end - start;
      if (nl < 0) return -1;
      this.fileOffset += 1;
      batch.push(this.finish());
      start = nl + 1;
    }
    return start;
  }

  /** A last line without a trailing newline; a file ending in '\n' has no extra empty line. */
  end(batch: LineItem[]): void {
    if (this.pendingBytes > 0 || this.overflow) batch.push(this.finish());
  }

  private finish(): LineItem {
    const line = ++this.line;
    const startOffset = this.lineStart;
    this.lineStart = this.fileOffset;
    if (this.overflow) {
      this.overflow = false;
      this.pending.length = 0;
      this.pendingBytes = 0;
      return { line, error: `line is longer than the record limit of ${formatBytes(this.options.maxRecordBytes)}; skipped` };
    }
    let bytes = concatBytes(this.pending, this.pendingBytes);
    this.pending.length = 0;
    this.pendingBytes = 0;
    let bomBytes = 0;
    if (line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      bytes = bytes.subarray(3);
      bomBytes = 3;
    }
    const item: RawLine = { line, bytes, offset: startOffset + bomBytes };
    return this.raw ? item : decodeRawLine(item);
  }
}

async function* utf16Lines(
  chunks: AsyncIterable<Uint8Array>,
  encoding: 'utf-16le' | 'utf-16be',
  options: LineReaderOptions,
): AsyncGenerator<TextLine> {
  // The BOM is consumed by the decoder (ignoreBOM: false). A bad code unit cannot be pinned to a line of a
  // stream as easily as in UTF-8, so it is reported at the byte offset of the chunk it was found in.
  const decoder = new TextDecoder(encoding, { fatal: true });
  let carry = '';
  let line = 0;
  let offset = 0;
  const blanks = new BlankLines(options.maxBlankLines);
  for await (const chunk of chunks) {
    throwIfAborted(options.signal);
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new InputError(`invalid ${encoding.toUpperCase()} in the bytes starting at offset ${offset}`);
    }
    offset += chunk.byteLength;
    carry += text;
    let nl = carry.indexOf('\n');
    let from = 0;
    while (nl >= 0) {
      line++;
      const text = stripCr(carry.slice(from, nl));
      if (BLANK_TEXT.test(text)) {
        blanks.add(line, 1);
        yield { line, blank: 1 };
      } else yield { line, text };
      from = nl + 1;
      nl = carry.indexOf('\n', from);
    }
    carry = carry.slice(from);
    if (carry.length * 2 > options.maxRecordBytes) {
      throw new InputError(
        `line ${line + 1} is longer than the record limit of ${formatBytes(options.maxRecordBytes)}`,
        line + 1,
      );
    }
  }
  try {
    carry += decoder.decode();
  } catch {
    throw new InputError(`${encoding.toUpperCase()} text ends in the middle of a character`);
  }
  if (carry.length > 0) {
    line++;
    yield { line, text: stripCr(carry) };
  }
}

const BLANK_TEXT = /^[ \t\r]*$/;

function stripCr(text: string): string {
  return text.length > 0 && text.charCodeAt(text.length - 1) === 0x0d ? text.slice(0, -1) : text;
}


